package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Open order columns.
const (
	ocInstrument = iota
	ocSide
	ocPrice
	ocSize
	ocFilled
	ocType
	ocAge
	ocOid
)

// ordersPane lists the account's open orders; keys cancel one, all on an instrument, or all.
type ordersPane struct {
	*common.Common
	tbl     *common.Table
	orders  []api.OrderRecord
	version uint64
	ageAt   int64 // the clock second the age column was rendered at
	// emptyText is what an empty list says once loaded.
	emptyText string
}

func newOrdersPane(c *common.Common) *ordersPane {
	p := &ordersPane{Common: c}
	p.tbl = common.NewTable(c.Styles, []common.Column{
		common.Col("Instrument", 12, false, 0), common.Col("Side", 4, false, 0), common.Col("Price", 12, true, 0), common.Col("Size", 11, true, 0),
		common.Col("Filled", 11, true, 1), common.Col("Type", 14, false, 0), common.Col("Age", 7, true, 1), common.Col("Order id", 10, true, 2),
	}, p.cell)
	p.emptyText = "no open orders"
	return p
}

// Title implements common.Pane.
func (p *ordersPane) Title() string { return fmt.Sprintf("Open orders (%d)", len(p.orders)) }

// Kinds implements common.KindsShower.
func (p *ordersPane) Kinds() []state.Kind { return []state.Kind{state.KindOrders} }

// SetSize implements common.Pane.
func (p *ordersPane) SetSize(w, h int) { p.tbl.SetSize(w, h) }

// SetFocused implements common.Pane.
func (p *ordersPane) SetFocused(f bool) { p.tbl.Focused = f }

// Update implements common.Pane.
func (p *ordersPane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.DataMsg:
		if msg.Kind == state.KindOrders || msg.Kind == state.KindInstruments {
			p.refresh()
		}
	case tea.KeyMsg:
		return p.handleKey(msg)
	}
	return nil
}

func (p *ordersPane) refresh() {
	if v := p.Store.Version(state.KindOrders) + p.Store.Version(state.KindInstruments); v != p.version {
		p.version = v
		p.orders = p.Store.Orders()
		p.tbl.SetRows(len(p.orders))
	}
}

func (p *ordersPane) handleKey(msg tea.KeyMsg) tea.Cmd {
	if p.tbl.Navigate(p.Keys, msg) {
		return nil
	}
	k := p.Keys
	switch {
	case key.Matches(msg, k.Cancel):
		return p.cancelSelected()
	case key.Matches(msg, k.CancelInstrument):
		return p.cancelInstrument()
	case key.Matches(msg, k.CancelAll):
		return p.cancelAll()
	case key.Matches(msg, k.Pick):
		if o, ok := p.selected(); ok {
			return common.SelectInstrument(o.Instrument, "", true)
		}
	}
	return nil
}

func (p *ordersPane) selected() (api.OrderRecord, bool) {
	if p.tbl.Cursor < 0 || p.tbl.Cursor >= len(p.orders) {
		return api.OrderRecord{}, false
	}
	return p.orders[p.tbl.Cursor], true
}

func (p *ordersPane) cancelSelected() tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, "cancel an order")
	}
	o, ok := p.selected()
	if !ok {
		return common.Notice(common.LevelWarn, "no order selected")
	}
	return action.Request(action.NewCancel(o))
}

func (p *ordersPane) cancelInstrument() tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, "cancel orders")
	}
	o, ok := p.selected()
	if !ok {
		return common.Notice(common.LevelWarn, "no order selected")
	}
	n := 0
	for _, x := range p.orders {
		if x.InstrumentID == o.InstrumentID {
			n++
		}
	}
	return action.Request(action.NewCancelInstrument(o.InstrumentID, o.Instrument, n))
}

func (p *ordersPane) cancelAll() tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, "cancel orders")
	}
	return action.Request(action.NewCancelAll("Cancel ALL open orders", fmt.Sprintf("cancel all %d open order(s)", len(p.orders)),
		[]string{fmt.Sprintf("Cancel all %d open order(s) on every instrument?", len(p.orders))}))
}

func (p *ordersPane) cell(row, col int) (string, common.Paint) {
	o := &p.orders[row]
	st := p.Styles
	in, _ := p.Store.Instrument(o.Instrument)
	pd, sd := in.PriceDecimals(), in.SizeDecimals()
	switch col {
	case ocInstrument:
		return o.Instrument, st.Bold
	case ocSide:
		if o.Side == api.SideBuy {
			return "BUY", st.Buy
		}
		return "SELL", st.Sell
	case ocPrice:
		if o.IsMarket {
			return "market", st.Muted
		}
		return common.FmtNum(o.LimitPrice, pd), st.Text
	case ocSize:
		return common.FmtNum(o.Size, sd), st.Text
	case ocFilled:
		f := o.Size.Sub(o.Unfilled)
		if f.IsZero() {
			return "-", st.Muted
		}
		return common.FmtNum(f, sd), st.Good
	case ocType:
		return orderType(o), st.Muted
	case ocAge:
		if o.Timestamp.IsZero() {
			return "-", st.Muted
		}
		return common.FmtAge(p.Clock().Sub(o.Timestamp.Time)), st.Muted
	case ocOid:
		return fmt.Sprint(o.OrderID), st.Muted
	}
	return "", common.Paint{}
}

// orderType is an order's type, trigger, time in force and flags in a few letters:
// "limit", "tp @51000 IOC RO PO" (the words are state's, shared with headless).
func orderType(o *api.OrderRecord) string {
	parts := []string{state.RecordTypeShort(o)}
	if o.Tif != "" && o.Tif != api.TifGTC {
		parts = append(parts, o.Tif)
	}
	return strings.Join(append(parts, state.FlagAbbrevs(o.ReduceOnly, o.PostOnly)...), " ")
}

// View implements common.Pane. Ages move with the clock, so rows re-render once a second at most.
func (p *ordersPane) View() string {
	p.tbl.Empty = p.emptyText
	if p.Account != "" {
		p.tbl.Empty = common.EmptyFor(p.Store, state.KindOrders, p.emptyText)
	}
	if sec := p.Clock().Unix(); sec != p.ageAt {
		p.ageAt = sec
		p.tbl.Invalidate()
	}
	return strings.Join(p.tbl.Lines(make([]string, 0, p.tbl.Height+1)), "\n")
}

// Click implements common.Clicker.
func (p *ordersPane) Click(_, y int) tea.Cmd {
	p.tbl.ClickRow(y)
	return nil
}

// ShortHelp implements common.Pane.
func (p *ordersPane) ShortHelp() []key.Binding {
	k := p.Keys
	return []key.Binding{k.Up, k.Down, k.Cancel, k.CancelInstrument, k.CancelAll}
}

// FullHelp implements common.Pane.
func (p *ordersPane) FullHelp() [][]key.Binding {
	k := p.Keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Cancel, k.CancelInstrument, k.CancelAll, k.Pick}}
}
