package ui

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
	pcInstrument = iota
	pcSide
	pcLeverage
	pcSize
	pcEntry
	pcMark
	pcNotional
	pcUPnL
	pcROE
	pcLiq
	pcLiqDist
	pcTpsl
	pcCount
)

// positionTitles are the columns' titles; a figure's column is as wide as the wider of its title
// and its widest cell (fitWidths).
var positionTitles = [pcCount]string{"Instrument", "Side", "Lev", "Size", "Entry", "Mark", "Notional", "uPnL", "ROE",
	"Liq. price", "Liq. dist", "TP/SL"}

// liqWarnPct and liqDangerPct colour the liquidation distance amber and red.
var (
	liqWarnPct   = decimal.NewFromInt(10)
	liqDangerPct = decimal.NewFromInt(3)
)

// positionsPane lists the account's open positions with their PnL and liquidation distance.
type positionsPane struct {
	*common.Common
	tbl       *common.Table
	positions []api.Position
	orders    []api.OrderRecord // for the take-profit and stop-loss attached to each position
	account   api.AccountSummary
	rows      []state.PositionRow // figures, worked out when a row is first drawn
	done      []bool
	version   [5]uint64
	emptyText string // what an empty list says once loaded
}

func col(c, width int, right bool, prio int) common.Column {
	return common.Col(positionTitles[c], width, right, prio)
}

func newPositionsPane(c *common.Common) *positionsPane {
	p := &positionsPane{Common: c}
	p.tbl = common.NewTable(c.Styles, []common.Column{
		// Entry and Liq. price come before Mark (which Tickers shows too), so a 120-column
		// screen keeps them (#24).
		// Leverage and margin mode in a few letters ("20x iso") beside the side, kept at every
		// width; Mark and Notional go first when narrow (QA 7).
		col(pcInstrument, 10, false, 0), col(pcSide, 5, false, 0), col(pcLeverage, 9, false, 0), col(pcSize, 9, true, 0),
		col(pcEntry, 10, true, 0), col(pcMark, 10, true, 2), col(pcNotional, 10, true, 2), col(pcUPnL, 10, true, 0),
		col(pcROE, 8, true, 1), col(pcLiq, 10, true, 0), col(pcLiqDist, 9, true, 0),
		col(pcTpsl, 13, true, 0), // short prices (99.28k/94.44k): the orders pane has them in full
	}, p.cell)
	p.emptyText = "no open positions"
	return p
}

// Title implements common.Pane.
func (p *positionsPane) Title() string { return "Positions" }

// Kinds implements common.KindsShower.
func (p *positionsPane) Kinds() []state.Kind {
	return []state.Kind{state.KindPositions, state.KindAccount, state.KindOrders}
}

// SetSize implements common.Pane.
func (p *positionsPane) SetSize(w, h int) { p.tbl.SetSize(w, h) }

// SetFocused implements common.Pane.
func (p *positionsPane) SetFocused(f bool) { p.tbl.Focused = f }

// Update implements common.Pane.
func (p *positionsPane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.DataMsg:
		switch msg.Kind {
		case state.KindPositions, state.KindTickers, state.KindAccount, state.KindInstruments, state.KindOrders:
			p.refresh()
		}
	case tea.KeyMsg:
		return p.handleKey(msg)
	}
	return nil
}

func (p *positionsPane) refresh() {
	v := [5]uint64{p.Store.Version(state.KindPositions), p.Store.Version(state.KindTickers), p.Store.Version(state.KindAccount),
		p.Store.Version(state.KindInstruments), p.Store.Version(state.KindOrders)}
	if v == p.version {
		return
	}
	p.version = v
	p.positions = p.Store.Positions()
	p.orders = p.Store.Orders()
	p.account = p.Store.Account()
	p.rows = make([]state.PositionRow, len(p.positions))
	p.done = make([]bool, len(p.positions))
	p.tbl.SetRows(len(p.rows))
	p.fitWidths()
}

