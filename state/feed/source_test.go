package feed

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
)

// asyncRunner runs commands in goroutines, as tea.Program does, and queues their messages: a
// source's wait blocks until the stream brings something.
type asyncRunner struct{ msgs chan Message }

func (r *asyncRunner) run(cmd Cmd) {
	if cmd == nil {
		return
	}
	go func() {
		msg := cmd()
		if b, ok := msg.(BatchMsg); ok {
			for _, c := range b {
				r.run(c)
			}
			return
		}
		if msg != nil {
			r.msgs <- msg
		}
	}()
}

// apply hands msg to f, applies what it returns to st and runs its command, as the console does.
func (r *asyncRunner) apply(f *Feed, st *state.Store, msg Message) {
	res := f.Update(msg.(Msg))
	if res.Msg != nil {
		st.Apply(res.Msg)
	}
	for _, m := range res.Msgs {
		st.Apply(m)
	}
	r.run(res.Cmd)
}

// until applies the queued messages (apply) until cond holds; after limit it fails with what and
// why's account of the feed (limit only stops a hang).
func (r *asyncRunner) until(t *testing.T, f *Feed, st *state.Store, limit time.Duration, what string, cond func() bool, why func() string) {
	t.Helper()
	deadline := time.After(limit)
	for !cond() {
		select {
		case msg := <-r.msgs:
			r.apply(f, st, msg)
		case <-deadline:
			t.Fatalf("waited %s for %s (%s)", limit, what, why())
		}
	}
}

// TestSourceBesidePolls: against the simulator's stream over loopback, the source's batches
// become the kind's upserts in the store; while the stream is up the orders poll reconciles once
// and then waits the reconcile cadence; when the stream dies the poll runs at once and at its own
// cadence, and Conn says why.
func TestSourceBesidePolls(t *testing.T) {
	s := sim.New(sim.WithSeed(3), sim.WithQuietMarkets())
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	signer, _ := api.SignerFromHex(strings.Repeat("17", 32))
	if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	client := api.New(srv.URL, api.WithSigner(signer), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	u, _ := api.StreamURL(srv.URL)
	stream := api.NewStream(u, api.WithStreamBackoff(50*time.Millisecond, 200*time.Millisecond))
	t.Cleanup(stream.Close)
	if _, err := stream.Subscribe(context.Background(), api.Topic{Channel: api.ChanOrders, User: signer.Address()}); err != nil {
		t.Fatal(err)
	}

	clock := NewFakeClock(t0)
	f := New(clock, 5*time.Second, time.Minute)
	st := state.New(clock.Now)
	var pollCount atomic.Int64
	polls := func() int64 { return pollCount.Load() }
	task := f.Add(Spec{Kind: state.KindOrders, Every: func() time.Duration { return 2 * time.Second },
		Request: func() Request {
			return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
				pollCount.Add(1)
				p, err := client.OpenOrders(ctx, "", api.PageParams{})
				return state.OrdersMsg{Gen: gen, At: at, Orders: p.Data}, err
			}
		}})
	f.AddSource(Source{Inbox: stream.Inbox(), Kinds: []state.Kind{state.KindOrders}, Reconcile: 30 * time.Second,
		Message: func(ev api.StreamEvent, at time.Time) state.Msg {
			if o, ok := ev.Data.(*api.OrderRecord); ok {
				return state.OrderUpdateMsg{At: at, Record: *o}
			}
			return nil
		}})
	r := &asyncRunner{msgs: make(chan Message, 64)}
	r.run(task.Start())
	r.run(f.StartSource())
	handle := func(msg Message) { r.apply(f, st, msg) }
	// advance steps the feed's clock; the polls it starts answer later, through until.
	advance := func(d time.Duration) {
		for _, msg := range clock.Advance(d) {
			handle(msg)
		}
	}
	until := func(what string, cond func() bool) {
		t.Helper()
		r.until(t, f, st, 10*time.Second, what, cond, func() string { return fmt.Sprintf("conn %+v", f.Conn()) })
	}
	until("the stream up and its reconciling poll answered", func() bool { return f.Conn().Stream && polls() >= 2 && !task.Busy() })
	before := polls()
	advance(29 * time.Second)
	if polls() != before || task.Busy() {
		t.Fatalf("while the stream is up the poll waits 30 s: %d polls in 29 s", polls()-before)
	}
	advance(time.Second)
	until("the reconciling poll after 30 s", func() bool { return polls() == before+1 && !task.Busy() })
	before = polls()
	_, err := client.PlaceOrders(context.Background(), []api.OrderWire{{InstrumentID: 1, Side: api.SideBuy,
		PositionSide: api.PositionSideBoth, Price: "90000", Size: "0.01", Tif: api.TifGTC, Cloid: "feed-source-1"}})
	if err != nil {
		t.Fatal(err)
	}
	until("the streamed order in the store", func() bool { return len(st.Orders()) == 1 })
	if polls() != before {
		t.Fatal("the order came by the stream, not a poll")
	}

	s.RefuseStreams(true)
	until("the poll taking over", func() bool { return !f.Conn().Stream && f.Conn().StreamErr != nil && polls() > before && !task.Busy() })
	before = polls()
	advance(2 * time.Second)
	until("the poll at its own cadence", func() bool { return polls() == before+1 && !task.Busy() })
	s.RefuseStreams(false)
	until("the stream back", func() bool { return f.Conn().Stream })
}

