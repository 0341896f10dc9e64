package feed

import (
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
