package ui

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/export"
	"github.com/tradedesk/tradedesk/ui/feed"
)

// Fill columns.
const (
	fcTime = iota
	fcInstrument
	fcSide
	fcDir
	fcPrice
	fcSize
	fcNotional
	fcFee
	fcPnl
	fcLiq
	fcOid
	fcCloid
)

// pageSize is the page size of the paged lists (fills, order history).
const pageSize = 100

// fillsEvery is the fills pane's poll interval (page 1: the newest fills).
var fillsEvery = 5 * time.Second

// fillsPane lists the account's fills, newest first. Scrolling to the last loaded row loads the
// next page; the newest page is polled and merged on top; a new fill rings the bell.
type fillsPane struct {
	*common.Common
	ex      api.Exchange
	tbl     *common.Table
	fills   []api.Fill
	version [2]uint64 // store versions of fills and instruments last rendered
	f       *feed.Task
	loading int  // the page being loaded below (0: none)
	primed  bool // page 1 has arrived once: later fills on top are new
	bell    bool
	ring    func()
	exp     exporter
	trades  tradeWatch
	w, h    int
}

// tradeWatch notices when the account's open orders or positions change, which is when new fills
// or order history are likely: the panes poll at once instead of waiting for their interval.
type tradeWatch struct{ orders, positions uint64 }

// changed reports whether kind k's change moved the account's orders or positions.
func (w *tradeWatch) changed(s *state.Store, k state.Kind) bool {
	if k != state.KindOrders && k != state.KindPositions {
		return false
	}
	if s.Freshness(k).Err != nil {
		// A failed poll moves the version too, but brings no news: polling on it would defeat
		// the backoff while the exchange is down (and leave a superseded timer behind each time).
		return false
	}
	o, p := s.Version(state.KindOrders), s.Version(state.KindPositions)
	first := w.orders == 0 && w.positions == 0
	moved := o != w.orders || p != w.positions
	w.orders, w.positions = o, p
	return moved && !first
}

func newFillsPane(c *common.Common, ex api.Exchange, bell bool) *fillsPane {
	p := &fillsPane{Common: c, ex: ex, bell: bell, ring: ringBell}
	p.tbl = common.NewTable(c.Styles, []common.Column{
		common.Col("Time", 14, false, 0), common.Col("Instrument", 10, false, 0), common.Col("Side", 4, false, 0), common.Col("Direction", 11, false, 2),
		common.Col("Price", 10, true, 0), common.Col("Size", 10, true, 0), common.Col("Notional", 11, true, 2), common.Col("Fee", 13, true, 1),
		common.Col("Closed PnL", 11, true, 1), common.Col("Liq", 5, false, 2), common.Col("Order id", 9, true, 3), common.Col("Cloid", 36, false, 4),
	}, p.cell)
	p.tbl.Empty = "no fills yet"
	if common.ExchangeAddress(ex) == "" {
		p.tbl.Empty = "no account: start with --address, --keystore or a key to see fills"
	}
	p.f = paneTask(c, state.KindFills, func() time.Duration { return fillsEvery }, func() feed.Request {
		if common.ExchangeAddress(ex) == "" {
			return nil
		}
		return p.pageRequest(1)
	})
	return p
}

func (p *fillsPane) pageRequest(page int) feed.Request {
	ex, user := p.ex, p.ex.Address()
	return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
		pg, err := ex.Fills(ctx, user, api.PageParams{Page: page, Limit: pageSize})
		return state.FillsMsg{Gen: gen, At: at, Page: pg}, err
	}
}

// Title implements common.Pane.
func (p *fillsPane) Title() string { return "Fills (" + strconv.Itoa(len(p.fills)) + ")" }

// Kinds implements common.KindsShower.
func (p *fillsPane) Kinds() []state.Kind { return []state.Kind{state.KindFills} }

// SetSize implements common.Pane; the last line is the pane's status line.
func (p *fillsPane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.tbl.SetSize(w, max(h-1, 1))
}

// SetFocused implements common.Pane.
func (p *fillsPane) SetFocused(f bool) { p.tbl.Focused = f }

