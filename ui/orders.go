package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
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
	ocOid
	ocAge
	ocCount
)

// orderTitles are the columns' titles.
var orderTitles = [ocCount]string{"Instrument", "Side", "Price", "Size", "Filled", "Type", "Order id", "Age"}

// Widths of the type column: as wide as its widest cell up to typeMax (a longer one is cut and
// the detail line gives it whole), and typeMin when the pane has no room for more.
const (
	typeMax = 24
	typeMin = 16
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
	// amend is the line where a new price and size for the selected order are typed.
	amend    textinput.Model
	amending bool
	amendOf  api.OrderRecord
	// movedTo is the client id of the replacement of the order last moved from this pane: the
	// cursor goes to it once it rests, when nothing else was selected since.
	movedTo string
	w, h    int
	// detail: the last line is kept for the selected order's detail line, because the width
	// leaves out a column (its id, most often) or cuts a type.
	detail  bool
	typeCut bool // some order's type is wider than its column
}

func newOrdersPane(c *common.Common) *ordersPane {
	p := &ordersPane{Common: c}
	// Price, Size, Filled, Type and Order id are as wide as their cells (fitWidths). The id
	// goes before the age when narrow: it is what `cancel ID` takes.
	t := orderTitles
	p.tbl = common.NewTable(c.Styles, []common.Column{
		common.Col(t[ocInstrument], 10, false, 0), common.Col(t[ocSide], 4, false, 0), common.Col(t[ocPrice], 12, true, 0),
		common.Col(t[ocSize], 11, true, 0), common.Col(t[ocFilled], 11, true, 1), common.Col(t[ocType], typeMin, false, 0),
		common.Col(t[ocOid], 10, true, 1), common.Col(t[ocAge], 6, true, 2),
	}, p.cell)
	p.tbl.Follow(func(row int) string { return strconv.FormatUint(uint64(p.orders[row].OrderID), 10) })
	p.emptyText = "no open orders"
	p.amend = common.NewField("price [size]", 48)
	p.amend.Prompt = "move to: "
	return p
}

// Capturing implements common.InputCapturer: while a new price is typed it takes every key.
func (p *ordersPane) Capturing() bool { return p.amending }

// Title implements common.Pane.
func (p *ordersPane) Title() string { return fmt.Sprintf("Open orders (%d)", len(p.orders)) }

// Kinds implements common.KindsShower.
func (p *ordersPane) Kinds() []state.Kind { return []state.Kind{state.KindOrders} }

// SetSize implements common.Pane.
func (p *ordersPane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.fit()
}

// fit gives the table the pane's height, less the amend line while it is open and the detail
// line while the width leaves something out.
func (p *ordersPane) fit() {
	p.tbl.SetSize(p.w, p.h)
	p.fitWidths()
	h := p.h
	if p.amending {
		h = max(h-1, 1)
	}
	if p.detail = p.vitalLeftOut() && h >= 3; p.detail {
		h--
	}
	p.tbl.SetSize(p.w, h)
}

// fitWidths makes the figures' columns and the type as wide as their widest cells (or titles),
// so no price, size or id is cut and narrow figures leave room for the id.
func (p *ordersPane) fitWidths() {
	ws := make([]int, ocCount)
	for _, c := range []int{ocPrice, ocSize, ocFilled, ocType, ocOid} {
		ws[c] = common.TextWidth(orderTitles[c])
		for r := range p.orders {
			text, _ := p.cell(r, c)
			ws[c] = max(ws[c], common.TextWidth(text))
		}
	}
	p.typeCut = ws[ocType] > typeMax
	ws[ocType] = min(ws[ocType], typeMax)
	p.tbl.SetWidths(ws)
	if !slices.Contains(p.tbl.Visible, ocType) && ws[ocType] > typeMin {
		p.typeCut, ws[ocType] = true, typeMin
		p.tbl.SetWidths(ws)
	}
}

