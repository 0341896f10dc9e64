package ui

import (
	"context"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/feed"
)

// The stream (issue #10): the exchange's WebSocket is one feed.Source beside the polls. Its records
// become the same state messages as polled ones (streamMessage), so no pane knows which transport
// fed it. While it is up the polls of its kinds only reconcile; while it is down they run at the
// design's cadence and the status line says why.

// FrameRate is how many frames a second the console draws at most: the terminal renderer's rate
// (main passes it to tea.WithFPS) and the stream's batch rate (at most one batch a frame, so no
// batch is drawn into a frame the terminal never shows). Bubble Tea's renderer wakes once a frame
// whether or not anything changed; at its default 60 those wake-ups alone were about 0.8 % of a
// core of the idle console's 1.5 % (measured, README "Streaming"). At 30 a frame adds 17 ms on
// average, at most 33 ms, to an event's way to the screen.
const FrameRate = 30

// ReconcileEvery is the polls' cadence while the stream is up: a slow pass that heals anything
// the stream missed.
const ReconcileEvery = 30 * time.Second

// streamingStaleAfter is how old a streamed kind's data may get before it counts as stale while the
// stream is up. Its records come only when something changes, so a quiet account is not stale data:
// the stream's heartbeat drops a dead connection within 40 s (polling then takes over at the
// design's cadence and window), and the reconcile poll confirms every kind each ReconcileEvery.
const streamingStaleAfter = 2*ReconcileEvery + 10*time.Second

// streamKinds are the kinds the stream carries: market data always, the account's when there is
// one.
func streamKinds(hasAccount bool) []state.Kind {
	ks := []state.Kind{state.KindTickers, state.KindMids, state.KindBook, state.KindTrades}
	if hasAccount {
		ks = append(ks, state.KindAccount, state.KindPositions, state.KindOrders, state.KindFills)
	}
	return ks
}

// syncStaleWindows gives each kind the stream carries the stale window of its route: the
// streaming window while the stream is up, its own otherwise. It changes the store only when a
// kind's route changed.
func (m *Model) syncStaleWindows() {
	if m.stream == nil {
		return
	}
	for _, k := range streamKinds(m.ex.Address() != "") {
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
	m.feed.AddSource(feed.Source{Inbox: st.Inbox(), Message: m.streamMessage, Kinds: streamKinds(m.ex.Address() != ""),
		Reconcile: ReconcileEvery, Frame: time.Second / FrameRate, Kind: topicKind})
}

// topicKind is the kind of a stream topic's records.
func topicKind(t api.Topic) state.Kind {
	switch t.Channel {
	case api.ChanTicker, api.ChanBBO:
		return state.KindTickers
	case api.ChanMids:
		return state.KindMids
	case api.ChanOrderBook:
		return state.KindBook
	case api.ChanTrades:
		return state.KindTrades
	case api.ChanChart:
		return state.KindChart
	case api.ChanOrders:
		return state.KindOrders
	case api.ChanFills:
		return state.KindFills
	case api.ChanPositions:
		return state.KindPositions
	}
	return state.KindAccount
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
	return tea.Batch(subscribeCmd(st, topics, nil), m.followInstrument(), m.feed.StartSource())
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
	return subscribeCmd(m.stream, topics, func() {
		for _, s := range drainSubs(old) {
			// A topic shown before and after (the book when only the chart's series moved) is
			// the same subscription: ending it would end the new one.
			if !slices.Contains(topics, s.Topic()) {
				s.Unsubscribe()
			}
		}
		close(subs)
	}, subs)
}

// shownChartKey is the series the chart shows, or nothing until its instrument is known. Its
// instrument is the one the chart is about to follow, not the one it last heard of: instruments
// applied before the chart is told of them would otherwise leave its series unsubscribed until
// the next key press.
func (m *Model) shownChartKey() state.ChartKey {
	chart := m.chart.chartKey()
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

// subscribeCmd subscribes topics in the background (a refusal shows as the stream's status) and
// hands each subscription to keep; then runs done.
func subscribeCmd(st *api.Stream, topics []api.Topic, done func(), keep ...chan *api.Subscription) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for _, t := range topics {
			if s, err := st.Subscribe(ctx, t); err == nil && len(keep) > 0 {
				keep[0] <- s
			}
		}
		if done != nil {
			done()
		}
		return nil
	}
}

// drainSubs takes the subscriptions a channel holds (nil: none).
func drainSubs(ch chan *api.Subscription) []*api.Subscription {
	var out []*api.Subscription
	if ch == nil {
		return nil
	}
	for s := range ch {
		out = append(out, s)
	}
	return out
}

// streamMessage turns one streamed record into its kind's upsert (the same messages a poll's
// records would make: the store orders the two by the local clock).
func (m *Model) streamMessage(ev api.StreamEvent, at time.Time) state.Msg {
	switch d := ev.Data.(type) {
	case *api.BBO:
		return state.BBOUpdateMsg{At: at, BBO: *d}
	case *api.Candle:
		in, ok := m.store.InstrumentByID(ev.Topic.InstrumentID)
		if !ok {
			return nil
		}
		key := state.ChartKey{Symbol: in.Name, ChartType: ev.Topic.ChartType, Resolution: ev.Topic.Resolution}
		return state.CandleUpdateMsg{At: at, Key: key, Candle: *d}
	case *api.Ticker:
		return state.TickerUpdateMsg{At: at, Ticker: *d}
	case []api.Mid:
		return state.MidsUpdateMsg{At: at, Mids: d}
	case *api.AccountSummary:
		return state.AccountUpdateMsg{At: at, Summary: *d}
	case []api.Position:
		return state.PositionsUpdateMsg{At: at, Positions: d}
	case *api.OrderRecord:
		return state.OrderUpdateMsg{At: at, Record: *d}
	case *api.Fill:
		return state.FillMsg{At: at, Fill: *d}
	case *api.BookUpdate:
		return state.BookUpdateMsg{At: at, Symbol: d.Instrument, Snapshot: d.Snapshot, Seq: d.Sequence, Time: d.Time.Time,
			Bids: d.Bids, Asks: d.Asks}
	case *api.Trade:
		return state.TradeMsg{At: at, Symbol: d.Instrument, Trade: *d}
	}
	return nil
}
