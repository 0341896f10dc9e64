package feed

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
)

// TestATopicSubscribedAfterTheUpReconcilesItsKind (issue #33): a stream that came up before the
// account's fills were subscribed (the console's stream dials as it is made; on a loaded machine
// its Up comes before the console subscribes) reconciled the fills then; a fill made before the
// subscription is streamed to no one. Subscribing the topic on the live connection polls the
// fills once, so the fill shows without waiting for the next reconcile. Guards: the fill missing
// until the reconcile cadence (the fake clock here never gets there).
func TestATopicSubscribedAfterTheUpReconcilesItsKind(t *testing.T) {
	s := sim.New(sim.WithSeed(7), sim.WithQuietMarkets())
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	me, _ := api.SignerFromHex(strings.Repeat("17", 32))
	other, _ := api.SignerFromHex(strings.Repeat("42", 32))
	for _, a := range []string{me.Address(), other.Address()} {
		if err := s.Fund(a, sim.DefaultDemoBalance); err != nil {
			t.Fatal(err)
		}
	}
	client := api.New(srv.URL, api.WithSigner(me), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	counter := api.New(srv.URL, api.WithSigner(other), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	u, _ := api.StreamURL(srv.URL)
	stream := api.NewStream(u, api.WithStreamBackoff(50*time.Millisecond, 200*time.Millisecond))
	t.Cleanup(stream.Close)

	clock := NewFakeClock(t0)
	f := New(clock, 5*time.Second, time.Minute)
	st := state.New(clock.Now)
	var polls atomic.Int64
	task := f.Add(Spec{Kind: state.KindFills, Every: func() time.Duration { return 2 * time.Second },
		Request: func() Request {
			return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
				polls.Add(1)
				p, err := client.Fills(ctx, "", api.PageParams{Page: 1})
				return state.FillsMsg{Gen: gen, At: at, Page: p}, err
			}
		}})
	f.AddSource(Source{Inbox: stream.Inbox(), Kinds: []state.Kind{state.KindFills}, Quiet: []state.Kind{state.KindFills},
		Reconcile: 30 * time.Second, Message: func(ev api.StreamEvent, at time.Time) state.Msg {
			if fl, ok := ev.Data.(*api.Fill); ok {
				return state.FillMsg{At: at, Fill: *fl}
			}
			return nil
		}})
	r := &asyncRunner{msgs: make(chan Message, 64)}
	until := func(what string, cond func() bool) {
		t.Helper()
		r.until(t, f, st, 20*time.Second, what, cond, func() string {
			return fmt.Sprintf("conn %+v, %d polls, %d fills", f.Conn(), polls.Load(), len(st.Fills()))
		})
	}
	r.run(task.Start())
	r.run(f.StartSource())
	until("the stream up with no topic and its reconciling poll answered", func() bool {
		return f.Conn().Stream && polls.Load() >= 2 && !task.Busy()
	})
	for _, o := range []struct {
		by   *api.Client
		side string
	}{{counter, api.SideSell}, {client, api.SideBuy}} {
		if _, err := o.by.PlaceOrders(context.Background(), []api.OrderWire{{InstrumentID: 1, Side: o.side,
			PositionSide: api.PositionSideBoth, Price: "97250", Size: "0.01", Tif: api.TifGTC, Cloid: "feed-sub-" + o.side}}); err != nil {
			t.Fatal(err)
		}
	}
	before := polls.Load()
	r.run(Subscribe(stream, []api.Topic{{Channel: api.ChanFills, User: me.Address()}}, nil))
	until("the fill made before the subscription", func() bool { return len(st.Fills()) == 1 })
	if n := polls.Load() - before; n != 1 {
		t.Errorf("the late subscription polled the fills %d times, want once", n)
	}
}
