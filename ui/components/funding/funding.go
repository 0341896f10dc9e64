// Package funding is the Activity group's funding view: the account's funding payments, newest
// first (time, instrument, position size, mark price, rate per period, payment, signed: negative
// when the position paid), and their net in the status line. Older pages load as the trader
// scrolls to the last row. The payments reach it by the one route: the kit's paged list
// (pagedlist.List) polls funding_history, state.Apply merges the pages, the pane reads the store.
package funding

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/pagedlist"
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

// Pane is the funding view: a paged list (pagedlist.List) of the account's payments.
type Pane struct {
	*pagedlist.List
	rows    []api.FundingPayment
	net     string    // the status line's net, made when the rows change
	version [3]uint64 // funding, instruments and collateral versions read
	empty   string
}

// source is the account's funding payments, a page at a time, polled every Intervals.Funding.
var source = pagedlist.Source{
	Kind: state.KindFunding, Every: func(iv state.Intervals) time.Duration { return iv.Funding },
	Next: (*state.Store).NextFundingPage, Evicted: (*state.Store).FundingEvicted,
	// Payments are hourly: reconciled while the account streams.
	Follows: []state.Kind{state.KindAccount},
	Page: func(ex api.Exchange, user string, page int) feed.Request {
		return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			pg, err := ex.FundingHistory(ctx, user, api.PageParams{Page: page, Limit: common.PageSize})
			return state.FundingMsg{Gen: gen, At: at, Page: pg}, err
		}
	},
}

// New is the funding view of the account ex watches, with its feed task.
func New(c *common.Common, ex api.Exchange) *Pane {
	return newPane(c, ex, source, common.ExchangeAddress(ex) != "")
}

// newPane is the funding view on src; watching says whether the console watches an account
// (without one there are no payments to show).
func newPane(c *common.Common, ex api.Exchange, src pagedlist.Source, watching bool) *Pane {
	p := &Pane{empty: "no funding payments yet"}
	if !watching {
		p.empty = common.NoAccount("funding")
	}
	p.List = pagedlist.New(c, ex, src, []common.Column{
		common.Col("Time", 14, false, 0), common.Col("Instrument", 10, false, 0), common.Col("Size", 10, true, 1),
		common.Col("Mark", 12, true, 2), common.Col("Rate", 14, true, 1), common.Col("Payment", 12, true, 0),
		common.Col("Coll.", 6, false, 3),
	}, p.cell, p.empty)
	return p
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Funding (" + strconv.Itoa(len(p.rows)) + ")" }

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	if cmd, handled, refresh := p.Handle(msg, state.KindCollateral); handled {
		if refresh {
			p.refresh()
		}
		return cmd
	}
	if msg, ok := msg.(tea.KeyMsg); ok && p.Tbl.Navigate(p.Keys, msg) {
		return p.LoadMore(len(p.rows))
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
	p.Tbl.SetRows(len(p.rows))
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
		sym, places := p.Store.CollateralShown(id)
		parts = append(parts, state.FormatPayment(net[id], places)+" "+sym)
	}
	if len(parts) == 0 {
		return ""
	}
	return "net " + strings.Join(parts, ", ")
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
		_, places := p.Store.CollateralShown(f.SettlementCurrency)
		return state.FormatPayment(f.Payment, places), common.SignPaint(st, f.Payment)
	case cCollateral:
		sym, _ := p.Store.CollateralShown(f.SettlementCurrency)
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
	p.Tbl.Empty = common.EmptyFor(p.Store, state.KindFunding, p.empty)
	return p.Body(p.idle)
}

// idle is the status line when nothing is wrong or under way: the count loaded, the net and
// whether more can load.
func (p *Pane) idle() string {
	s := strconv.Itoa(len(p.rows)) + " loaded"
	if p.net != "" {
		s += " · " + p.net
	}
	return s + p.More(len(p.rows))
}
