package positions

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/dialogs/leverage"
)

// Position columns.
const (
	colInstrument = iota
	colSide
	colLeverage
	colSize
	colEntry
	colMark
	colNotional
	colUPnL
	colROE
	colLiq
	colLiqDist
	colTpsl
	colCount
)

// titles are the columns' titles; a figure's column is as wide as the wider of its title
// and its widest cell (fitWidths). The liquidation titles are short ("Liq. px", "To liq."), no
// wider than their figures, so the TP/SL prices fit in full beside them at 200 columns.
var titles = [colCount]string{"Instrument", "Side", "Lev", "Size", "Entry", "Mark", "Notional", "uPnL", "ROE",
	"Liq. px", "To liq.", "TP/SL"}

// liqWarnPct and liqDangerPct colour the liquidation distance amber and red.
var (
	liqWarnPct   = decimal.NewFromInt(10)
	liqDangerPct = decimal.NewFromInt(3)
)

// Pane lists the account's open positions with their PnL and liquidation distance.
type Pane struct {
	*common.Common
	tbl       *common.Table
	positions []api.Position
	orders    []api.OrderRecord // the reduce-only triggers: the TP/SL attached to the positions
	account   api.AccountSummary
	rows      []state.PositionRow // the store's figures (state.Store.PositionFigures)
	cells     []rowCells          // each row's written figures, written when first drawn or measured
	version   [5]uint64
	// EmptyText is what an empty list says once loaded.
	EmptyText string
	w, h      int
	// tpslPlain writes the TP/SL column's prices without thousands separators, when the pane has
	// room for the column only that way; the tick is never dropped (the detail line writes them
	// in full).
	tpslPlain bool
	// detail: the last line is kept for the selected position's detail line, because the width
	// leaves some of its figures out.
	detail bool
	// menu is the instrument the close menu is open on ("": closed).
	menu string
}

func col(c, width int, right bool, prio int) common.Column {
	return common.Col(titles[c], width, right, prio)
}

// New is the positions pane.
func New(c *common.Common) *Pane {
	p := &Pane{Common: c}
	p.tbl = common.NewTable(c.Styles, []common.Column{
		// Entry and Liq. price come before Mark (which Tickers shows too), so a 120-column
		// screen keeps them (#24).
		// Leverage and margin mode in a few letters ("20x iso") beside the side, kept at every
		// width; Mark and Notional go first when narrow (QA 7).
		col(colInstrument, 10, false, 0), col(colSide, 5, false, 0), col(colLeverage, 9, false, 0), col(colSize, 9, true, 0),
		col(colEntry, 10, true, 0), col(colMark, 10, true, 2), col(colNotional, 10, true, 2), col(colUPnL, 10, true, 0),
		col(colROE, 8, true, 1), col(colLiq, 10, true, 0), col(colLiqDist, 9, true, 0),
		col(colTpsl, 5, true, 0), // as wide as its prices (fitWidths)
	}, p.cell)
	p.tbl.Follow(func(row int) string { return p.positions[row].Instrument })
	p.EmptyText = "no open positions"
	return p
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Positions" }

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind {
	return []state.Kind{state.KindPositions, state.KindAccount, state.KindOrders}
}

// SetSize implements common.Pane.
func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.tbl.SetSize(w, h)
	p.fitWidths()
}

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(f bool) { p.tbl.SetFocused(f) }

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.DataMsg:
		switch msg.Kind {
		case state.KindPositions, state.KindTickers, state.KindAccount, state.KindInstruments, state.KindOrders:
			p.refresh()
		}
	case tea.KeyMsg:
		return p.handleKey(msg)
	case action.SettledMsg:
		if msg.Act.Then != "" && !msg.Failed {
			return cmdline.Prefill(msg.Act.Then) // a reverse's TP/SL, offered on the new side
		}
	}
	return nil
}

func (p *Pane) refresh() {
	v := [5]uint64{p.Store.Version(state.KindPositions), p.Store.Version(state.KindTickers), p.Store.Version(state.KindAccount),
		p.Store.Version(state.KindInstruments), p.Store.Version(state.KindOrders)}
	if v == p.version {
		return
	}
	marksOnly := v[1] != p.version[1] && v[0] == p.version[0] && v[2] == p.version[2] && v[3] == p.version[3] && v[4] == p.version[4]
	p.version = v
	p.positions, p.rows = p.Store.PositionFigures()
	p.orders = p.orders[:0]
	for _, o := range p.Store.Orders() {
		// Only these can be a position's TP/SL (state.AttachedTpsl): a few among many.
		if o.ReduceOnly && o.TriggerPx.Valid {
			p.orders = append(p.orders, o)
		}
	}
	p.account = p.Store.Account()
	if marksOnly && len(p.cells) == len(p.rows) {
		for i := range p.cells {
			p.cells[i].ok = false // the columns no mark moves are kept (rowCells.steady)
		}
	} else {
		p.cells = slices.Grow(p.cells[:0], len(p.rows))[:len(p.rows)]
		clear(p.cells)
	}
	p.tbl.SetRows(len(p.rows))
	p.fitWidths()
}

