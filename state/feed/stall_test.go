package feed

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// stallRig is a feed on a FakeClock streaming from a hostileWS: the tickers' poll counts its
// requests; the account's orders are subscribed and never sent.
type stallRig struct {
	t      *testing.T
	ws     *hostileWS
	stream *api.Stream
	clock  *FakeClock
	f      *Feed
	st     *state.Store
	r      *asyncRunner
	polls  atomic.Int64
}

func newStallRig(t *testing.T) *stallRig {
	g := &stallRig{t: t, ws: newHostileWS(t), clock: NewFakeClock(t0)}
	// Pings every 20 ms, answered: the connection is alive throughout.
	g.stream = api.NewStream(g.ws.url, api.WithStreamBackoff(time.Hour, time.Hour), api.WithStreamPing(20*time.Millisecond, 5*time.Second))
	t.Cleanup(g.stream.Close)
	g.st = state.New(g.clock.Now)
	g.f = New(g.clock, 5*time.Second, time.Minute)
	tickers := g.f.Add(Spec{Kind: state.KindTickers, Every: func() time.Duration { return time.Second },
		Request: func() Request {
			return func(_ context.Context, gen uint64, at time.Time) (state.Msg, error) {
				g.polls.Add(1)
				return state.TickersMsg{Gen: gen, At: at}, nil
			}
		}})
	g.f.AddSource(Source{Inbox: g.stream.Inbox(), Kinds: []state.Kind{state.KindTickers, state.KindOrders}, Reconcile: 30 * time.Second,
		Message: StreamMessage(g.st), Kind: TopicKind, Resubscribe: g.stream.Resubscribe, Topics: g.stream.Topics})
	for _, tp := range []api.Topic{{Channel: api.ChanTicker, Symbol: "all"}, {Channel: api.ChanOrders, User: "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"}} {
		if _, err := g.stream.Subscribe(context.Background(), tp); err != nil {
			t.Fatal(err)
		}
	}
	g.ws.subscribed(t, 2)
	g.r = &asyncRunner{msgs: make(chan Message, 64)}
	g.r.run(tickers.Start())
	g.r.run(g.f.StartSource())
	return g
}

func (g *stallRig) handle(msg Message) {
	res := g.f.Update(msg.(Msg))
	for _, m := range res.Msgs {
		g.st.Apply(m)
	}
	g.r.run(res.Cmd)
}

// until handles the feed's messages until cond holds (loopback I/O: 10 s is a bound, not a measure).
func (g *stallRig) until(what string, cond func() bool) {
	g.t.Helper()
	deadline := time.After(10 * time.Second)
	for !cond() {
		select {
		case msg := <-g.r.msgs:
			g.handle(msg)
		case <-deadline:
			g.t.Fatalf("waited 10s for %s (conn %+v)", what, g.f.Conn())
		}
	}
}

// tick has the server send a ticker at mark and waits until the store holds it.
func (g *stallRig) tick(mark int) {
	g.t.Helper()
	g.ws.send(notify("ticker:all", fmt.Sprintf(`{"symbol":"BTC-PERP","mark_price":%d}`, mark)))
	g.until(fmt.Sprint("the ticker at ", mark), func() bool {
		tk, _ := g.st.Ticker("BTC-PERP")
		return tk.MarkPrice.Equal(decimal.NewFromInt(int64(mark)))
	})
}

// advance steps the feed's clock, handing it the timers that came due.
func (g *stallRig) advance(d time.Duration) {
	for _, msg := range g.clock.Advance(d) {
		g.handle(msg)
	}
}

// TestAStallBehindLivePingsIsSaid: against a server that streams a ticker every second, then stops
// sending data while it goes on answering pings, the feed notices within five of the ticker's
// intervals: it says "ticker stream silent 5s", polls the tickers now and then at their own
// cadence (1 s, not the 30 s reconciliation), and subscribes the ticker channel again; the
// account's orders, silent all along, are still streamed. When tickers flow again the stall
// ends. Guards prices frozen behind a status line that says "stream".
func TestAStallBehindLivePingsIsSaid(t *testing.T) {
	g := newStallRig(t)
	g.until("the stream up", func() bool { return g.f.Conn().Stream })
	for i := 1; i <= 5; i++ {
		g.tick(97000 + i)
		g.advance(time.Second)
	}
	g.until("no tickers poll out", func() bool { return !g.f.Task(state.KindTickers).Busy() })
	before := g.polls.Load()
	g.advance(3 * time.Second) // 4 s of silence
	if c := g.f.Conn(); c.Stalled != "" || !g.f.Streaming(state.KindTickers) || g.polls.Load() != before {
		t.Fatalf("stalled after 4 s of a 1 s stream's silence: %+v, %d polls", c, g.polls.Load()-before)
	}
	g.advance(time.Second)
	c := g.f.Conn()
	if c.Stalled != "ticker stream silent 5s" || !c.Stream || c.StreamErr != nil {
		t.Fatalf("after 5 s of silence, conn %+v: want the ticker stream silent 5s, the connection up", c)
	}
	if g.f.Streaming(state.KindTickers) || !g.f.Streaming(state.KindOrders) {
		t.Fatal("the tickers must be polled, the quiet orders still streamed")
	}
	g.ws.subscribed(t, 1) // the ticker channel, subscribed again
	g.until("the tickers polled at once", func() bool { return g.polls.Load() == before+1 && !g.f.Task(state.KindTickers).Busy() })
	g.advance(time.Second)
	g.until("the tickers polled at their own cadence", func() bool { return g.polls.Load() == before+2 })
	if c := g.f.Conn(); c.Stalled != "ticker stream silent 6s" {
		t.Fatalf("the status says %q: want the silence counted on", c.Stalled)
	}
	g.tick(98001) // one batch could be only the new subscription's answer
	if g.f.Conn().Stalled == "" {
		t.Fatal("one batch ended the stall")
	}
	g.advance(time.Second)
	g.tick(98002)
	if c := g.f.Conn(); c.Stalled != "" || !g.f.Streaming(state.KindTickers) {
		t.Fatalf("tickers flow again, conn %+v", c)
	}
}

// TestAQuietAccountIsNotAStall: a stream whose only traffic is the account's orders, now and then,
// and a ticker topic that never sent a record, stays "stream" however long: no topic is judged
// before its usual interval is known, and the account's channels never are.
func TestAQuietAccountIsNotAStall(t *testing.T) {
	g := newStallRig(t)
	g.until("the stream up", func() bool { return g.f.Conn().Stream })
	order := func(id int) {
		g.ws.send(notify("orders:", fmt.Sprintf(`{"order_id":%d,"instrument":"BTC-PERP","limit_price":"1","size":"1","state":"open"}`, id)))
		g.until("the order", func() bool { return len(g.st.Orders()) == id })
	}
	for i := 1; i <= 5; i++ {
		order(i)
		g.advance(time.Second)
	}
	g.advance(10 * time.Minute)
	if c := g.f.Conn(); c.Stalled != "" || !g.f.Streaming(state.KindTickers) || !g.f.Streaming(state.KindOrders) {
		t.Fatalf("a quiet account and a ticker never heard: %+v", c)
	}
	if s := strings.Join(topicKeys(g.stream.Topics()), " "); s != "orders:0x2c7536e3605d9c16a7a3d7b1898e529396a65c23 ticker:all" {
		t.Fatalf("topics %s", s)
	}
}

func topicKeys(ts []api.Topic) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return out
}
