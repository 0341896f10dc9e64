package orders

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
	colInstrument = iota
	colSide
	colPrice
	colSize
	colFilled
	colType
	colOid
	colAge
	colCount
)

// titles are the columns' titles.
var titles = [colCount]string{"Instrument", "Side", "Price", "Size", "Filled", "Type", "Order id", "Age"}

// Widths of the type column: as wide as its widest cell up to typeMax (a longer one is cut and
// the detail line gives it whole), and typeMin when the pane has no room for more.
const (
	typeMax = 24
	typeMin = 16
)

// Pane lists the account's open orders; keys cancel one, all on an instrument, or all.
type Pane struct {
	*common.Common
	tbl     *common.Table
	orders  []api.OrderRecord
	version uint64
	ageAt   int64 // the clock second the age column was rendered at
	// EmptyText is what an empty list says once loaded.
	EmptyText string
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

// New is the open orders pane.
func New(c *common.Common) *Pane {
	p := &Pane{Common: c}
	// Price, Size, Filled, Type and Order id are as wide as their cells (fitWidths). The id
	// goes before the age when narrow: it is what `cancel ID` takes.
	t := titles
	p.tbl = common.NewTable(c.Styles, []common.Column{
		common.Col(t[colInstrument], 10, false, 0), common.Col(t[colSide], 4, false, 0), common.Col(t[colPrice], 12, true, 0),
		common.Col(t[colSize], 11, true, 0), common.Col(t[colFilled], 11, true, 1), common.Col(t[colType], typeMin, false, 0),
		common.Col(t[colOid], 10, true, 1), common.Col(t[colAge], 6, true, 2),
	}, p.cell)
	p.tbl.Follow(func(row int) string { return strconv.FormatUint(uint64(p.orders[row].OrderID), 10) })
	p.EmptyText = "no open orders"
	p.amend = common.NewField("price [size]", 48)
	p.amend.Prompt = "move to: "
	return p
}

// Capturing implements common.InputCapturer: while a new price is typed it takes every key.
func (p *Pane) Capturing() bool { return p.amending }

// Title implements common.Pane.
func (p *Pane) Title() string { return fmt.Sprintf("Open orders (%d)", len(p.orders)) }

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind { return []state.Kind{state.KindOrders} }

// SetSize implements common.Pane.
func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.fit()
}

// fit gives the table the pane's height, less the amend line while it is open and the detail
// line while the width leaves something out.
func (p *Pane) fit() {
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
func (p *Pane) fitWidths() {
	ws := make([]int, colCount)
	for _, c := range []int{colPrice, colSize, colFilled, colType, colOid} {
		ws[c] = common.TextWidth(titles[c])
		for r := range p.orders {
			text, _ := p.cell(r, c)
			ws[c] = max(ws[c], common.TextWidth(text))
		}
	}
	p.typeCut = ws[colType] > typeMax
	ws[colType] = min(ws[colType], typeMax)
	p.tbl.SetWidths(ws)
	if !slices.Contains(p.tbl.Visible, colType) && ws[colType] > typeMin {
		p.typeCut, ws[colType] = true, typeMin
		p.tbl.SetWidths(ws)
	}
}

// vitalLeftOut says whether the width leaves out the id column or cuts a type: the pane then
// keeps its last line for the selected order's detail line. Other figures left out (the age) go
// on a row the orders leave blank.
func (p *Pane) vitalLeftOut() bool {
	return p.typeCut || !slices.Contains(p.tbl.Visible, colOid)
}

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(f bool) { p.tbl.SetFocused(f) }

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
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
func (p *Pane) startAmend() tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, "change an order")
	}
	o, ok := p.Selected()
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
func (p *Pane) typeAmend(msg tea.KeyMsg) tea.Cmd {
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

func (p *Pane) stopAmend() {
	p.amending = false
	p.amend.Blur()
	p.fit()
}

func (p *Pane) refresh() {
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
func (p *Pane) followMove() {
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

func (p *Pane) handleKey(msg tea.KeyMsg) tea.Cmd {
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
		if o, ok := p.Selected(); ok {
			return common.SelectInstrument(o.Instrument, "", true)
		}
	}
	return nil
}

// Selected is the order the cursor is on: none when the one the trader chose has gone (filled,
// cancelled) and they have not moved since.
func (p *Pane) Selected() (api.OrderRecord, bool) {
	i := p.tbl.Selected()
	if i < 0 || i >= len(p.orders) {
		return api.OrderRecord{}, false
	}
	return p.orders[i], true
}

// noneSelected is the notice of a key that needs an order when none is selected.
func (p *Pane) noneSelected() tea.Cmd {
	if p.tbl.Lost() {
		return common.Notice(common.LevelWarn, "no order selected: the one you were on is gone (filled or cancelled); move to pick one")
	}
	return common.Notice(common.LevelWarn, "no order selected")
}

func (p *Pane) cancelSelected() tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, "cancel an order")
	}
	o, ok := p.Selected()
	if !ok {
		return p.noneSelected()
	}
	// x acts on the row under the cursor; the status line names the order cancelled (and the
	// dialog names it first under the "every" policy).
	in, _ := p.Store.Instrument(o.Instrument)
	return action.Request(action.NewCancelOne(o, in, p.Guard.Confirm))
}