// vitalLeftOut says whether the width leaves out the id column or cuts a type: the pane then
// keeps its last line for the selected order's detail line. Other figures left out (the age) go
// on a row the orders leave blank.
func (p *ordersPane) vitalLeftOut() bool {
	return p.typeCut || !slices.Contains(p.tbl.Visible, ocOid)
}

// SetFocused implements common.Pane.
func (p *ordersPane) SetFocused(f bool) { p.tbl.SetFocused(f) }

// Update implements common.Pane.
func (p *ordersPane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.DataMsg:
		if msg.Kind == state.KindOrders || msg.Kind == state.KindInstruments {
			p.refresh()
		}
	case tea.KeyMsg:
		if p.amending {
			return p.typeAmend(msg)
		}
		return p.handleKey(msg)
	}
	return nil
}

// startAmend opens the amend line on the selected limit order, holding its price and size.
func (p *ordersPane) startAmend() tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, "change an order")
	}
	o, ok := p.selected()
	if !ok && p.tbl.Lost() {
		return p.noneSelected()
	}
	if !ok || !o.RestingLimit() {
		return common.Notice(common.LevelWarn, "select a resting limit order to change")
	}
	p.amending, p.amendOf = true, o
	p.amend.SetValue(o.LimitPrice.String() + " " + o.Unfilled.String())
	p.amend.CursorEnd()
	p.fit()
	return p.amend.Focus()
}

// typeAmend edits the amend line: Enter asks to move the order (one cancel-and-replace, confirmed
// when the policy asks for its replacement), Esc drops it.
func (p *ordersPane) typeAmend(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, p.Keys.Dismiss):
		p.stopAmend()
		return nil
	case key.Matches(msg, p.Keys.TextSubmit):
		p.stopAmend()
		f := strings.Fields(p.amend.Value())
		if len(f) == 0 || len(f) > 2 {
			return common.Notice(common.LevelError, "order not changed: type a price, or a price and a size")
		}
		size := ""
		if len(f) == 2 {
			size = f[1]
		}
		a, why := action.AmendOf(p.Store, p.Guard, p.Styles, p.amendOf, f[0], size)
		if a == nil {
			return common.Notice(common.LevelError, why)
		}
		p.movedTo = a.Order.Wire.Cloid
		return action.Request(a)
	}
	var cmd tea.Cmd
	p.amend, cmd = p.amend.Update(msg)
	return cmd
}

func (p *ordersPane) stopAmend() {
	p.amending = false
	p.amend.Blur()
	p.fit()
}

func (p *ordersPane) refresh() {
	if v := p.Store.Version(state.KindOrders) + p.Store.Version(state.KindInstruments); v != p.version {
		p.version = v
		p.orders = p.Store.Orders()
		p.tbl.SetRows(len(p.orders))
		p.followMove()
		p.fit()
	}
}

// followMove puts the cursor on the replacement of the order moved from this pane once it rests:
// the order the trader chose has a new id, but it is the same order to them.
func (p *ordersPane) followMove() {
	if p.movedTo == "" || !p.tbl.Lost() {
		return
	}
	for i := range p.orders {
		if p.orders[i].Cloid == p.movedTo {
			p.tbl.MoveTo(i)
			p.movedTo = ""
			return
		}
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
	case key.Matches(msg, k.Amend):
		return p.startAmend()
	case key.Matches(msg, k.Pick):
		if o, ok := p.selected(); ok {
			return common.SelectInstrument(o.Instrument, "", true)
		}
	}
	return nil
}

// selected is the order the cursor is on: none when the one the trader chose has gone (filled,
// cancelled) and they have not moved since.
func (p *ordersPane) selected() (api.OrderRecord, bool) {
	i := p.tbl.Selected()
	if i < 0 || i >= len(p.orders) {
		return api.OrderRecord{}, false
	}
	return p.orders[i], true
}

