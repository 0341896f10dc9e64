package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/equity"
	"github.com/tradedesk/tradedesk/ui/components/funding"
	"github.com/tradedesk/tradedesk/ui/components/transfers"
	"github.com/tradedesk/tradedesk/ui/feed"
)

// The Activity group's funding, transfers and equity views live in their own packages and read
// the store; this file is their feed: one pane task per kind, polling what the view shows.

// Cadence of the views' polls: funding settles hourly and transfers are rare, so every 10 s is
// plenty (and a transfer made here is polled at once: the transfer action refreshes
// KindTransfers); the simulator samples the account's value once a minute.
var (
	activityEvery = 10 * time.Second
	equityEvery   = 30 * time.Second
)

// How many transfers and equity points one poll asks for.
const (
	transferLimit = 200
	equityLimit   = 1000
)

// fedPane is a view whose data a feed task of ui fetches: the task starts with the panes' own
// polls (startPanesMsg, which the view's package cannot name); every other message goes to the view.
type fedPane struct {
	common.Pane
	task *feed.Task
}

// Update implements common.Pane.
func (p *fedPane) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(startPanesMsg); ok {
		return p.task.Start()
	}
	return p.Pane.Update(msg)
}

// Kinds implements common.KindsShower for the view.
func (p *fedPane) Kinds() []state.Kind {
	if k, ok := p.Pane.(common.KindsShower); ok {
		return k.Kinds()
	}
	return nil
}

// accountRequest is a poll of the watched account (nil without one: nothing to poll).
func accountRequest(ex api.Exchange, fetch func(ctx context.Context, user string, gen uint64, at time.Time) (state.Msg, error)) func() feed.Request {
	return func() feed.Request {
		user := common.ExchangeAddress(ex)
		if user == "" {
			return nil
		}
		return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			return fetch(ctx, user, gen, at)
		}
	}
}

// fundingPage asks for one page of the account's funding payments.
func fundingPage(ex api.Exchange, page int) func(ctx context.Context, user string, gen uint64, at time.Time) (state.Msg, error) {
	return func(ctx context.Context, user string, gen uint64, at time.Time) (state.Msg, error) {
		pg, err := ex.FundingHistory(ctx, user, api.PageParams{Page: page, Limit: pageSize})
		return state.FundingMsg{Gen: gen, At: at, Page: pg}, err
	}
}

// newFundingView is the funding view and its task: page 1 polled, older pages on scrolling.
func newFundingView(c *common.Common, ex api.Exchange) *fedPane {
	t := paneTask(c, state.KindFunding, func() time.Duration { return activityEvery }, accountRequest(ex, fundingPage(ex, 1)))
	more := func(page int) tea.Cmd {
		if r := accountRequest(ex, fundingPage(ex, page))(); r != nil {
			return t.Send(r)
		}
		return nil
	}
	return &fedPane{Pane: funding.New(c, more, common.ExchangeAddress(ex) != ""), task: t}
}

// newTransfersView is the transfers view and its task.
func newTransfersView(c *common.Common, ex api.Exchange) *fedPane {
	t := paneTask(c, state.KindTransfers, func() time.Duration { return activityEvery },
		accountRequest(ex, func(ctx context.Context, user string, gen uint64, at time.Time) (state.Msg, error) {
			ts, err := ex.TransferHistory(ctx, user, transferLimit)
			return state.TransfersMsg{Gen: gen, At: at, Transfers: ts}, err
		}))
	return &fedPane{Pane: transfers.New(c, common.ExchangeAddress(ex) != ""), task: t}
}

// newEquityView is the equity curve and its task.
func newEquityView(c *common.Common, ex api.Exchange) *fedPane {
	t := paneTask(c, state.KindEquity, func() time.Duration { return equityEvery },
		accountRequest(ex, func(ctx context.Context, user string, gen uint64, at time.Time) (state.Msg, error) {
			ps, err := ex.AccountHistory(ctx, user, equityLimit)
			return state.EquityMsg{Gen: gen, At: at, Points: ps}, err
		}))
	return &fedPane{Pane: equity.New(c, common.ExchangeAddress(ex) != ""), task: t}
}