func (p *Pane) cancelInstrument() tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, "cancel orders")
	}
	o, ok := p.Selected()
	if !ok {
		return p.noneSelected()
	}
	if id, rungs := p.groupOf(o); id != "" {
		return cancelGroup(id, rungs, common.KeyName(p.Keys.CancelAll)) // X on a rung offers its algorithm's orders as one
	}
	var on []api.OrderRecord
	for _, x := range p.orders {
		if x.InstrumentID == o.InstrumentID {
			on = append(on, x)
		}
	}
	return action.Request(action.NewCancelInstrument(o.InstrumentID, o.Instrument, p.Store.CancelScope(on)))
}

func (p *Pane) cancelAll() tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, "cancel orders")
	}
	return action.Request(action.NewCancelEverything(p.Store.CancelScope(p.orders)))
}

func (p *Pane) cell(row, col int) (string, common.Paint) {
	o := &p.orders[row]
	st := p.Styles
	in, _ := p.Store.Instrument(o.Instrument)
	pd, sd := in.PriceDecimals(), in.SizeDecimals()
	switch col {
	case colInstrument:
		return o.Instrument, st.Bold
	case colSide:
		if o.Side == api.SideBuy {
			return "BUY", st.Buy
		}
		return "SELL", st.Sell
	case colPrice:
		if o.IsMarket {
			return "market", st.Muted
		}
		return common.FmtNum(o.LimitPrice, pd), st.Text
	case colSize:
		return common.FmtNum(o.Size, sd), st.Text
	case colFilled:
		f := o.Size.Sub(o.Unfilled)
		if f.IsZero() {
			return "-", st.Muted
		}
		return common.FmtNum(f, sd), st.Good
	case colType:
		return common.OrderType(o, in), st.Muted
	case colAge:
		if o.Timestamp.IsZero() {
			return "-", st.Muted
		}
		return common.FmtAge(p.Clock().Sub(o.Timestamp.Time)), st.Muted
	case colOid:
		return fmt.Sprint(o.OrderID), st.Muted
	}
	return "", common.Paint{}
}

// View implements common.Pane. Ages move with the clock, so rows re-render once a second at most.
func (p *Pane) View() string {
	p.tbl.Empty = p.EmptyText
	if p.Account != "" {
		p.tbl.Empty = common.EmptyFor(p.Store, state.KindOrders, p.EmptyText)
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

// detailFigures are the figures the selected order's detail line gives when their columns are
// left out, in this order: the id first (what `cancel ID` takes).
var detailFigures = []int{colOid, colType, colFilled, colAge}

// detailLine is the selected order's figures the width leaves out or cuts, whole and as many as
// fit: "SOL-PERP  Order id 1000007 · Type tp @189.052 bracket RO · Age 12s"; "" when there is no
// order or nothing is left out.
func (p *Pane) detailLine() string {
	t := p.tbl
	sel := t.Selected()
	if sel < 0 || sel >= len(p.orders) {
		return ""
	}
	line := " " + p.orders[sel].Instrument + " "
	n := 0
	for _, c := range detailFigures {
		text, _ := p.cell(sel, c)
		if slices.Contains(t.Visible, c) && (c != colType || common.TextWidth(text) <= typeMax) {
			continue
		}
		part := " " + titles[c] + " " + text
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
func (p *Pane) Click(_, y int) tea.Cmd {
	p.tbl.ClickRow(y)
	return nil
}

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding {
	k := p.Keys
	if p.amending {
		return []key.Binding{k.Submits("confirm"), k.Dismiss}
	}
	return []key.Binding{k.Up, k.Down, k.Cancel, k.Amend, k.CancelInstrument, k.CancelAll}
}

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding {
	k := p.Keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Cancel, k.Amend, k.CancelInstrument, k.CancelAll, k.Pick}}
}

// Orders are the open orders listed, in their order on screen.
func (p *Pane) Orders() []api.OrderRecord { return p.orders }

// Table is the list's table (its cursor and size).
func (p *Pane) Table() *common.Table { return p.tbl }

// AmendValue is what is typed in the move line.
func (p *Pane) AmendValue() string { return p.amend.Value() }
