package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/feed"
)

// chanSub is a subscription that ends when the test sends on errc.
type chanSub struct{ errc chan error }

func (s chanSub) Unsubscribe()      {}
func (s chanSub) Err() <-chan error { return s.errc }

// TestStreamTakesThePollsRoute: a stream added to the orders task (as the WebSocket's orders
// channel will be, issue #10) needs no route of its own: its records reach the store and the
// orders pane through the feed like the poll's lists. The status line says streaming while it is
// up; when it drops, the poll takes over at once (and, sent after the streamed order, its answer
// is the truth: the simulator has no such order).
func TestStreamTakesThePollsRoute(t *testing.T) {
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	recs, sub := make(chan feed.Record), chanSub{errc: make(chan error, 1)}
	task := c.m.feed.Task(state.KindOrders)
	task.AddStream(feed.Stream{
		Subscribe: func(ctx context.Context, out chan<- feed.Record) (feed.Subscription, error) {
			go func() {
				for {
					select {
					case r := <-recs:
						out <- r
					case <-ctx.Done():
						return
					}
				}
			}()
			return sub, nil
		},
		Message: func(r feed.Record, at time.Time) state.Msg {
			return state.OrderUpdateMsg{Seq: r.Seq, At: at, Record: r.Data.(api.OrderRecord)}
		},
		Reconcile: time.Minute,
	})
	dr := newDriver(t, c.m, c.timers)
	dr.run(task.StartStream())
	if !dr.until(20*time.Second, func() bool { return task.StreamUp() && !task.Busy() }) {
		t.Fatal("the stream did not come up")
	}
	if top := strings.SplitN(c.m.View(), "\n", 2)[0]; !strings.Contains(top, "● streaming") {
		t.Errorf("the status line does not say streaming: %q", top)
	}
	recs <- feed.Record{Seq: 1, Data: api.OrderRecord{OrderID: 4242, Instrument: "BTC-PERP", InstrumentID: 1,
		Side: api.SideBuy, LimitPrice: d("90000"), Size: d("0.01"), Unfilled: d("0.01"), State: api.StateOpen,
		Tif: api.TifGTC, Timestamp: api.Time{Time: simStart}}}
	if !dr.until(20*time.Second, func() bool { return strings.Contains(c.m.View(), "Open orders (1)") }) {
		t.Fatalf("the streamed order did not reach the orders pane: %d orders in the store", len(c.m.store.Orders()))
	}
	sub.errc <- errors.New("connection reset")
	if !dr.until(20*time.Second, func() bool { return !task.StreamUp() && len(c.m.store.Orders()) == 0 && !task.Busy() }) {
		t.Fatalf("the poll did not take over: stream up %v, %d orders", task.StreamUp(), len(c.m.store.Orders()))
	}
	if top := strings.SplitN(c.m.View(), "\n", 2)[0]; !strings.Contains(top, "● connected") {
		t.Errorf("the status line does not say polling again: %q", top)
	}
}