// fitWidths makes each figure's column as wide as its widest cell (or its title), so no number
// is cut ("2,076,845.0" liquidation price of a well-margined short) and small figures leave room
// for more columns. Positions are few: every row is worked out. The TP/SL prices are written in
// full when the column fits so, without thousands separators when only that fits; when neither
// does, the column goes and the detail line, kept for them, gives the selected position's.
func (p *Pane) fitWidths() {
	p.tpslPlain = false
	ws := make([]int, colCount)
	for c := colLeverage; c < colCount; c++ {
		ws[c] = p.colWidth(c)
	}
	p.tbl.SetWidths(ws)
	if !slices.Contains(p.tbl.Visible, colTpsl) {
		p.tpslPlain = true
		ws[colTpsl] = p.colWidth(colTpsl)
		p.tbl.SetWidths(ws)
		if !slices.Contains(p.tbl.Visible, colTpsl) {
			p.tpslPlain = false
			ws[colTpsl] = p.colWidth(colTpsl)
			p.tbl.SetWidths(ws)
		}
	}
	p.tbl.Invalidate()
	p.keepDetailLine()
}

// colWidth is the width of column c's widest cell or of its title.
func (p *Pane) colWidth(c int) int {
	w := common.TextWidth(titles[c])
	for r := range p.rows {
		if c != colTpsl {
			w = max(w, p.written(r).widths[c])
			continue
		}
		text, _ := p.cell(r, c)
		w = max(w, common.TextWidth(text))
	}
	return w
}

