package ui

import (
	"context"
	"math/rand/v2"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
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
	case state.KindTickers, state.KindMids:
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

// poller is the schedule of one kind: one request in flight at most, a generation per request so a
// late reply is dropped, and a backoff after failures.
type poller struct {
	kind     state.Kind
	gen      uint64 // generation of the last request sent
	token    uint64 // the pending timer's token; a pollDueMsg with another token is stale
	inFlight bool
	again    bool // a refresh was asked for while a request was in flight
	fails    int
	latency  time.Duration
	lastOK   time.Time
}

// pollDueMsg fires when a kind's timer runs out.
type pollDueMsg struct {
	kind  state.Kind
	token uint64
}

// polledMsg is one request's result: a state message (records or state.FailedMsg).
type polledMsg struct {
	kind    state.Kind
	gen     uint64
	msg     state.Msg
	err     error
	latency time.Duration
}

// polledKinds are the kinds the console polls: market data always, account data when it watches
// an account.
func polledKinds(hasAccount bool) []state.Kind {
	ks := []state.Kind{state.KindInstruments, state.KindCollateral, state.KindTickers, state.KindMids}
	if hasAccount {
		ks = append(ks, state.KindAccount, state.KindPositions, state.KindOrders)
	}
	return ks
}

// fetch returns the command that runs one request of kind k with its own timeout.
func fetch(ex api.Exchange, k state.Kind, gen uint64, timeout time.Duration, clock func() time.Time) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		start := time.Now()
		msg, err := fetchKind(ctx, ex, k, gen, clock)
		lat := time.Since(start)
		if err != nil {
			return polledMsg{kind: k, gen: gen, msg: state.FailedMsg{Gen: gen, At: clock(), Of: k, Err: err}, err: err, latency: lat}
		}
		return polledMsg{kind: k, gen: gen, msg: msg, latency: lat}
	}
}

func fetchKind(ctx context.Context, ex api.Exchange, k state.Kind, gen uint64, clock func() time.Time) (state.Msg, error) {
	addr := ex.Address()
	switch k {
	case state.KindTickers:
		ts, err := ex.Ticker(ctx, "all")
		return state.TickersMsg{Gen: gen, At: clock(), Tickers: ts}, err
	case state.KindMids:
		ms, err := ex.Mids(ctx, "all")
		return state.MidsMsg{Gen: gen, At: clock(), Mids: ms}, err
	case state.KindInstruments:
		in, err := ex.Instruments(ctx, "all")
		return state.InstrumentsMsg{Gen: gen, At: clock(), Instruments: in}, err
	case state.KindCollateral:
		cs, err := ex.SupportedCollateral(ctx, "all")
		return state.CollateralMsg{Gen: gen, At: clock(), Collateral: cs}, err
	case state.KindAccount:
		a, err := ex.AccountSummary(ctx, addr)
		return state.AccountMsg{Gen: gen, At: clock(), Summary: a}, err
	case state.KindPositions:
		ps, err := ex.Positions(ctx, addr)
		return state.PositionsMsg{Gen: gen, At: clock(), Positions: ps}, err
	case state.KindOrders:
		os, err := api.AllPages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
			return ex.OpenOrders(ctx, addr, p)
		}, 0, nil)
		return state.OrdersMsg{Gen: gen, At: clock(), Orders: os}, err
	}
	return nil, nil
}

// backoff is the wait before retrying after n consecutive failures: the interval doubled per
// failure, capped, with up to 20% jitter, and never less than what the server asked (Retry-After).
func backoff(every time.Duration, n int, maxWait time.Duration, err error) time.Duration {
	d := every
	for i := 0; i < n && d < maxWait; i++ {
		d *= 2
	}
	d = min(d, maxWait)
	d += time.Duration(rand.Int64N(int64(d)/5 + 1))
	if e, ok := api.AsError(err); ok && e.RetryAfter > d {
		d = e.RetryAfter
	}
	return d
}

// startPoll sends kind k's request now unless one is in flight (then it runs again on its reply).
func (m *Model) startPoll(k state.Kind) tea.Cmd {
	p := m.polls[k]
	if p == nil {
		return nil
	}
	if p.inFlight {
		p.again = true
		return nil
	}
	p.inFlight = true
	p.again = false
	p.gen++
	p.token++ // a pending timer for this kind is now stale
	return fetch(m.ex, k, p.gen, m.iv.Timeout, m.clock)
}

// schedule arms kind k's next poll after d.
func (m *Model) schedule(k state.Kind, d time.Duration) tea.Cmd {
	p := m.polls[k]
	p.token++
	tok := p.token
	return tea.Tick(d, func(time.Time) tea.Msg { return pollDueMsg{kind: k, token: tok} })
}

// refreshNow polls the given kinds at once (after an action, or on the refresh key).
func (m *Model) refreshNow(kinds ...state.Kind) tea.Cmd {
	var cmds []tea.Cmd
	for _, k := range kinds {
		cmds = append(cmds, m.startPoll(k))
	}
	return tea.Batch(cmds...)
}

// onPollDue starts a poll whose timer ran out, unless the timer was superseded.
func (m *Model) onPollDue(msg pollDueMsg) tea.Cmd {
	p := m.polls[msg.kind]
	if p == nil || msg.token != p.token {
		return nil
	}
	return m.startPoll(msg.kind)
}

// onPolled applies a poll's result to the store, tells the panes if anything changed and arms the
// next poll. A reply older than the last request of its kind is dropped.
func (m *Model) onPolled(msg polledMsg) tea.Cmd {
	p := m.polls[msg.kind]
	if p == nil || msg.gen != p.gen {
		return nil
	}
	p.inFlight = false
	p.latency = msg.latency
	m.latency = msg.latency
	var next time.Duration
	if msg.err != nil {
		p.fails++
		m.lastErr = msg.kind.String() + ": " + common.PlainError(msg.err)
		m.lastErrAt = m.clock()
		next = m.heartbeatWait(msg.kind, backoff(m.iv.every(msg.kind), p.fails, m.iv.MaxBackoff, msg.err), msg.err)
	}
	var cmds []tea.Cmd
	if msg.err == nil {
		if p.fails > 0 {
			cmds = append(cmds, m.recoverAll(msg.kind)) // the exchange is back (see recover.go)
		}
		p.fails = 0
		p.lastOK = m.clock()
		next = m.iv.every(msg.kind)
	}
	if m.store.Apply(msg.msg) {
		cmds = append(cmds, m.broadcast(common.DataMsg{Kind: msg.kind}))
		if msg.kind == state.KindTickers {
			m.relayoutIfWanted()
		}
	}
	if p.again {
		cmds = append(cmds, m.startPoll(msg.kind))
	} else {
		cmds = append(cmds, m.schedule(msg.kind, next))
	}
	return tea.Batch(cmds...)
}
