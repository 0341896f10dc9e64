package fills

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/pagedlist"
	"github.com/tradedesk/tradedesk/ui/export"
)

// Fill columns.
const (
	colTime = iota
	colInstrument
	colSide
	colDir
	colPrice
	colSize
	colNotional
	colFee
	colPnl
	colRole
	colOid
	colCloid
)

// Pane lists the account's fills, newest first. Scrolling to the last loaded row loads the
// next page; the newest page is polled and merged on top; a new fill rings the bell.
type Pane struct {
	*pagedlist.List
	fills   []api.Fill
	version [2]uint64 // store versions of fills and instruments last rendered
	primed  bool      // page 1 has arrived once: later fills on top are new
	// Bell rings the terminal bell on new fills (B toggles it); Ring is how (tests count instead).
	Bell bool
	Ring func()
	rung map[api.OrderID]bool // orders whose fills rang the bell (bounded: reset past 1,024)
}

// New is the fills pane; bell rings the terminal bell on new fills.
func New(c *common.Common, ex api.Exchange, bell bool) *Pane {
	p := &Pane{Bell: bell, Ring: common.RingBell}
	empty := "no fills yet"
	if common.ExchangeAddress(ex) == "" {
		empty = common.NoAccount("fills")
	}
	p.List = pagedlist.New(c, ex, source, []common.Column{
		common.Col("Time", 14, false, 0), common.Col("Instrument", 10, false, 0), common.Col("Side", 4, false, 0), common.Col("Direction", 11, false, 2),
		common.Col("Price", 10, true, 0), common.Col("Size", 10, true, 0), common.Col("Notional", 11, true, 2), common.Col("Fee", 12, true, 1), // "rebate 12.34" whole
		common.Col("Closed PnL", 11, true, 1), common.Col("Role", 5, false, 2), common.Col("Order id", 9, true, 3), common.Col("Cloid", 36, false, 4),
	}, p.cell, empty)
	p.Tbl.Follow(func(row int) string {
		k := export.FillKey(&p.fills[row])
		return strconv.FormatUint(k[0], 10) + "/" + strconv.FormatUint(k[1], 10)
	})
	return p
}

// Source is the account's fills, a page at a time (the Trades view loads older pages of them
// through the Fills view's task).
var Source = source

// source is the account's fills, a page at a time.
var source = pagedlist.Source{
	Kind: state.KindFills, Every: func(iv state.Intervals) time.Duration { return iv.Fills }, Evicted: (*state.Store).FillsEvicted, WatchTrades: true,
	Next: (*state.Store).NextFillsPage,
	Page: func(ex api.Exchange, user string, page int) feed.Request {
		return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			pg, err := ex.Fills(ctx, user, api.PageParams{Page: page, Limit: common.PageSize})
			return state.FillsMsg{Gen: gen, At: at, Page: pg}, err
		}
	},
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Fills (" + strconv.Itoa(len(p.fills)) + ")" }

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if cmd, handled, refresh := p.Handle(msg); handled {
		if refresh {
			return p.refresh()
		}
		return cmd
	}
	if msg, ok := msg.(tea.KeyMsg); ok {
		return p.handleKey(msg)
	}
	return nil
}

// refresh takes the store's fills: rows new on top keep the cursor on the fill it was on, and
// each new fill (after the first load) shows a notice and rings the bell.
func (p *Pane) refresh() tea.Cmd {
	v := [2]uint64{p.Store.Version(state.KindFills), p.Store.Version(state.KindInstruments)}
	if v == p.version {
		return nil
	}
	p.version = v
	old := p.fills
	p.fills = p.Store.Fills()
	added := pagedlist.NewOnTop(old, p.fills, export.FillKey)
	p.Tbl.SetRows(len(p.fills))
	wasPrimed := p.primed
	p.primed = p.primed || len(p.fills) > 0 || p.Store.Freshness(state.KindFills).Loaded()
	if !wasPrimed || added == 0 {
		return nil
	}
	if p.newOrderFilled(p.fills[:added]) && p.Bell && p.Ring != nil {
		p.Ring()
	}
	return p.fillNotices(p.fills[:added])
}

// newOrderFilled reports whether fs hold a fill of an order not rung for yet: an order filled in
// several batches rings once, as it is reported on one line.
func (p *Pane) newOrderFilled(fs []api.Fill) bool {
	if p.rung == nil || len(p.rung) > 1024 {
		p.rung = map[api.OrderID]bool{}
	}
	fresh := false
	for _, f := range fs {
		fresh = fresh || !p.rung[f.OrderID]
		p.rung[f.OrderID] = true
	}
	return fresh
}

