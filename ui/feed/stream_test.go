package feed

import (
	"context"
	"errors"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// chanSub is a subscription the test ends by sending on errc.
type chanSub struct{ errc chan error }

func (s chanSub) Unsubscribe()      {}
func (s chanSub) Err() <-chan error { return s.errc }

// TestStreamBesidePoll: a stream plugs into the orders task beside its poll. Its records become
// upserts through Update, the same route as the poll's lists; a poll sent before a streamed update
// and answered after it does not undo it; while the stream is up the poll only reconciles; when it
// drops, the poll takes over at once and the stream subscribes again after a backoff.
func TestStreamBesidePoll(t *testing.T) {
	clock := NewFakeClock(t0)
	f := New(clock, time.Second, time.Minute)
	st := state.New(clock.Now)
	polled := []api.OrderRecord{{OrderID: 1, State: api.StateOpen, Unfilled: dec("1")}}
	task := f.Add(Spec{Kind: state.KindOrders, Every: func() time.Duration { return 2 * time.Second },
		Request: func() Request {
			return func(_ context.Context, gen uint64, at time.Time) (state.Msg, error) {
				return state.OrdersMsg{Gen: gen, At: at, Orders: polled}, nil
			}
		}})
	var out chan<- Record
	sub := chanSub{errc: make(chan error, 1)}
	subscribed := 0
	task.AddStream(Stream{
		Subscribe: func(_ context.Context, ch chan<- Record) (Subscription, error) {
			out = ch
			subscribed++
			return sub, nil
		},
		Message: func(r Record, at time.Time) state.Msg {
			return state.OrderUpdateMsg{Seq: r.Seq, At: at, Record: r.Data.(api.OrderRecord)}
		},
		Reconcile: time.Minute,
	})
	deliver(f, st, run(task.Start()))

	// A poll is sent; before its answer, the stream comes up and order 1 half fills.
	clock.Advance(time.Second)
	answer := run(task.Poll())                      // served now, from before the fill; delivered later
	r := f.Update(run(task.StartStream())[0].(Msg)) // subscribed: the wait is armed
	if !task.StreamUp() || !f.Conn().Stream {
		t.Fatal("the stream is up")
	}
	clock.Advance(time.Second)
	polled = []api.OrderRecord{{OrderID: 1, State: api.StateOpen, Unfilled: dec("0.5")}}
	out <- Record{Seq: 1, Data: polled[0]}
	var waiting tea.Cmd
	for _, msg := range run(r.Cmd) { // the record (the reconciling poll waits for the one out)
		rr := f.Update(msg.(Msg))
		if _, ok := rr.Msg.(state.OrderUpdateMsg); !ok {
			t.Fatalf("a record becomes the kind's upsert, got %T", rr.Msg)
		}
		st.Apply(rr.Msg)
		waiting = rr.Cmd
	}
	deliver(f, st, answer) // the poll sent before the update answers now, with the old list
	if o := st.Orders(); len(o) != 1 || !o[0].Unfilled.Equal(dec("0.5")) {
		t.Fatalf("a poll sent before the streamed update undid it: %+v", o)
	}
	if d, ok := clock.Next(); !ok || d < 50*time.Second {
		t.Fatalf("while the stream is up the poll only reconciles: next in %v", d)
	}

	// The stream drops: the poll runs at once and again at its own cadence; the stream comes back.
	sub.errc <- errors.New("connection reset")
	down := f.Update(waiting().(Msg))
	if task.StreamUp() || f.Conn().Stream {
		t.Fatal("the stream is down")
	}
	polled = nil
	deliver(f, st, run(down.Cmd))
	if len(st.Orders()) != 0 {
		t.Fatal("the poll took over at once")
	}
	if d, ok := clock.Next(); !ok || d > 2*time.Second {
		t.Fatalf("the poll is back at its own cadence: next in %v", d)
	}
	for range 10 {
		for _, msg := range clock.Advance(time.Second) {
			if sm, ok := msg.(streamMsg); ok {
				// Subscribe again; the subscription's wait for records is not run (none come).
				for _, up := range run(f.Update(sm).Cmd) {
					f.Update(up.(Msg))
				}
				continue
			}
			deliver(f, st, []tea.Msg{msg})
		}
	}
	if subscribed != 2 || !task.StreamUp() {
		t.Fatalf("the stream subscribed again after its backoff: %d subscriptions", subscribed)
	}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }
