package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/feed"
)

// Intervals is the polling cadence of each kind of data. Mids follow Tickers and collateral
// follows Instruments.
type Intervals struct {
	Tickers     time.Duration
	Account     time.Duration
	Positions   time.Duration
	Orders      time.Duration
	Instruments time.Duration
	// Timeout bounds each request.
	Timeout time.Duration
	// MaxBackoff caps the wait after repeated failures.
	MaxBackoff time.Duration
}

// DefaultIntervals is the cadence of the design: tickers and mids every second, account,
// positions and orders every 2 s, instruments and collateral every 5 minutes.
func DefaultIntervals() Intervals {
	return Intervals{
		Tickers: time.Second, Account: 2 * time.Second, Positions: 2 * time.Second,
		Orders: 2 * time.Second, Instruments: 5 * time.Minute,
		Timeout: 5 * time.Second, MaxBackoff: 30 * time.Second,
	}
}

// withDefaults fills every zero field from DefaultIntervals.
func (iv Intervals) withDefaults() Intervals {
	def := DefaultIntervals()
	for _, f := range []struct{ v, d *time.Duration }{
		{&iv.Tickers, &def.Tickers}, {&iv.Account, &def.Account}, {&iv.Positions, &def.Positions},
		{&iv.Orders, &def.Orders}, {&iv.Instruments, &def.Instruments}, {&iv.Timeout, &def.Timeout},
		{&iv.MaxBackoff, &def.MaxBackoff},
	} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	return iv
}

// pollSpec is one kind the root polls: its cadence and its request. Adding a root poll is one
// entry in pollSpecs (and its kind in state).
type pollSpec struct {
	kind    state.Kind
	account bool // polled only when the console watches an account
	every   func(Intervals) time.Duration
	// request builds the request for what the console shows now (nil: nothing to poll yet).
	request func(m *Model) feed.Request
}

// pollSpecs are the root's polls, in the order they start: market data (the book and the tape of
// the current instrument at the tickers' cadence), then the account's.
var pollSpecs = []pollSpec{
	{state.KindInstruments, false, func(iv Intervals) time.Duration { return iv.Instruments },
		call(func(ctx context.Context, ex api.Exchange, gen uint64, at time.Time) (state.Msg, error) {
			in, err := ex.Instruments(ctx, "all")
			return state.InstrumentsMsg{Gen: gen, At: at, Instruments: in}, err
		})},
	{state.KindCollateral, false, func(iv Intervals) time.Duration { return iv.Instruments },
		call(func(ctx context.Context, ex api.Exchange, gen uint64, at time.Time) (state.Msg, error) {
			cs, err := ex.SupportedCollateral(ctx, "all")
			return state.CollateralMsg{Gen: gen, At: at, Collateral: cs}, err
		})},
	{state.KindTickers, false, func(iv Intervals) time.Duration { return iv.Tickers },
		call(func(ctx context.Context, ex api.Exchange, gen uint64, at time.Time) (state.Msg, error) {
			ts, err := ex.Ticker(ctx, "all")
			return state.TickersMsg{Gen: gen, At: at, Tickers: ts}, err
		})},
	{state.KindMids, false, func(iv Intervals) time.Duration { return iv.Tickers },
		call(func(ctx context.Context, ex api.Exchange, gen uint64, at time.Time) (state.Msg, error) {
			ms, err := ex.Mids(ctx, "all")
			return state.MidsMsg{Gen: gen, At: at, Mids: ms}, err
		})},
	{state.KindBook, false, func(iv Intervals) time.Duration { return iv.Tickers },
		func(m *Model) feed.Request { return marketRequest(m.ex, state.KindBook, m.c.ShownInstrument()) }},
	{state.KindTrades, false, func(iv Intervals) time.Duration { return iv.Tickers },
		func(m *Model) feed.Request { return marketRequest(m.ex, state.KindTrades, m.c.ShownInstrument()) }},
	{state.KindAccount, true, func(iv Intervals) time.Duration { return iv.Account },
		call(func(ctx context.Context, ex api.Exchange, gen uint64, at time.Time) (state.Msg, error) {
			a, err := ex.AccountSummary(ctx, ex.Address())
			return state.AccountMsg{Gen: gen, At: at, Summary: a}, err
		})},
	{state.KindPositions, true, func(iv Intervals) time.Duration { return iv.Positions },
		call(func(ctx context.Context, ex api.Exchange, gen uint64, at time.Time) (state.Msg, error) {
			ps, err := ex.Positions(ctx, ex.Address())
			return state.PositionsMsg{Gen: gen, At: at, Positions: ps}, err
		})},
	{state.KindOrders, true, func(iv Intervals) time.Duration { return iv.Orders },
		call(func(ctx context.Context, ex api.Exchange, gen uint64, at time.Time) (state.Msg, error) {
			page := func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
				return ex.OpenOrders(ctx, ex.Address(), p)
			}
			os, err := api.AllPagesUpTo(ctx, page, 0, api.MaxOpenOrders)
			return state.OrdersMsg{Gen: gen, At: at, Orders: os}, err
		})},
	// the account's fee rates, for the order preview (at the instruments' cadence: they change
	// with the account's volume tier, not by the second)
	{state.KindFees, true, func(iv Intervals) time.Duration { return iv.Instruments },
		call(func(ctx context.Context, ex api.Exchange, gen uint64, at time.Time) (state.Msg, error) {
			f, err := ex.UserFees(ctx, ex.Address())
			return state.FeesMsg{Gen: gen, At: at, Fees: f}, err
		})},
}