// fillNotices is one status-line notice per order among the new fills, keyed by the order
// (common.FillKey): each says the order's fills so far added up, from every stored fill of it,
// so an order filled in several fills, reported in several batches, stays one line that ends
// on its total, not on its last piece.
func (p *Pane) fillNotices(added []api.Fill) tea.Cmd {
	var notices common.NoticesMsg
	totals := state.SumFills(added)
	slices.Reverse(totals) // newest order last: the status line ends on it
	// One pass over the stored fills for all the orders (10,000 fills and a page of 99 new orders
	// made it a million comparisons a poll).
	of := make(map[api.OrderID][]api.Fill, len(totals))
	for _, t := range totals {
		of[t.OrderID] = nil
	}
	for _, f := range p.fills {
		if fs, ok := of[f.OrderID]; ok {
			of[f.OrderID] = append(fs, f)
		}
	}
	for _, t := range totals {
		notices = append(notices, common.NoticeMsg{Level: common.LevelInfo, Key: common.FillKey(uint64(t.OrderID)), Text: p.fillNotice(of[t.OrderID])})
	}
	return func() tea.Msg { return notices }
}

// fillNotice is the status line's words for one order's fills, at the instrument's precision:
// added up (size, average price, fees), not its first piece.
func (p *Pane) fillNotice(fs []api.Fill) string {
	f := state.SumFills(fs)[0]
	in, _ := p.Store.Instrument(f.Instrument)
	s := fmt.Sprintf("filled: %s %s %s @ %s", state.SideText(f.Side), in.SizeText(f.Size), f.Instrument,
		in.PriceText(f.AvgPrice))
	if f.Count > 1 {
		s += fmt.Sprintf(" avg of %d fills", f.Count)
	}
	return s + ", fee " + state.FormatUSDFee(f.Fee) + " USD"
}

func (p *Pane) handleKey(msg tea.KeyMsg) tea.Cmd {
	if cmd, ok := p.Exp.Key(msg, p.Keys, p.Ex, export.Fills, p.Clock); ok {
		return cmd
	}
	if key.Matches(msg, p.Keys.FillBell) {
		p.Bell = !p.Bell
		return common.Notice(common.LevelInfo, "bell on new fills: "+onOff(p.Bell))
	}
	if !p.Tbl.Navigate(p.Keys, msg) {
		return nil
	}
	return p.LoadMore(len(p.fills))
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func (p *Pane) cell(row, col int) (string, common.Paint) {
	f := &p.fills[row]
	st := p.Styles
	in, _ := p.Store.Instrument(f.Instrument)
	switch col {
	case colTime:
		return common.FmtStamp(f.BlockTime), st.Muted
	case colInstrument:
		return f.Instrument, st.Bold
	case colSide:
		return strings.ToUpper(state.SideText(f.Side)), common.SidePaint(st, f.Side)
	case colDir:
		return state.DirectionText(f.Direction), st.Text
	case colPrice:
		return in.PriceText(f.Price), st.Text
	case colSize:
		return in.SizeText(f.Size), st.Text
	case colNotional:
		return common.FmtNum(f.NotionalValue, 2), st.Text
	case colFee:
		return feeText(st, f.Fee)
	case colPnl:
		if f.ClosedPnl.IsZero() {
			return "-", st.Muted
		}
		return common.FmtSigned(f.ClosedPnl, 2), common.SignPaint(st, f.ClosedPnl)
	case colRole:
		return export.Liquidity(f.Crossed), st.Muted
	case colOid:
		return strconv.FormatUint(uint64(f.OrderID), 10), st.Muted
	case colCloid:
		return f.Cloid, st.Muted
	}
	return "", common.Paint{}
}

// feeText shows a fee in the one fee style (state.FormatUSDFee: 2 places, never rounded to
// zero); a negative fee is a rebate and says so in words, so it reads without colour.
func feeText(st *common.Styles, fee decimal.Decimal) (string, common.Paint) {
	if fee.IsNegative() {
		return state.FormatUSDFee(fee), st.Good
	}
	return state.FormatUSDFee(fee), st.Text
}

// View implements common.Pane.
func (p *Pane) View() string {
	if common.ExchangeAddress(p.Ex) != "" {
		p.Tbl.Empty = common.EmptyFor(p.Store, state.KindFills, "no fills yet")
	}
	return p.Body(func() string { return p.Hint(len(p.fills)) })
}

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding {
	k := p.Keys
	return []key.Binding{k.Up, k.Down, k.ExportCSV, k.ExportJSON, k.FillBell}
}

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding {
	k := p.Keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.ExportCSV, k.ExportJSON, k.ExportStop, k.FillBell}}
}

// Fills are the fills loaded, newest first.
func (p *Pane) Fills() []api.Fill { return p.fills }