// TestSourceSaysWhichRowsItLeftOut: a streamed notification with one bad row of three (a word
// where the mark price goes) gives the batch's two good records as upserts, and the Result says one
// row of the tickers was left out and why, as a poll's Result does. Guards: the drop not reported
// (Dropped 0) or reported under another kind.
func TestSourceSaysWhichRowsItLeftOut(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		_, b, err := c.Read(r.Context())
		if err != nil {
			return
		}
		_, rest, _ := strings.Cut(string(b), `"id":"`)
		id, _, _ := strings.Cut(rest, `"`)
		for _, f := range []string{
			`{"jsonrpc":"2.0","id":"` + id + `","result":{"status":"subscribed","channels":["t"]}}`,
			`{"jsonrpc":"2.0","method":"subscription","params":{"channel":"t","data":[{"symbol":"BTC-PERP","mark_price":"97000"},` +
				`{"symbol":"ETH-PERP","mark_price":"lots"},{"symbol":"SOL-PERP","mark_price":"150"}]}}`,
		} {
			if c.Write(r.Context(), websocket.MessageText, []byte(f)) != nil {
				return
			}
		}
		_, _, _ = c.Read(r.Context())
	}))
	t.Cleanup(srv.Close)
	u, _ := api.StreamURL(srv.URL)
	stream := api.NewStream(u)
	t.Cleanup(stream.Close)
	if _, err := stream.Subscribe(context.Background(), api.Topic{Channel: api.ChanTicker, Symbol: "all"}); err != nil {
		t.Fatal(err)
	}
	f := New(NewFakeClock(t0), 5*time.Second, time.Minute)
	f.AddSource(Source{Inbox: stream.Inbox(), Kinds: []state.Kind{state.KindTickers},
		Kind: func(api.Topic) state.Kind { return state.KindTickers },
		Message: func(ev api.StreamEvent, at time.Time) state.Msg {
			return state.TickerUpdateMsg{At: at, Ticker: *ev.Data.(*api.Ticker)}
		}})
	r := &asyncRunner{msgs: make(chan Message, 64)}
	r.run(f.StartSource())
	var syms []string
	var res Result
	deadline := time.After(10 * time.Second)
	for res.Dropped == 0 {
		select {
		case msg := <-r.msgs:
			res = f.Update(msg.(Msg))
			for _, m := range res.Msgs {
				syms = append(syms, m.(state.TickerUpdateMsg).Ticker.Symbol)
			}
			r.run(res.Cmd)
		case <-deadline:
			t.Fatalf("no batch reported the bad row (records %v)", syms)
		}
	}
	if res.Dropped != 1 || res.Kind != state.KindTickers || !strings.Contains(res.DropReason, "row 1") {
		t.Fatalf("Result says %d dropped of %v (%q): want 1 of the tickers, row 1", res.Dropped, res.Kind, res.DropReason)
	}
	if strings.Join(syms, " ") != "BTC-PERP SOL-PERP" {
		t.Fatalf("records %v: want the two good rows", syms)
	}
}

// TestABatchIsTakenWithNoTimerWhileThePaceAllows (issue #34): against the simulator's stream, the
// first record of a batch is taken with what is queued with it at once, with no sleep (a 1 ms
// sleep to gather the rest of the burst was a timer wake a batch of the idle stream); a batch
// the pace does not allow (a fourth within the frame, here an hour) still waits for it.
func TestABatchIsTakenWithNoTimerWhileThePaceAllows(t *testing.T) {
	s := sim.New(sim.WithSeed(3), sim.WithQuietMarkets())
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	signer, _ := api.SignerFromHex(strings.Repeat("17", 32))
	if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	client := api.New(srv.URL, api.WithSigner(signer), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	u, _ := api.StreamURL(srv.URL)
	stream := api.NewStream(u)
	t.Cleanup(stream.Close)
	if _, err := stream.Subscribe(context.Background(), api.Topic{Channel: api.ChanOrders, User: signer.Address()}); err != nil {
		t.Fatal(err)
	}
	f := New(NewFakeClock(t0), 5*time.Second, time.Minute)
	f.AddSource(Source{Inbox: stream.Inbox(), Kinds: []state.Kind{state.KindOrders}, Frame: time.Hour,
		Message: func(api.StreamEvent, time.Time) state.Msg { return nil }})
	var slept []time.Duration
	f.src.sleep = func(d time.Duration) { slept = append(slept, d) }
	batch := func(cmd Cmd) {
		t.Helper()
		msg, ok := cmd().(sourceMsg)
		if !ok {
			t.Fatalf("the source's wait brought %T", msg)
		}
		f.Update(msg)
	}
	place := func() {
		t.Helper()
		if _, err := client.PlaceOrders(context.Background(), []api.OrderWire{{InstrumentID: 1, Side: api.SideBuy,
			PositionSide: api.PositionSideBoth, Price: "90000", Size: "0.01", Tif: api.TifGTC, Cloid: state.NewCloid()}}); err != nil {
			t.Fatal(err)
		}
	}
	batch(f.StartSource()) // the connection's up
	for range 2 {
		place()
		batch(f.src.wait()) // the order's records
	}
	if len(slept) != 0 {
		t.Fatalf("three batches the pace allows slept %v, want no sleep", slept)
	}
	place()
	batch(f.src.wait())
	if len(slept) != 1 || slept[0] < 59*time.Minute {
		t.Fatalf("a fourth batch within the frame slept %v, want the rest of the hour's frame", slept)
	}
}