// keepDetailLine gives the table every line but the last when some of the detail line's figures
// have no column at this width, so the selected position's TP/SL (and the rest) can be read
// however many positions there are.
func (p *Pane) keepDetailLine() {
	hidden := false
	for _, c := range detailFigures {
		hidden = hidden || !slices.Contains(p.tbl.Visible, c)
	}
	detail := hidden && p.h >= 3 // the header, a row and the detail line
	if detail == p.detail && p.tbl.Height == max(p.h-1-b2i(detail), 0) {
		return
	}
	p.detail = detail
	p.tbl.SetSize(p.w, p.h-b2i(detail))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// view is row i's figures.
func (p *Pane) view(i int) *state.PositionRow { return &p.rows[i] }

// rowCells is one row's figures as written, all but the TP/SL (which depends on tpslPlain),
// with their widths: fitWidths measures every cell and the table draws the visible ones, so each
// is written once a change, and a change of the tickers alone writes only the columns a mark
// moves (marked).
type rowCells struct {
	ok     bool // every column is written
	steady bool // the columns no mark moves are written
	text   [colTpsl]string
	paint  [colTpsl]common.Paint
	widths [colTpsl]int
}

// written is row's cells, written on the first ask after a change.
func (p *Pane) written(row int) *rowCells {
	c := &p.cells[row]
	if !c.ok {
		in, _ := p.Store.Instrument(p.rows[row].Instrument)
		for col := range colTpsl {
			if c.steady && !marked[col] {
				continue
			}
			c.text[col], c.paint[col] = p.figure(row, col, in)
			c.widths[col] = common.TextWidth(c.text[col])
		}
		c.ok, c.steady = true, true
	}
	return c
}

// marked are the columns a position's mark moves; the others change only with the positions,
// the account, the instruments or the orders.
var marked = [colTpsl]bool{colMark: true, colNotional: true, colUPnL: true, colROE: true, colLiqDist: true}

func (p *Pane) handleKey(msg tea.KeyMsg) tea.Cmd {
	if cmd, ok := p.positionKey(msg); ok {
		return cmd
	}
	if p.tbl.Navigate(p.Keys, msg) {
		return nil
	}
	k := p.Keys
	switch {
	case key.Matches(msg, k.Leverage):
		if r, ok := p.Selected(); ok {
			// The instrument becomes the current one, so its leverage setting is read again
			// once the change settles.
			return tea.Batch(common.SelectInstrument(r.Instrument, "", false), leverage.Open(r.Instrument))
		}
	case key.Matches(msg, k.Tpsl):
		if r, ok := p.Selected(); ok {
			// The command line's tpsl (state.CheckPositionTpsl, then the pipeline and its
			// confirmation), started on this position: the trader types the legs.
			return cmdline.Prefill("tpsl " + strings.ToLower(r.Instrument) + " tp ")
		}
	case key.Matches(msg, k.Pick):
		if r, ok := p.Selected(); ok {
			return common.SelectInstrument(r.Instrument, "", true)
		}
	case key.Matches(msg, k.Alert):
		if r, ok := p.Selected(); ok {
			return cmdline.Prefill("alert " + r.Instrument + " liq < 5%") // the trader edits the distance
		}
	}
	return nil
}

// Selected is the position the cursor is on: none when the one the trader chose was closed and
// they have not moved since.
func (p *Pane) Selected() (state.PositionRow, bool) {
	i := p.tbl.Selected()
	if i < 0 || i >= len(p.rows) || i >= len(p.positions) {
		return state.PositionRow{}, false
	}
	return *p.view(i), true
}

// recheckClose is the Recheck of a close: the position as the store holds it now (its size may
// have changed, or it may be gone), closed with the same client id.
func recheckClose(store *state.Store, g state.Guard, st *common.Styles, sym, cloid string) func() (*action.Action, string) {
	return func() (*action.Action, string) {
		pos, ok := store.Position(sym)
		if !ok || pos.Size.IsZero() {
			return nil, "not sent: the " + sym + " position is gone"
		}
		in := state.ClosePositionIntent(pos)
		in.Cloid = cloid
		return action.RecheckOrder(store, g, st, action.KindClose, state.BracketIntent{Entry: in})()
	}
}

func (p *Pane) cell(row, col int) (string, common.Paint) {
	if col == colTpsl {
		return p.tpslText(row, p.tpslPlain)
	}
	if col < 0 || col > colTpsl {
		return "", common.Paint{}
	}
	c := p.written(row)
	return c.text[col], c.paint[col]
}

// figure is row's figure in column col (not the TP/SL), written at instrument in's ticks.
func (p *Pane) figure(row, col int, in state.Instrument) (string, common.Paint) {
	r := p.view(row)
	st := p.Styles
	pd, sd := in.PriceDecimals(), in.SizeDecimals()
	switch col {
	case colInstrument:
		return r.Instrument, st.Bold
	case colSide:
		if r.Long {
			return "LONG", st.Buy
		}
		return "SHORT", st.Sell
	case colSize:
		return common.FmtNum(r.Size, sd), st.Text
	case colEntry:
		return common.FmtNum(r.Entry, pd), st.Text
	case colMark:
		return common.FmtNum(r.Mark, pd), st.Text
	case colNotional:
		return common.FmtNum(r.Notional, 2), st.Text
	case colUPnL:
		return common.FmtSigned(r.UPnL, 2), common.SignPaint(st, r.UPnL)
	case colROE:
		return common.FmtPct(r.ROE), common.SignPaint(st, r.ROE)
	case colLeverage:
		return r.Leverage.String() + "x " + MarginModeShort(r.MarginMode), st.Muted
	case colLiq:
		if r.Liquidation.IsZero() {
			return "-", st.Muted
		}
		return common.FmtNum(r.Liquidation, pd), st.Text
	case colLiqDist:
		if r.Liquidation.IsZero() {
			return "-", st.Muted
		}
		return state.FormatPercent(r.LiqDistance, 2), liqPaint(st, r.LiqDistance)
	}
	return "", common.Paint{}
}

// tpslText is the take-profit and stop-loss waiting on position row at the instrument's tick
// ("99,282.5/94,439.5", "-/3,300.00"), or "-" when none; plain leaves out the thousands
// separators ("99282.5/94439.5"), the one shortening that keeps every digit. A stop at or beyond
// the position's liquidation price, as the exchange reports it, never fires: it ends in "!" and
// is painted as a danger.
func (p *Pane) tpslText(row int, plain bool) (string, common.Paint) {
	pos := p.positions[row]
	tp, sl := state.AttachedTpsl(p.orders, pos)
	if tp.IsZero() && sl.IsZero() {
		return "-", p.Styles.Muted
	}
	in, _ := p.Store.Instrument(pos.Instrument)
	text := tpslPx(tp, in.PriceDecimals(), plain) + "/" + tpslPx(sl, in.PriceDecimals(), plain)
	if state.StopNeverFires(pos, sl, p.account.PerpPositions[pos.Instrument].LiquidationPrice) {
		return text + stopNeverFiresMark, p.Styles.Danger
	}
	return text, p.Styles.Text
}

// stopNeverFiresMark ends the TP/SL of a position whose stop lies beyond its liquidation price.
const stopNeverFiresMark = "!"

// tpslPx is one leg's trigger price at decimals places, "-" when there is none.
func tpslPx(v decimal.Decimal, decimals int32, plain bool) string {
	switch {
	case v.IsZero():
		return "-"
	case plain:
		return v.StringFixed(decimals)
	}
	return state.FormatPrice(v, decimals)
}

func liqPaint(st *common.Styles, dist decimal.Decimal) common.Paint {
	switch {
	case dist.LessThan(liqDangerPct):
		return st.Danger
	case dist.LessThan(liqWarnPct):
		return st.Warn
	}
	return st.Good
}

// MarginModeShort is a margin mode in a few letters: "cross", "iso".
func MarginModeShort(m string) string {
	switch strings.ToLower(m) {
	case api.MarginCross:
		return "cross"
	case api.MarginIsolated:
		return "iso"
	}
	return m
}

// View implements common.Pane.
func (p *Pane) View() string {
	p.tbl.Empty = p.EmptyText
	if p.Account != "" {
		p.tbl.Empty = common.EmptyFor(p.Store, state.KindPositions, p.EmptyText)
	}
	lines := p.tbl.Lines(make([]string, 0, p.tbl.Height+2))
	if p.detail {
		lines = append(lines, p.detailLine())
	}
	return strings.Join(lines, "\n")
}

// detailFigures are the figures the selected position's detail line gives when the width has no
// room for their columns, in the order they are given: the TP/SL first, which no other pane
// gives beside its position.
var detailFigures = []int{colTpsl, colMark, colNotional, colROE, colLeverage, colLiqDist}

// detailLine is the pane's last line when the width leaves figures out: the selected position's
// figures whose columns are not shown ("BTC-PERP  TP/SL 99,282.5/94,439.5 · Mark 97,280.0"), in
// full and as many whole as fit, so every figure the README lists can be read at any size
// (QA 7). Blank when there is no position.
func (p *Pane) detailLine() string {
	t := p.tbl
	blank := strings.Repeat(" ", t.Width)
	sel := t.Selected()
	if sel < 0 {
		return blank
	}
	line := " " + p.view(sel).Instrument + " "
	n := 0
	for _, c := range detailFigures {
		if slices.Contains(t.Visible, c) {
			continue
		}
		text, _ := p.cell(sel, c)
		if c == colTpsl {
			text = p.tpslDetail(sel)
		}
		part := " " + titles[c] + " " + text
		if n > 0 {
			part = " ·" + part
		}
		if c == colTpsl && common.TextWidth(line+part) > t.Width { // the why goes before the prices
			text, _ = p.tpslText(sel, false)
			part = " " + titles[c] + " " + text
		}
		if common.TextWidth(line+part) > t.Width {
			break
		}
		line, n = line+part, n+1
	}
	if n == 0 {
		return blank
	}
	return p.Styles.Muted.On(common.Pad(line, t.Width))
}

// tpslDetail is the TP/SL as the detail line gives it: in full, and a stop that never fires says
// why ("-/102,900.0! (never fires: liq. 102,795.7)").
func (p *Pane) tpslDetail(row int) string {
	text, _ := p.tpslText(row, false)
	if !strings.HasSuffix(text, stopNeverFiresMark) {
		return text
	}
	pos := p.positions[row]
	in, _ := p.Store.Instrument(pos.Instrument)
	return text + " (never fires: liq. " + state.FormatPrice(p.account.PerpPositions[pos.Instrument].LiquidationPrice, in.PriceDecimals()) + ")"
}

// Click implements common.Clicker.
func (p *Pane) Click(_, y int) tea.Cmd {
	p.tbl.ClickRow(y)
	return nil
}

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding {
	return []key.Binding{p.Keys.Up, p.Keys.Down, p.Keys.Close, p.Keys.Tpsl, p.Keys.Leverage, p.Keys.Pick}
}

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding {
	k := p.Keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Close, k.Reverse, k.Breakeven, k.Flatten, k.Tpsl, k.Leverage, k.Pick}}
}

// Some columns' indexes in the table (Table().Visible says whether one is shown).
const (
	ColMark     = colMark
	ColNotional = colNotional
	ColTpsl     = colTpsl
)

// Positions are the positions listed, in their order on screen.
func (p *Pane) Positions() []api.Position { return p.positions }

// Table is the list's table (its cursor and the columns shown).
func (p *Pane) Table() *common.Table { return p.tbl }
