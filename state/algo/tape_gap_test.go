package algo

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

// upAfterSend sends through the trader's client; after the first order's send, once the exchange
// has acted on it and before its answer is handed back, it brings the trader's stream up (every
// tape topic subscribed): a stream that came up while a child's answer was on the way.
type upAfterSend struct {
	exec.Sender
	once sync.Once
	up   func() error
	err  error
}

func (u *upAfterSend) PlaceOrders(ctx context.Context, orders []api.OrderWire) (api.TxResponse, error) {
	resp, err := u.Sender.PlaceOrders(ctx, orders)
	u.once.Do(func() { u.err = u.up() })
	return resp, err
}

// waiting reports whether a step waits on the tape for the stream to bring a record (await).
func (t *Tape) waiting() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.changed != nil
}

// TestAChildSentBeforeTheStreamCameUpIsNotAwaitedOnIt: a child sent while the stream was down,
// whose answer comes once the stream is up, is read from the exchange at once: its placement
// neither settles it nor looks it up by waiting on the tape. The exchange acted on it before the
// orders subscription, and that channel sends what changes after it, not the orders it already
// had: the stream never brings the child's record while it rests, and each wait ran out the
// tape's Wait (1 s each in a product, so a chase's first child, or a Ctrl+C on it, took 2 s
// longer: TestAStopWhileAChildsAnswerIsInFlightResolvesIt in 2.5 s, not 0.5 s). The tape's Wait
// is long here, so a wait is seen waiting, not timed.
func TestAChildSentBeforeTheStreamCameUpIsNotAwaitedOnIt(t *testing.T) {
	t.Parallel() // its own simulator, stream and journal
	r := newRig(t, true)
	must(t, r.sim.SetIndexPrice("BTC-PERP", dec("97000")))
	u, err := api.StreamURL(r.trader.BaseURL())
	must(t, err)
	var cur atomic.Pointer[api.Stream]
	tape := NewTape(func() api.StreamStatus {
		if st := cur.Load(); st != nil {
			return st.Status()
		}
		return api.StreamStatus{}
	})
	tape.Wait = 10 * time.Minute
	ctx, stop := context.WithCancel(bg)
	defer stop()
	send := &upAfterSend{Sender: r.trader, up: func() error {
		st := api.NewStream(u)
		t.Cleanup(st.Close)
		for _, tp := range Topics(r.trader.Address()) {
			if _, err := st.Subscribe(ctx, tp); err != nil {
				return err
			}
		}
		cur.Store(st)
		go tape.Follow(ctx, st)
		for deadline := time.Now().Add(time.Minute); !st.Status().Up; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				return errors.New("the stream not up a minute after it was opened")
			}
		}
		return nil
	}}
	r.send = send
	d := r.deps(nil)
	d.Tape = tape
	must(t, d.check())
	id, err := r.j.BeginAlgo(bg, journal.Algo{ID: "gap", Kind: "chase", Params: []byte(`{}`)})
	must(t, err)
	in := state.OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: state.Limit, Price: "90000", Size: "0.001", PostOnly: true}
	type placed struct {
		ch  *child
		err error
	}
	done := make(chan placed, 1)
	go func() {
		ch, err := d.place(bg, id, in, "child")
		done <- placed{ch, err}
	}()
	for {
		select {
		case p := <-done:
			if send.err != nil {
				t.Fatal(send.err)
			}
			if p.err != nil || p.ch == nil || p.ch.final || p.ch.oid == 0 || p.ch.state != api.StateOpen {
				t.Fatalf("the child: %+v %v", p.ch, p.err)
			}
			must(t, d.cancelChild(bg, id, 1, p.ch))
			return
		case <-time.After(5 * time.Millisecond):
		}
		if tape.waiting() && tape.Up() {
			t.Fatal("the child's placement waits on the stream for a record it never brings (sent before the stream came up)")
		}
	}
}
