// Package funding is the Activity group's funding view: the account's funding payments, newest
// first (time, instrument, position size, mark price, rate per period, payment, signed: negative
// when the position paid), and their net in the status line. Older pages load as the trader
// scrolls to the last row. The payments reach it by the one route: a feed task in ui polls
// funding_history, state.Apply merges the pages, the pane reads the store.
package funding

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/profile"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Columns.
const (
	cTime = iota
	cInstrument
	cSize
	cMark
	cRate
	cPayment
	cCollateral
)

// Pane is the funding view.
type Pane struct {
	*common.Common
	tbl     *common.Table
	rows    []api.FundingPayment
	net     string    // the status line's net, made when the rows change
	version [3]uint64 // funding, instruments and collateral versions read
	more    func(page int) tea.Cmd
	loading int // the page being loaded (0: none)
	w, h    int
	empty   string
}

// New is the funding view; more asks for one older page (nil: none are loaded). watching says
// whether the console watches an account (without one there are no payments to show).
func New(c *common.Common, more func(page int) tea.Cmd, watching bool) *Pane {
	p := &Pane{Common: c, more: more, empty: "no funding payments yet"}
	if !watching {
		p.empty = "no account: start with --address, --keystore or a key to see funding"
	}
	p.tbl = common.NewTable(c.Styles, []common.Column{
		common.Col("Time", 14, false, 0), common.Col("Instrument", 10, false, 0), common.Col("Size", 10, true, 1),
		common.Col("Mark", 12, true, 2), common.Col("Rate", 14, true, 1), common.Col("Payment", 12, true, 0),
		common.Col("Coll.", 6, false, 3),
	}, p.cell)
	p.tbl.Empty = p.empty
	return p
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Funding (" + strconv.Itoa(len(p.rows)) + ")" }

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind { return []state.Kind{state.KindFunding} }

// SetSize implements common.Pane; the last line is the status line.
func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.tbl.SetSize(w, max(h-1, 1))
}

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(f bool) { p.tbl.SetFocused(f) }

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.DataMsg:
		switch msg.Kind {
		case state.KindFunding:
			p.settleLoading()
			p.refresh()
		case state.KindInstruments, state.KindCollateral:
			p.refresh()
		}
	case tea.KeyMsg:
		if p.tbl.Navigate(p.Keys, msg) {
			return p.loadMore()
		}
	}
	return nil
}

// refresh takes the store's payments when they (or the names they are shown with) changed.
func (p *Pane) refresh() {
	v := [3]uint64{p.Store.Version(state.KindFunding), p.Store.Version(state.KindInstruments), p.Store.Version(state.KindCollateral)}
	if v == p.version {
		return
	}
	p.version = v
	p.rows = p.Store.Funding()
	p.net = p.netText()
	p.tbl.SetRows(len(p.rows))
}

// settleLoading ends the page load once the next page moved past it or the request failed.
func (p *Pane) settleLoading() {
	if next, more := p.Store.NextFundingPage(); !more || next > p.loading || p.Store.Freshness(state.KindFunding).Err != nil {
		p.loading = 0
	}
}

// loadMore asks for the next page when the cursor is on the last row.
func (p *Pane) loadMore() tea.Cmd {
	if p.more == nil || p.loading != 0 || p.tbl.Rows == 0 || p.tbl.Cursor != p.tbl.Rows-1 {
		return nil
	}
	page, more := p.Store.NextFundingPage()
	if !more || page <= 1 {
		return nil
	}
	p.loading = page
	return p.more(page)
}