// fitWidths makes each figure's column as wide as its widest cell (or its title), so no number
// is cut ("2,076,845.0" liquidation price of a well-margined short) and small figures leave room
// for more columns. Positions are few: every row is worked out.
func (p *positionsPane) fitWidths() {
	ws := make([]int, pcCount)
	for c := pcLeverage; c < pcTpsl; c++ {
		ws[c] = common.TextWidth(positionTitles[c])
		for r := range p.rows {
			text, _ := p.cell(r, c)
			ws[c] = max(ws[c], common.TextWidth(text))
		}
	}
	p.tbl.SetWidths(ws)
}

// view is row i's figures; only rows drawn (on screen) or acted on are worked out.
func (p *positionsPane) view(i int) *state.PositionRow {
	if !p.done[i] {
		pos := p.positions[i]
		t, _ := p.Store.Ticker(pos.Instrument)
		p.rows[i], p.done[i] = state.PositionView(pos, t, p.account), true
	}
	return &p.rows[i]
}

func (p *positionsPane) handleKey(msg tea.KeyMsg) tea.Cmd {
	if p.tbl.Navigate(p.Keys, msg) {
		return nil
	}
	k := p.Keys
	switch {
	case key.Matches(msg, k.Close):
		return p.closeSelected()
	case key.Matches(msg, k.Leverage):
		if r, ok := p.selected(); ok {
			// The instrument becomes the current one, so its leverage setting is read again
			// once the change settles.
			return tea.Batch(common.SelectInstrument(r.Instrument, "", false), leverage.Open(r.Instrument))
		}
	case key.Matches(msg, k.Tpsl):
		if r, ok := p.selected(); ok {
			// The command line's tpsl (state.CheckPositionTpsl, then the pipeline and its
			// confirmation), started on this position: the trader types the legs.
			return cmdline.Prefill("tpsl " + strings.ToLower(r.Instrument) + " tp ")
		}
	case key.Matches(msg, k.Pick):
		if r, ok := p.selected(); ok {
			return common.SelectInstrument(r.Instrument, "", true)
		}
	}
	return nil
}

func (p *positionsPane) selected() (state.PositionRow, bool) {
	if p.tbl.Cursor < 0 || p.tbl.Cursor >= len(p.rows) {
		return state.PositionRow{}, false
	}
	return *p.view(p.tbl.Cursor), true
}

// closeSelected asks to close the selected position with a reduce-only market order, checked by
// the same validation path as the order form.
func (p *positionsPane) closeSelected() tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, "close a position")
	}
	r, ok := p.selected()
	if !ok {
		return common.Notice(common.LevelWarn, "no position selected")
	}
	pos, ok := p.Store.Position(r.Instrument)
	if !ok {
		return common.Notice(common.LevelWarn, r.Instrument+": the position is gone")
	}
	intent := state.ClosePositionIntent(pos)
	intent.Cloid = state.NewCloid()
	checked, errs := p.Store.CheckOrder(intent, p.Guard)
	if len(errs) > 0 {
		return common.Notice(common.LevelError, "cannot close "+r.Instrument+": "+common.JoinFieldErrors(errs))
	}
	return action.Request(action.NewOrder(action.KindClose, checked, p.Styles))
}

func (p *positionsPane) cell(row, col int) (string, common.Paint) {
	r := p.view(row)
	st := p.Styles
	in, _ := p.Store.Instrument(r.Instrument)
	pd, sd := in.PriceDecimals(), in.SizeDecimals()
	switch col {
	case pcInstrument:
		return r.Instrument, st.Bold
	case pcSide:
		if r.Long {
			return "LONG", st.Buy
		}
		return "SHORT", st.Sell
	case pcSize:
		return common.FmtNum(r.Size, sd), st.Text
	case pcEntry:
		return common.FmtNum(r.Entry, pd), st.Text
	case pcMark:
		return common.FmtNum(r.Mark, pd), st.Text
	case pcNotional:
		return common.FmtNum(r.Notional, 2), st.Text
	case pcUPnL:
		return common.FmtSigned(r.UPnL, 2), common.SignPaint(st, r.UPnL)
	case pcROE:
		return common.FmtPct(r.ROE), common.SignPaint(st, r.ROE)
	case pcLeverage:
		return r.Leverage.String() + "x " + marginModeShort(r.MarginMode), st.Muted
	case pcLiq:
		if r.Liquidation.IsZero() {
			return "-", st.Muted
		}
		return common.FmtNum(r.Liquidation, pd), st.Text
	case pcLiqDist:
		if r.Liquidation.IsZero() {
			return "-", st.Muted
		}
		return state.FormatPercent(r.LiqDistance, 2), liqPaint(st, r.LiqDistance)
	case pcTpsl:
		return p.tpslText(row)
	}
	return "", common.Paint{}
}

