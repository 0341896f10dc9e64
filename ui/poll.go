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
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/state/profile"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/components/risk"
)

// Intervals is the polling cadence of each kind of data (profile.Intervals: the config file's
// [poll] table sets it).
type Intervals = profile.Intervals

// newFeed is the console's one scheduler, on cfg's timers (nil: the wall clock's) read at cfg's
// clock, with its cadences' timeout and backoff.
func newFeed(cfg Config) *feed.Feed {
	timers := cfg.Timers
	if timers == nil {
		timers = feed.NewRealClock(cfg.Clock)
	} else {
		timers = feed.WithNow(timers, cfg.Clock)
	}
	return feed.New(timers, cfg.Intervals.Timeout, cfg.Intervals.MaxBackoff)
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
func (m *Model) refreshNow(kinds ...state.Kind) tea.Cmd { return common.Tea(m.feed.Refresh(kinds...)) }

// onFeed hands a feed message to the feed and applies what it brings to the store: the panes are
// told what changed, a failure shows in the message line.
func (m *Model) onFeed(msg feed.Msg) tea.Cmd {
	conn := m.feed.Conn()
	r := m.feed.Update(msg)
	m.hold = r.Hold
	m.syncStaleWindows()
	if r.Dropped > 0 {
		m.dropNote, m.dropAt = dropNote(r.Kind, r.Dropped, r.DropReason), m.clock()
	}
	if r.Msg == nil && len(r.Msgs) == 0 {
		// a timer that only started a request draws nothing; the connection's state is drawn
		m.dirty = m.dirty || r.Dropped > 0 || !sameConn(conn, m.feed.Conn())
		return common.Tea(r.Cmd)
	}
	m.dirty = true
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
	var applied []state.Msg // for the alerts
	if r.Msg != nil && m.store.Apply(r.Msg) {
		changed, applied = append(changed, r.Kind), append(applied, r.Msg)
	}
	for _, sm := range r.Msgs { // a stream's batch: each kind's panes are told once
		if !m.store.Apply(sm) {
			continue
		}
		if applied = append(applied, sm); !slices.Contains(changed, sm.Kind()) {
			changed = append(changed, sm.Kind())
		}
	}
	m.lat.Streamed(r.Msgs)
	cmds := []tea.Cmd{common.Tea(r.Cmd), m.resumeLine(r), m.checkAlerts(applied)}
	if slices.ContainsFunc(changed, func(k state.Kind) bool {
		return k == state.KindAccount || k == state.KindPositions || k == state.KindFills || k == state.KindOrders
	}) {
		cmds = append(cmds, m.readRisk()) // a loss limit reached shows with no order tried
	}
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

// quietMsg reports whether msg draws nothing by itself: the feed's messages (onFeed says when
// one changed what is drawn), the trading state's timer (it starts a read) and its read
// (onRiskMsg says when the words or the report changed).
func quietMsg(msg tea.Msg) bool {
	switch msg.(type) {
	case feed.Msg, risk.TickMsg, risk.Msg:
		return true
	}
	return false
}

// sameConn reports whether the status line would show two connection states alike.
func sameConn(a, b feed.Conn) bool {
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	return a.State == b.State && a.Fails == b.Fails && a.Latency == b.Latency && a.Stream == b.Stream &&
		a.HasStream == b.HasStream && errText(a.StreamErr) == errText(b.StreamErr) && a.Stalled == b.Stalled &&
		(a.StreamErr == nil) == (b.StreamErr == nil)
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

// The stream (issue #10): the exchange's WebSocket is one feed.Source beside the polls. Its records
// become the same state messages as polled ones (feed.StreamMessage), so no pane knows which transport
// fed it. While it is up the polls of its kinds only reconcile; while it is down they run at the
// design's cadence and the status line says why.

// FrameRate is how many frames a second the console draws at most: the rate main gives its
// on-demand renderer (ui/screen: a change is drawn at once, the changes within a frame after it
// together, nothing while nothing changed) and the stream's batch rate (at most one batch a frame,
// so no batch is drawn into a frame the terminal never shows).
const FrameRate = 30

// ReconcileEvery is the cadence of the account's polls while the stream is up: a slow pass that
// heals anything the stream missed (a new connection reconciles every kind at once; a book's
// sequence gap subscribes it again for a snapshot). With MarketReconcileEvery it keeps an idle streaming console under
// 0.2 requests a second (issue #34; at 30 s for every kind it was 0.46).
const ReconcileEvery = 2 * time.Minute

// MarketReconcileEvery is the cadence of the market data's polls while the stream is up: their
// topics send all the time, and the stream's heartbeat polls a kind whose topic went silent
// within seconds (feed.Source.MarketReconcile).
const MarketReconcileEvery = 5 * time.Minute

// streamingStaleAfter is how old a streamed kind's data may get before it counts as stale while the
// stream is up. Its records come only when something changes, so a quiet account is not stale data:
// the stream's heartbeat drops a dead connection within 40 s (polling then takes over at the
// design's cadence and window), and the reconcile poll confirms every kind each ReconcileEvery.
const streamingStaleAfter = 2*ReconcileEvery + 10*time.Second

// syncStaleWindows gives each kind the stream carries the stale window of its route: the
// streaming window while the stream is up, its own otherwise. It changes the store only when a
// kind's route changed.
func (m *Model) syncStaleWindows() {
	if m.stream == nil {
		return
	}
	for _, k := range feed.StreamKinds(m.ex.Address() != "") {
		up := m.feed.Streaming(k)
		if m.streamedKinds[k] == up {
			continue
		}
		if m.streamedKinds == nil {
			m.streamedKinds = map[state.Kind]bool{}
		}
		m.streamedKinds[k] = up
		window := state.DefaultStaleAfter(k)
		if up {
			window = max(window, streamingStaleAfter)
		}
		m.store.SetStaleAfter(k, window)
	}
}

// addStream plugs the stream into the feed.
func (m *Model) addStream(st *api.Stream) {
	m.stream = st
	var quiet []state.Kind
	if m.ex.Address() != "" {
		quiet = feed.AccountKinds()
	}
	msg := feed.StreamMessage(m.store)
	message := func(ev api.StreamEvent, at time.Time) state.Msg {
		m.algos.Put(ev) // the algorithms read the stream too (the runner is made after this)
		return msg(ev, at)
	}
	m.feed.AddSource(feed.Source{Inbox: st.Inbox(), Message: message, Kinds: feed.StreamKinds(m.ex.Address() != ""),
		Quiet: quiet, Reconcile: ReconcileEvery, MarketReconcile: MarketReconcileEvery, Frame: time.Second / FrameRate, Kind: feed.TopicKind, Drop: feed.UnknownInstrument(m.store),
		Resubscribe: st.Resubscribe, Topics: st.Topics})
}

// startStream subscribes what the console shows (every ticker and mid, the account's channels,
// the current instrument's book and trades) and waits for the first batch.
func (m *Model) startStream() tea.Cmd {
	if m.stream == nil {
		return nil
	}
	st, user := m.stream, m.ex.Address()
	topics := []api.Topic{{Channel: api.ChanTicker, Symbol: "all"}, {Channel: api.ChanMids, Symbol: "all"}}
	if user != "" {
		for _, ch := range []string{api.ChanOrders, api.ChanFills, api.ChanPositions, api.ChanAccount} {
			topics = append(topics, api.Topic{Channel: ch, User: user})
		}
	}
	return tea.Batch(common.Tea(feed.Subscribe(st, topics, nil)), m.followInstrument(), common.Tea(m.feed.StartSource()))
}

// followInstrument moves the subscriptions of what is shown (book, trades, bbo, the chart series)
// to the current instrument and the chart's series; it does nothing when neither changed.
func (m *Model) followInstrument() tea.Cmd {
	sym := m.c.Instrument()
	chart := m.shownChartKey()
	if m.stream == nil || (sym == m.streamSym && chart == m.streamChart) {
		return nil
	}
	m.streamSym, m.streamChart = sym, chart
	old := m.streamSubs
	m.streamSubs = nil
	topics := m.shownTopics(sym, chart)
	subs := make(chan *api.Subscription, len(topics))
	m.streamSubs = subs
	return common.Tea(feed.Subscribe(m.stream, topics, func() {
		for _, s := range feed.DrainSubs(old) {
			// A topic shown before and after (the book when only the chart's series moved) is
			// the same subscription: ending it would end the new one.
			if !slices.Contains(topics, s.Topic()) {
				s.Unsubscribe()
			}
		}
		close(subs)
	}, subs))
}

// shownChartKey is the series the chart shows, or nothing until its instrument is known. Its
// instrument is the one the chart is about to follow, not the one it last heard of: instruments
// applied before the chart is told of them would otherwise leave its series unsubscribed until
// the next key press.
func (m *Model) shownChartKey() state.ChartKey {
	chart := m.chart.ChartKey()
	chart.Symbol = m.chart.ShownInstrument()
	if _, ok := m.store.Instrument(chart.Symbol); !ok {
		return state.ChartKey{} // subscribed once the instruments are known
	}
	return chart
}

// shownTopics are the channels of what is on screen for one instrument: its book, trades and
// best bid and offer, and the chart series shown (once the chart's instrument is known).
func (m *Model) shownTopics(sym string, chart state.ChartKey) []api.Topic {
	var topics []api.Topic
	if sym != "" {
		topics = []api.Topic{{Channel: api.ChanOrderBook, Symbol: sym}, {Channel: api.ChanTrades, Symbol: sym},
			{Channel: api.ChanBBO, Symbol: sym}}
	}
	if in, ok := m.store.Instrument(chart.Symbol); ok && chart != (state.ChartKey{}) {
		topics = append(topics, api.Topic{Channel: api.ChanChart, InstrumentID: in.ID, ChartType: chart.ChartType,
			Resolution: chart.Resolution})
	}
	return topics
}

// fetchLineBook asks the feed's book task for the book a command-line order needs (the store keeps
// only the shown instrument's book live, and an order on another is previewed on its own book):
// one more request of the task, ordered with its polls and counted by its heartbeat. The line is
// checked again when the reply is in the store (resumeLine).
func (m *Model) fetchLineBook(need cmdline.NeedBookMsg) tea.Cmd {
	t := m.feed.Task(state.KindBook)
	if t == nil {
		return m.cmdline.Resume(need.Line, m.c.Instrument(), m.c.Guard)
	}
	m.lineBook = &need
	return common.Tea(t.Send(marketRequest(m.ex, state.KindBook, need.Symbol)))
}

// resumeLine checks the waiting command line again once the book it asked for came back (or the
// book task failed: the check then says what is missing).
func (m *Model) resumeLine(r feed.Result) tea.Cmd {
	need := m.lineBook
	if need == nil || r.Kind != state.KindBook {
		return nil
	}
	if b, ok := r.Msg.(state.BookMsg); ok && !strings.EqualFold(b.Book.Symbol, need.Symbol) {
		return nil // a poll of the shown instrument's book, not the line's
	}
	m.lineBook = nil
	return m.cmdline.Resume(need.Line, m.c.Instrument(), m.c.Guard)
}
