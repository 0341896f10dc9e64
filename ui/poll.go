package ui

import (
	"context"
	"fmt"
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

func (iv Intervals) every(k state.Kind) time.Duration {
	switch k {
	case state.KindTickers, state.KindMids, state.KindBook, state.KindTrades:
		return iv.Tickers
	case state.KindAccount:
		return iv.Account
	case state.KindPositions:
		return iv.Positions
	case state.KindOrders:
		return iv.Orders
	}
	return iv.Instruments
}

// polledKinds are the kinds the console polls: market data always (the book and the tape of the
// current instrument at the tickers' cadence), account data when it watches an account.
func polledKinds(hasAccount bool) []state.Kind {
	ks := []state.Kind{state.KindInstruments, state.KindCollateral, state.KindTickers, state.KindMids, state.KindBook, state.KindTrades}
	if hasAccount {
		ks = append(ks, state.KindAccount, state.KindPositions, state.KindOrders)
	}
	return ks
}

// addPolls registers the root's polls with the feed: one task per kind, at the cadence of m.iv
// (read at every wait, so a change takes effect at the next one). The tickers are the heartbeat.
func (m *Model) addPolls() {
	for _, k := range m.kinds {
		m.feed.Add(feed.Spec{Kind: k, Every: func() time.Duration { return m.iv.every(k) },
			Request: m.pollRequest(k), Heartbeat: k == state.KindTickers})
	}
}

// setIntervals changes the cadence, timeout and backoff cap of the root's polls.
func (m *Model) setIntervals(iv Intervals) {
	m.iv = iv.withDefaults()
	for _, k := range m.kinds {
		m.feed.Task(k).SetLimits(m.iv.Timeout, m.iv.MaxBackoff)
	}
}

// pollRequest builds kind k's request: one call to the exchange, answered as k's state message.
// The book and the tape are the current instrument's, read when the request is built (none
// before an instrument is known).
func (m *Model) pollRequest(k state.Kind) func() feed.Request {
	ex := m.ex
	return func() feed.Request {
		if k == state.KindBook || k == state.KindTrades {
			return marketRequest(ex, k, m.c.ShownInstrument())
		}
		return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			return fetchKind(ctx, ex, k, gen, at)
		}
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

func fetchKind(ctx context.Context, ex api.Exchange, k state.Kind, gen uint64, at time.Time) (state.Msg, error) {
	addr := ex.Address()
	switch k {
	case state.KindTickers:
		ts, err := ex.Ticker(ctx, "all")
		return state.TickersMsg{Gen: gen, At: at, Tickers: ts}, err
	case state.KindMids:
		ms, err := ex.Mids(ctx, "all")
		return state.MidsMsg{Gen: gen, At: at, Mids: ms}, err
	case state.KindInstruments:
		in, err := ex.Instruments(ctx, "all")
		return state.InstrumentsMsg{Gen: gen, At: at, Instruments: in}, err
	case state.KindCollateral:
		cs, err := ex.SupportedCollateral(ctx, "all")
		return state.CollateralMsg{Gen: gen, At: at, Collateral: cs}, err
	case state.KindAccount:
		a, err := ex.AccountSummary(ctx, addr)
		return state.AccountMsg{Gen: gen, At: at, Summary: a}, err
	case state.KindPositions:
		ps, err := ex.Positions(ctx, addr)
		return state.PositionsMsg{Gen: gen, At: at, Positions: ps}, err
	case state.KindOrders:
		os, err := api.AllPages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
			return ex.OpenOrders(ctx, addr, p)
		}, 0, nil)
		return state.OrdersMsg{Gen: gen, At: at, Orders: os}, err
	}
	return nil, nil
}

// refreshNow polls the given kinds at once (after an action, or on the refresh key).
func (m *Model) refreshNow(kinds ...state.Kind) tea.Cmd { return m.feed.Refresh(kinds...) }

// onFeed hands a feed message to the feed and applies what it brings to the store: the panes are
// told what changed, a failure shows in the message line.
func (m *Model) onFeed(msg feed.Msg) tea.Cmd {
	r := m.feed.Update(msg)
	if r.Msg == nil {
		return r.Cmd
	}
	if r.Err != nil {
		m.lastErr = r.Kind.String() + ": " + common.PlainError(r.Err)
		m.lastErrAt = m.clock()
	}
	if !m.store.Apply(r.Msg) {
		return r.Cmd
	}
	told := m.broadcast(common.DataMsg{Kind: r.Kind})
	if r.Kind == state.KindTickers {
		m.relayoutIfWanted() // after the panes took the data: a short list gives up its spare lines
	}
	return tea.Batch(r.Cmd, told)
}