// tpslText is the take-profit and stop-loss waiting on position row, each in at most 6
// characters ("99.28k/94.44k", "-/3300.5"), or "-" when none.
func (p *positionsPane) tpslText(row int) (string, common.Paint) {
	tp, sl := state.AttachedTpsl(p.orders, p.positions[row])
	if tp.IsZero() && sl.IsZero() {
		return "-", p.Styles.Muted
	}
	return shortPx(tp) + "/" + shortPx(sl), p.Styles.Text
}

// shortPx writes a price in about five significant digits: "99.28k", "3547.1", "189.05", "0.38";
// "-" for zero.
func shortPx(v decimal.Decimal) string {
	if v.IsZero() {
		return "-"
	}
	if v.GreaterThanOrEqual(decimal.NewFromInt(10000)) {
		return trimZeros(v.Div(decimal.NewFromInt(1000)).StringFixed(2)) + "k"
	}
	digits := int32(len(v.Truncate(0).String()))
	if v.LessThan(decimal.NewFromInt(1)) {
		digits = 0
	}
	return trimZeros(v.StringFixed(max(5-digits, 0)))
}

// trimZeros drops a decimal text's trailing zeros after its point ("0.3800" -> "0.38").
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
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

func marginModeShort(m string) string {
	switch strings.ToLower(m) {
	case api.MarginCross:
		return "cross"
	case api.MarginIsolated:
		return "iso"
	}
	return m
}

// View implements common.Pane.
func (p *positionsPane) View() string {
	p.tbl.Empty = p.emptyText
	if p.Account != "" {
		p.tbl.Empty = common.EmptyFor(p.Store, state.KindPositions, p.emptyText)
	}
	lines := p.tbl.Lines(make([]string, 0, p.tbl.Height+1))
	if d := p.detailLine(); d != "" {
		lines[len(lines)-1] = d // a blank row: there are fewer positions than rows
	}
	return strings.Join(lines, "\n")
}

// detailFigures are the figures the selected position's detail line gives when the width has no
// room for their columns, in the order they are given.
var detailFigures = []int{pcMark, pcNotional, pcROE, pcLeverage, pcLiqDist, pcTpsl}

// detailLine is the last row of the pane, when it has one to spare: the selected position's
// figures whose columns the width left out ("BTC-PERP  Mark 97,280.0 · Notional 9,728.00"), as
// many whole as fit, so every figure the README lists can be read at any size (QA 7).
func (p *positionsPane) detailLine() string {
	t := p.tbl
	if t.Rows == 0 || t.Rows >= t.Height || t.Cursor >= t.Rows {
		return ""
	}
	line := " " + p.view(t.Cursor).Instrument + " "
	n := 0
	for _, c := range detailFigures {
		if slices.Contains(t.Visible, c) {
			continue
		}
		text, _ := p.cell(t.Cursor, c)
		part := " " + positionTitles[c] + " " + text
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
func (p *positionsPane) Click(_, y int) tea.Cmd {
	p.tbl.ClickRow(y)
	return nil
}

// ShortHelp implements common.Pane.
func (p *positionsPane) ShortHelp() []key.Binding {
	return []key.Binding{p.Keys.Up, p.Keys.Down, p.Keys.Close, p.Keys.Tpsl, p.Keys.Leverage, p.Keys.Pick}
}

// FullHelp implements common.Pane.
func (p *positionsPane) FullHelp() [][]key.Binding {
	k := p.Keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Close, k.Tpsl, k.Leverage, k.Pick}}
}
