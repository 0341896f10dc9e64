package feed

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// TestAFollowingTaskReconcilesWhileItsKindsStream: a task that follows the orders stream (the
// order history) waits the reconcile cadence while the stream carries orders, and its own cadence
// when the stream is down, stalled for it, or does not carry orders; a task that follows nothing
// keeps its own cadence (issue #34: an idle streaming console polled the order history every 5 s).
func TestAFollowingTaskReconcilesWhileItsKindsStream(t *testing.T) {
	f := New(NewFakeClock(t0), 5*time.Second, time.Minute)
	f.AddSource(Source{Inbox: api.NewInbox(0), Kinds: []state.Kind{state.KindOrders, state.KindAccount}, Reconcile: 30 * time.Second})
	every := func() time.Duration { return 5 * time.Second }
	history := f.Add(Spec{Kind: state.KindHistory, Every: every}).Follow(state.KindOrders)
	transfers := f.Add(Spec{Kind: state.KindTransfers, Every: every}).Follow(state.KindAccount, state.KindFills)
	plain := f.Add(Spec{Kind: state.KindFunding, Every: every})
	if got := history.Cadence(); got != 5*time.Second {
		t.Fatalf("stream down: history every %s, want its own 5s", got)
	}
	f.src.up = true
	if got := history.Cadence(); got != 30*time.Second {
		t.Fatalf("orders streaming: history every %s, want the reconcile 30s", got)
	}
	if got := transfers.Cadence(); got != 5*time.Second {
		t.Fatalf("fills not streamed: transfers every %s, want its own 5s", got)
	}
	if got := plain.Cadence(); got != 5*time.Second {
		t.Fatalf("a task that follows nothing: every %s, want its own 5s", got)
	}
	f.src.up = false
	if got := history.Cadence(); got != 5*time.Second {
		t.Fatalf("stream down again: history every %s, want its own 5s", got)
	}
}

// TestMarketDataReconcilesSlowerWhileWatched (issue #34): while the stream is up the market
// data's polls wait MarketReconcile (the heartbeat finds a silent topic within seconds and polls
// its kinds), the account's the Reconcile; a stalled market topic's kind polls at its own
// cadence, and so does every kind while the stream is down. An idle streaming console's reconcile
// pass of 13 kinds every 30 s was 0.43 requests a second.
func TestMarketDataReconcilesSlowerWhileWatched(t *testing.T) {
	f := New(NewFakeClock(t0), 5*time.Second, time.Minute)
	f.AddSource(Source{Inbox: api.NewInbox(0), Kinds: []state.Kind{state.KindTickers, state.KindOrders},
		Quiet: []state.Kind{state.KindOrders}, Reconcile: 30 * time.Second, MarketReconcile: 5 * time.Minute})
	every := func() time.Duration { return time.Second }
	tickers, orders := f.Add(Spec{Kind: state.KindTickers, Every: every}), f.Add(Spec{Kind: state.KindOrders, Every: every})
	f.src.up = true
	if got := tickers.Cadence(); got != 5*time.Minute {
		t.Errorf("streaming: tickers every %s, want the market reconcile 5m", got)
	}
	if got := orders.Cadence(); got != 30*time.Second {
		t.Errorf("streaming: orders every %s, want the reconcile 30s", got)
	}
	f.src.beats = map[api.Topic]*beat{{Channel: api.ChanTicker, Symbol: "all"}: {stalled: true}}
	if got := tickers.Cadence(); got != time.Second {
		t.Errorf("ticker topic stalled: tickers every %s, want their own 1s", got)
	}
	f.src.beats, f.src.up = nil, false
	if got := tickers.Cadence(); got != time.Second {
		t.Errorf("stream down: tickers every %s, want their own 1s", got)
	}
	g := New(NewFakeClock(t0), 5*time.Second, time.Minute)
	g.AddSource(Source{Inbox: api.NewInbox(0), Kinds: []state.Kind{state.KindTickers}, Reconcile: 30 * time.Second})
	g.src.up = true
	if got := g.Add(Spec{Kind: state.KindTickers, Every: every}).Cadence(); got != 5*time.Minute {
		t.Errorf("no MarketReconcile given: tickers every %s, want ten reconciles", got)
	}
}

// TestAFollowingTaskTakesItsNewCadenceWhenTheStreamTurns (issue #33): the order history answered
// before the stream came up has its next poll armed at its own 5 s; once the stream carries the
// orders it waits the reconcile from then (it polled once more at the 5 s: an order-history read
// with the stream up, which failed TestStreamedOrdersAndFillsPollNoLists on a loaded machine),
// and once the stream is down it polls at its own cadence again, not at the end of the reconcile.
func TestAFollowingTaskTakesItsNewCadenceWhenTheStreamTurns(t *testing.T) {
	clock := NewFakeClock(t0)
	f := New(clock, 5*time.Second, time.Minute)
	f.AddSource(Source{Inbox: api.NewInbox(0), Kinds: []state.Kind{state.KindOrders}, Reconcile: 30 * time.Second})
	polls := 0
	history := f.Add(Spec{Kind: state.KindHistory, Every: func() time.Duration { return 5 * time.Second },
		Request: func() Request {
			return func(context.Context, uint64, time.Time) (state.Msg, error) { polls++; return state.HistoryMsg{}, nil }
		}}).Follow(state.KindOrders)
	var run func(Cmd)
	run = func(cmd Cmd) { // the commands in turn, their messages into the feed (requests answer at once)
		if cmd == nil {
			return
		}
		switch msg := cmd().(type) {
		case BatchMsg:
			for _, c := range msg {
				run(c)
			}
		case Msg:
			run(f.Update(msg).Cmd)
		}
	}
	advance := func(d time.Duration) {
		for _, msg := range clock.Advance(d) {
			run(f.Update(msg.(Msg)).Cmd)
		}
	}
	run(history.Start())
	advance(time.Second)
	run(f.sourceStatus(api.StreamStatus{Up: true, Epoch: 1}))
	advance(30*time.Second - time.Millisecond)
	if polls != 1 {
		t.Fatalf("the stream up 1 s after the first poll: %d polls in the 30 s after, want none before the reconcile's 30 s", polls-1)
	}
	advance(time.Millisecond)
	if polls != 2 {
		t.Fatalf("30 s after the stream came up: %d polls, want the reconcile's", polls-1)
	}
	advance(time.Second)
	run(f.sourceStatus(api.StreamStatus{Err: errors.New("gone")}))
	advance(5 * time.Second)
	if polls != 3 {
		t.Fatalf("5 s after the stream went down: %d polls since the reconcile, want one at its own 5 s", polls-2)
	}
}