// netText is the net of the payments loaded, per collateral: "net −1.25 USDC".
func (p *Pane) netText() string {
	net := state.FundingNet(p.rows)
	ids := make([]api.CollateralID, 0, len(net))
	for id := range net {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	parts := make([]string, 0, len(ids))
	for _, id := range ids {
		sym, places := p.collateral(id)
		parts = append(parts, state.FormatPayment(net[id], places)+" "+sym)
	}
	if len(parts) == 0 {
		return ""
	}
	return "net " + strings.Join(parts, ", ")
}

// collateral is a settlement currency's symbol and display precision ("#id" and 8 places when
// the collateral list has not loaded).
func (p *Pane) collateral(id api.CollateralID) (string, int32) {
	if c, ok := p.Store.CollateralByID(id); ok {
		return c.Symbol, state.DisplayDecimals(c.Symbol, int32(c.Decimals))
	}
	return "#" + strconv.FormatInt(int64(id), 10), 8
}

func (p *Pane) cell(row, col int) (string, common.Paint) {
	f := &p.rows[row]
	st := p.Styles
	in, known := p.Store.InstrumentByID(f.InstrumentID)
	switch col {
	case cTime:
		if s := state.TimeText(f.Time.Time, state.TimeShort); s != "" {
			return s, st.Muted
		}
		return "-", st.Muted
	case cInstrument:
		if !known {
			return "#" + strconv.FormatInt(int64(f.InstrumentID), 10), st.Bold
		}
		return in.Name, st.Bold
	case cSize:
		return numAt(f.Size, in.SizeDecimals(), known, true), common.SignPaint(st, f.Size)
	case cMark:
		return numAt(f.MarkPrice, in.PriceDecimals(), known, false), st.Text
	case cRate:
		return state.FormatFunding(f.Rate, state.FundingPeriod), st.Text
	case cPayment:
		_, places := p.collateral(f.SettlementCurrency)
		return state.FormatPayment(f.Payment, places), common.SignPaint(st, f.Payment)
	case cCollateral:
		sym, _ := p.collateral(f.SettlementCurrency)
		return sym, st.Muted
	}
	return "", common.Paint{}
}

// numAt writes d at the instrument's decimals (signed when asked), or as sent when the
// instrument is unknown.
func numAt(d decimal.Decimal, places int32, known, signed bool) string {
	switch {
	case !known:
		return state.FormatPrice(d, state.StepDecimals(d)) // nothing rounded away
	case signed:
		return common.FmtSigned(d, places)
	}
	return common.FmtNum(d, places)
}

// View implements common.Pane: the table above the status line.
func (p *Pane) View() string {
	p.tbl.Empty = common.EmptyFor(p.Store, state.KindFunding, p.empty)
	lines := p.tbl.Lines(make([]string, 0, p.h))
	return strings.Join(append(lines, p.status()), "\n")
}

// status is what is wrong or under way, else the count loaded, the net and whether more can load.
func (p *Pane) status() string {
	st := p.Styles
	if s := common.FreshLine(st, p.Store, state.KindFunding, p.w); s != "" {
		return s
	}
	if p.loading > 0 {
		return st.Accent.On(common.Pad("loading page "+strconv.Itoa(p.loading)+"…", p.w))
	}
	s := strconv.Itoa(len(p.rows)) + " loaded"
	if p.net != "" {
		s += " · " + p.net
	}
	_, more := p.Store.NextFundingPage()
	switch {
	case p.Store.FundingEvicted() > 0:
		s += " · the newest kept, older let go (bound)"
	case more && len(p.rows) > 0:
		s += " · scroll to the end for more"
	case len(p.rows) > 0:
		s += " · all"
	}
	return st.Muted.On(common.Pad(s, p.w))
}

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding { return []key.Binding{p.Keys.Up, p.Keys.Down} }

// FullHelp implements common.Pane: only the list's navigation, which the Activity group's help
// already shows with the fills, so it adds nothing there.
func (p *Pane) FullHelp() [][]key.Binding { return nil }

// NewFed is the funding view with its feed task: page 1 polled every Intervals.Funding, older pages asked for
// on scrolling.
func NewFed(c *common.Common, ex api.Exchange) *common.Fed {
	t := common.PaneTask(c, state.KindFunding, c.Every(func(iv profile.Intervals) time.Duration { return iv.Funding }), common.AccountRequest(ex, page(ex, 1)))
	more := func(n int) tea.Cmd {
		if r := common.AccountRequest(ex, page(ex, n))(); r != nil {
			return common.Tea(t.Send(r))
		}
		return nil
	}
	return &common.Fed{Pane: New(c, more, common.ExchangeAddress(ex) != ""), Task: t}
}

// page asks for one page of the account's funding payments.
func page(ex api.Exchange, n int) func(ctx context.Context, user string, gen uint64, at time.Time) (state.Msg, error) {
	return func(ctx context.Context, user string, gen uint64, at time.Time) (state.Msg, error) {
		pg, err := ex.FundingHistory(ctx, user, api.PageParams{Page: n, Limit: common.PageSize})
		return state.FundingMsg{Gen: gen, At: at, Page: pg}, err
	}
}