// exchangeCall is one call to the exchange, answered as a state message of generation gen.
type exchangeCall func(ctx context.Context, ex api.Exchange, gen uint64, at time.Time) (state.Msg, error)

// call is a poll whose request is always the same call to the exchange.
func call(fetch exchangeCall) func(*Model) feed.Request {
	return func(m *Model) feed.Request {
		ex := m.ex
		return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			return fetch(ctx, ex, gen, at)
		}
	}
}

// addPolls registers the root's polls with the feed, market data always and the account's when
// the console watches one: one task per kind, at the cadence of m.iv (read at every wait, so a
// change takes effect at the next one). The tickers are the heartbeat.
func (m *Model) addPolls() {
	hasAccount := m.ex.Address() != ""
	for _, p := range pollSpecs {
		if p.account && !hasAccount {
			continue
		}
		m.kinds = append(m.kinds, p.kind)
		every, request := p.every, p.request
		m.feed.Add(feed.Spec{Kind: p.kind, Heartbeat: p.kind == state.KindTickers,
			Every:   func() time.Duration { return every(m.iv) },
			Request: func() feed.Request { return request(m) }})
	}
}

// setIntervals changes the cadence, timeout and backoff cap of the root's polls.
func (m *Model) setIntervals(iv Intervals) {
	m.iv = iv.withDefaults()
	for _, k := range m.kinds {
		m.feed.Task(k).SetLimits(m.iv.Timeout, m.iv.MaxBackoff)
	}
}

// Depth of the polled book and length of the polled tape: enough for a tall ladder grouped
// several ticks a level, and for the tape's screen.
const (
	bookDepth  = 200
	tradeLimit = 100
)

// marketRequest polls one instrument's book or trades (nil when there is no instrument yet).
func marketRequest(ex api.Exchange, k state.Kind, symbol string) feed.Request {
	if symbol == "" {
		return nil
	}
	return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
		if k == state.KindBook {
			b, err := ex.OrderBook(ctx, symbol, bookDepth)
			if err == nil && b.Symbol != "" && !strings.EqualFold(b.Symbol, symbol) {
				err = fmt.Errorf("orderbook: asked for %s, the exchange sent %s", symbol, text.Quote(b.Symbol))
			}
			b.Symbol = symbol
			return state.BookMsg{Gen: gen, At: at, Book: b}, err
		}
		ts, err := ex.Trades(ctx, symbol, tradeLimit)
		return state.TradesMsg{Gen: gen, At: at, Symbol: symbol, Trades: ts}, err
	}
}

// refreshNow polls the given kinds at once (after an action, or on the refresh key).
func (m *Model) refreshNow(kinds ...state.Kind) tea.Cmd { return m.feed.Refresh(kinds...) }

// onFeed hands a feed message to the feed and applies what it brings to the store: the panes are
// told what changed, a failure shows in the message line.
func (m *Model) onFeed(msg feed.Msg) tea.Cmd {
	r := m.feed.Update(msg)
	m.syncStaleWindows()
	if r.Dropped > 0 {
		m.dropNote, m.dropAt = dropNote(r.Kind, r.Dropped, r.DropReason), m.clock()
	}
	if r.Msg == nil && len(r.Msgs) == 0 {
		return r.Cmd
	}
	switch {
	case r.Err != nil:
		m.lastErr = r.Kind.String() + ": " + common.PlainError(r.Err)
		m.lastErrAt, m.lastErrKind = m.clock(), r.Kind
		m.msgs.Add(common.LevelError, r.Kind.String()+": "+r.Err.Error())
		m.refreshMessages()
	case m.lastErr != "" && r.Kind == m.lastErrKind:
		// The cause is gone: the same kind of data came back.
		m.lastErr = ""
	}
	var changed []state.Kind
	if r.Msg != nil && m.store.Apply(r.Msg) {
		changed = append(changed, r.Kind)
	}
	for _, sm := range r.Msgs { // a stream's batch: each kind's panes are told once
		if m.store.Apply(sm) && !slices.Contains(changed, sm.Kind()) {
			changed = append(changed, sm.Kind())
		}
	}
	cmds := []tea.Cmd{r.Cmd}
	if slices.Contains(changed, state.KindInstruments) {
		cmds = append(cmds, m.followInstrument()) // the chart's series can be subscribed now
	}
	for _, k := range changed {
		cmds = append(cmds, m.broadcast(common.DataMsg{Kind: k}))
	}
	if slices.Contains(changed, state.KindTickers) {
		m.relayoutIfWanted() // after the panes took the data: a short list gives up its spare lines
	}
	return tea.Batch(cmds...)
}

// dropNote is the message line's word on the bad rows an answer of kind k left out: how many, and
// why the first was (its reason is outside text: PlainError cleans it).
func dropNote(k state.Kind, n int, why string) string {
	rows := "rows"
	if n == 1 {
		rows = "row"
	}
	return fmt.Sprintf("%s: %d bad %s dropped (%s)", k, n, rows, common.PlainError(errors.New(why)))
}