// Update implements common.Pane.
func (p *fillsPane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case startPanesMsg:
		return p.f.Start()
	case common.DataMsg:
		if p.trades.changed(p.Store, msg.Kind) && p.f.Started() {
			return p.f.Poll() // orders or positions moved: there may be new fills now
		}
		if msg.Kind == state.KindFills {
			p.loading = pageStillLoading(p.loading, p.Store.NextFillsPage, p.Store.Freshness(state.KindFills))
		}
		if msg.Kind == state.KindFills || msg.Kind == state.KindInstruments {
			return p.refresh()
		}
	case tea.KeyMsg:
		return p.handleKey(msg)
	case exportProgressMsg, exportDoneMsg:
		return p.exp.update(msg)
	}
	return nil
}

// refresh takes the store's fills: rows new on top keep the cursor on the fill it was on, and
// each new fill (after the first load) shows a notice and rings the bell.
func (p *fillsPane) refresh() tea.Cmd {
	v := [2]uint64{p.Store.Version(state.KindFills), p.Store.Version(state.KindInstruments)}
	if v == p.version {
		return nil
	}
	p.version = v
	old := p.fills
	p.fills = p.Store.Fills()
	added := newOnTop(old, p.fills, export.FillKey)
	if added > 0 && (p.tbl.Cursor > 0 || p.tbl.Offset > 0) {
		p.tbl.Cursor += added
		p.tbl.Offset += added
	}
	p.tbl.SetRows(len(p.fills))
	wasPrimed := p.primed
	p.primed = p.primed || len(p.fills) > 0 || p.Store.Freshness(state.KindFills).Loaded()
	if !wasPrimed || added == 0 {
		return nil
	}
	if p.bell && p.ring != nil {
		p.ring()
	}
	return common.Notice(common.LevelInfo, p.fillNotice(p.fills[:added]))
}

// pageStillLoading is the page still being loaded after a reply: none once the next page to load
// moved past it, or the request failed.
func pageStillLoading(loading int, next func() (int, bool), f state.Freshness) int {
	if n, more := next(); loading == 0 || !more || n > loading || f.Err != nil {
		return 0
	}
	return loading
}

// newOnTop counts the rows of now above the first row of before (the rows that arrived on top).
func newOnTop[T any, K comparable](before, now []T, key func(*T) K) int {
	if len(before) == 0 {
		return len(now)
	}
	top := key(&before[0])
	for i := range now {
		if key(&now[i]) == top {
			return i
		}
	}
	return 0 // the list was replaced, not grown
}

// fillNotice is the status line's words for new fills, at the instrument's precision.
func (p *fillsPane) fillNotice(fs []api.Fill) string {
	f := fs[0]
	in, ok := p.Store.Instrument(f.Instrument)
	s := fmt.Sprintf("filled: %s %s %s @ %s", state.SideText(f.Side), numAt(f.Size, in.SizeDecimals(), ok), f.Instrument,
		numAt(f.Price, in.PriceDecimals(), ok))
	if len(fs) > 1 {
		s += fmt.Sprintf(" (+%d more fills)", len(fs)-1)
	}
	return s
}

func (p *fillsPane) handleKey(msg tea.KeyMsg) tea.Cmd {
	if cmd, ok := p.exp.key(msg, p.Keys, p.ex, export.Fills, p.Clock); ok {
		return cmd
	}
	if key.Matches(msg, p.Keys.FillBell) {
		p.bell = !p.bell
		return common.Notice(common.LevelInfo, "bell on new fills: "+onOff(p.bell))
	}
	if !p.tbl.Navigate(p.Keys, msg) {
		return nil
	}
	return p.loadMore()
}