// noneSelected is the notice of a key that needs an order when none is selected.
func (p *ordersPane) noneSelected() tea.Cmd {
	if p.tbl.Lost() {
		return common.Notice(common.LevelWarn, "no order selected: the one you were on is gone (filled or cancelled); move to pick one")
	}
	return common.Notice(common.LevelWarn, "no order selected")
}

func (p *ordersPane) cancelSelected() tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, "cancel an order")
	}
	o, ok := p.selected()
	if !ok {
		return p.noneSelected()
	}
	// x acts on the row under the cursor; the status line names the order cancelled (and the
	// dialog names it first under the "every" policy).
	in, _ := p.Store.Instrument(o.Instrument)
	return action.Request(action.NewCancelOne(o, in, p.Guard.Confirm))
}

func (p *ordersPane) cancelInstrument() tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, "cancel orders")
	}
	o, ok := p.selected()
	if !ok {
		return p.noneSelected()
	}
	var on []api.OrderRecord
	for _, x := range p.orders {
		if x.InstrumentID == o.InstrumentID {
			on = append(on, x)
		}
	}
	return action.Request(action.NewCancelInstrument(o.InstrumentID, o.Instrument, p.Store.CancelScope(on)))
}

func (p *ordersPane) cancelAll() tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, "cancel orders")
	}
	return action.Request(action.NewCancelEverything(p.Store.CancelScope(p.orders)))
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
		return common.OrderType(o, in), st.Muted
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
	lines := p.tbl.Lines(make([]string, 0, p.tbl.Height+3))
	switch d := p.detailLine(); {
	case p.detail && d == "":
		lines = append(lines, strings.Repeat(" ", p.tbl.Width))
	case p.detail:
		lines = append(lines, d)
	case d != "" && p.tbl.Rows < p.tbl.Height:
		lines[len(lines)-1] = d // a blank row: there are fewer orders than rows
	}
	if p.amending {
		lines = append(lines, common.FitStyled(p.amend.View(), p.tbl.Width))
	}
	return strings.Join(lines, "\n")
}

// orderDetailFigures are the figures the selected order's detail line gives when their columns are
// left out, in this order: the id first (what `cancel ID` takes).
var orderDetailFigures = []int{ocOid, ocType, ocFilled, ocAge}

// detailLine is the selected order's figures the width leaves out or cuts, whole and as many as
// fit: "SOL-PERP  Order id 1000007 · Type tp @189.052 bracket RO · Age 12s"; "" when there is no
// order or nothing is left out.
func (p *ordersPane) detailLine() string {
	t := p.tbl
	sel := t.Selected()
	if sel < 0 || sel >= len(p.orders) {
		return ""
	}
	line := " " + p.orders[sel].Instrument + " "
	n := 0
	for _, c := range orderDetailFigures {
		text, _ := p.cell(sel, c)
		if slices.Contains(t.Visible, c) && (c != ocType || common.TextWidth(text) <= typeMax) {
			continue
		}
		part := " " + orderTitles[c] + " " + text
		if n > 0 {
			part = " ·" + part
		}
		if common.TextWidth(line+part) > t.Width {
			break
		}
		line, n = line+part, n+1
	}
	if n == 0 {
		return ""
	}
	return p.Styles.Muted.On(common.Pad(line, t.Width))
}

// Click implements common.Clicker.
func (p *ordersPane) Click(_, y int) tea.Cmd {
	p.tbl.ClickRow(y)
	return nil
}

// ShortHelp implements common.Pane.
func (p *ordersPane) ShortHelp() []key.Binding {
	k := p.Keys
	if p.amending {
		return []key.Binding{k.Submits("confirm"), k.Dismiss}
	}
	return []key.Binding{k.Up, k.Down, k.Cancel, k.Amend, k.CancelInstrument, k.CancelAll}
}

// FullHelp implements common.Pane.
func (p *ordersPane) FullHelp() [][]key.Binding {
	k := p.Keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Cancel, k.Amend, k.CancelInstrument, k.CancelAll, k.Pick}}
}