// loadMore loads the next page when the cursor is on the last loaded row.
func (p *fillsPane) loadMore() tea.Cmd {
	if p.loading != 0 || p.tbl.Rows == 0 || p.tbl.Cursor < p.tbl.Rows-1 {
		return nil
	}
	page, more := p.Store.NextFillsPage()
	if !more || page <= 1 {
		return nil
	}
	p.loading = page
	return p.f.Send(p.pageRequest(page))
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func (p *fillsPane) cell(row, col int) (string, common.Paint) {
	f := &p.fills[row]
	st := p.Styles
	in, ok := p.Store.Instrument(f.Instrument)
	switch col {
	case fcTime:
		return fmtStamp(f.BlockTime), st.Muted
	case fcInstrument:
		return f.Instrument, st.Bold
	case fcSide:
		return strings.ToUpper(state.SideText(f.Side)), common.SidePaint(st, f.Side)
	case fcDir:
		return state.DirectionText(f.Direction), st.Text
	case fcPrice:
		return numAt(f.Price, in.PriceDecimals(), ok), st.Text
	case fcSize:
		return numAt(f.Size, in.SizeDecimals(), ok), st.Text
	case fcNotional:
		return common.FmtNum(f.NotionalValue, 2), st.Text
	case fcFee:
		return feeText(st, f.Fee)
	case fcPnl:
		if f.ClosedPnl.IsZero() {
			return "-", st.Muted
		}
		return common.FmtSigned(f.ClosedPnl, 2), common.SignPaint(st, f.ClosedPnl)
	case fcLiq:
		return export.Liquidity(f.Crossed), st.Muted
	case fcOid:
		return strconv.FormatUint(uint64(f.OrderID), 10), st.Muted
	case fcCloid:
		return f.Cloid, st.Muted
	}
	return "", common.Paint{}
}

// feeText shows a fee with the decimals it was sent with (2 to 6); a negative fee is a rebate
// and says so in words, so it reads without colour.
func feeText(st *common.Styles, fee decimal.Decimal) (string, common.Paint) {
	places := min(max(-fee.Exponent(), 2), 6)
	if fee.IsNegative() {
		return "rebate " + common.FmtNum(fee.Neg(), places), st.Good
	}
	return common.FmtNum(fee, places), st.Text
}

// fmtStamp is a record's time in a pane: "03-02 09:15:04" (UTC), "-" when there is none.
func fmtStamp(t api.Time) string {
	if s := state.TimeText(t.Time, state.TimeShort); s != "" {
		return s
	}
	return "-"
}

// numAt formats d at the instrument's decimals, or as sent when the instrument is unknown.
func numAt(d decimal.Decimal, places int32, known bool) string {
	if !known {
		return d.String()
	}
	return common.FmtNum(d, places)
}

// View implements common.Pane.
func (p *fillsPane) View() string {
	if common.ExchangeAddress(p.ex) != "" {
		p.tbl.Empty = common.EmptyFor(p.Store, state.KindFills, "no fills yet")
	}
	lines := p.tbl.Lines(make([]string, 0, p.h))
	return strings.Join(append(lines, p.statusLine()), "\n")
}

// statusLine shows what is under way or wrong (pagedStatus), else how many fills are loaded.
func (p *fillsPane) statusLine() string {
	if s := pagedStatus(p.Styles, p.Store, state.KindFills, &p.exp, p.loading, p.w); s != "" {
		return s
	}
	return p.Styles.Muted.On(common.Pad(pagedHint(len(p.fills), p.Store.NextFillsPage, p.exp.last), p.w))
}

// pagedStatus is a paged list's status line while something needs saying, in order of urgency:
// the export's progress, a failed or stale poll of kind k, the page being loaded; "" otherwise.
func pagedStatus(st *common.Styles, store *state.Store, k state.Kind, exp *exporter, loading, w int) string {
	if s := exp.line(st, w); s != "" {
		return s
	}
	if s := common.FreshLine(st, store, k, w); s != "" {
		return s
	}
	if loading > 0 {
		return st.Accent.On(common.Pad("loading page "+strconv.Itoa(loading)+"…", w))
	}
	return ""
}

// pagedHint is a paged list's footer: rows loaded, whether more can be loaded, the last export.
func pagedHint(n int, next func() (int, bool), last string) string {
	s := strconv.Itoa(n) + " loaded"
	if _, more := next(); more && n > 0 {
		s += " · scroll to the end for more"
	} else if n > 0 {
		s += " · all"
	}
	s += " · e/E export CSV/JSON"
	if last != "" {
		s += " · " + last
	}
	return s
}

// Click implements common.Clicker.
func (p *fillsPane) Click(_, y int) tea.Cmd {
	if p.tbl.ClickRow(y) {
		return p.loadMore()
	}
	return nil
}

// ShortHelp implements common.Pane.
func (p *fillsPane) ShortHelp() []key.Binding {
	k := p.Keys
	return []key.Binding{k.Up, k.Down, k.ExportCSV, k.ExportJSON, k.FillBell}
}

// FullHelp implements common.Pane.
func (p *fillsPane) FullHelp() [][]key.Binding {
	k := p.Keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.ExportCSV, k.ExportJSON, k.ExportStop, k.FillBell}}
}

// ringBell rings the terminal bell on stderr (the screen is drawn on stdout).
func ringBell() { _, _ = os.Stderr.WriteString("\a") }
