package algo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state/journal"
)

// infoCounter counts the simulator's /info requests by method: those of the algorithm's own
// reads (its Deps.Read and Market), tagged by their client. The executor's reads (its settle of a
// placement's outcome, the one send path's for every order) are not the algorithm's polls.
type infoCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *infoCounter) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/info" && r.Header.Get(algoHeader) != "" {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			var req struct {
				Method string `json:"method"`
			}
			_ = json.Unmarshal(body, &req)
			c.mu.Lock()
			c.n[req.Method]++
			c.mu.Unlock()
		}
		h.ServeHTTP(w, r)
	})
}

const algoHeader = "X-Test-Algorithm"

// tagged adds the algorithm's header to every request.
type tagged struct{ http.RoundTripper }

func (t tagged) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(algoHeader, "1")
	return t.RoundTripper.RoundTrip(r)
}

// polls is how many reads of the book, the orders and the fills were counted since the last call.
func (c *infoCounter) polls() (map[string]int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out, sum := map[string]int{}, 0
	for _, m := range []string{api.MethodOrderBook, api.MethodOpenOrders, api.MethodOrderHistory, api.MethodFills} {
		out[m] = c.n[m]
		sum += c.n[m]
	}
	c.n = map[string]int{}
	return out, sum
}

// newTapeRig is newRig with the simulator's /info requests counted, and a tape fed by the
// trader's own stream.
func newTapeRig(t *testing.T) (*tapeRig, *infoCounter, *Tape) {
	t.Helper()
	s := sim.New(sim.WithSeed(7), sim.WithStep(50*time.Millisecond))
	count := &infoCounter{n: map[string]int{}}
	srv := httptest.NewServer(count.wrap(s))
	ctx, cancel := context.WithCancel(bg)
	go func() { _ = s.Run(ctx) }()
	t.Cleanup(func() { cancel(); srv.Close() })
	r := &rig{t: t, sim: s, trader: client(t, srv.URL, traderKey), taker: client(t, srv.URL, takerKey)}
	for _, c := range []*api.Client{r.trader, r.taker} {
		must(t, s.Fund(c.Address(), sim.DefaultDemoBalance))
	}
	signer, err := api.SignerFromHex(traderKey)
	must(t, err)
	reads := api.New(srv.URL, api.WithSigner(signer), api.WithHTTPClient(&http.Client{Transport: tagged{http.DefaultTransport}}))
	r.send, r.market = r.trader, &clientMarket{c: reads}
	r.path = journal.Path(t.TempDir(), "sim", r.trader.Address())
	r.reopen()
	u, err := api.StreamURL(srv.URL)
	must(t, err)
	st := api.NewStream(u)
	t.Cleanup(st.Close)
	for _, tp := range Topics(r.trader.Address()) {
		_, err := st.Subscribe(bg, tp)
		must(t, err)
	}
	tape := NewTape(st.Status)
	// A loaded machine may take a while to bring a record: the wait before a poll is generous
	// here, so that a poll counted is a route taken, not a slow stream.
	tape.Wait = 20 * time.Second
	go tape.Follow(ctx, st)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, _, ok := tape.quote("BTC-PERP"); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the stream brought no BTC-PERP ticker within a minute")
		}
	}
	return &tapeRig{rig: r, algoRead: reads, tape: tape}, count, tape
}

// tapeRig is a rig whose algorithm reads through a client of its own (algoRead), counted apart.
type tapeRig struct {
	*rig
	algoRead *api.Client
	tape     *Tape
}

// streamDown takes the trader's stream down for good (the simulator drops it and refuses it
// again) and waits until the tape sees it down: from then on no record reaches the tape, as
// when a real stream is lost. (Only saying it is down while records still come is not down: a
// final record is trusted whichever route brought it, so a child the market filled before its
// first lookup was read off the tape.)
func (r *tapeRig) streamDown(t *testing.T) {
	t.Helper()
	r.sim.RefuseStreams(true)
	for deadline := time.Now().Add(time.Minute); r.tape.Up(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the stream still up a minute after the simulator dropped it")
		}
	}
}

// runHitChase runs a buy chase of size on the rig's deps with tape, hit by the taker, to its end.
func runHitChase(t *testing.T, r *tapeRig, tape *Tape, id string, size decimal.Decimal) Progress {
	t.Helper()
	w := &working{}
	d := r.deps(w.report)
	d.Tape, d.Read = tape, r.algoRead
	c, err := NewChase(bg, d, id, ChaseParams{Instrument: "BTC-PERP", Side: "buy", Size: size, Aggressive: true})
	must(t, err)
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	go r.hitLoop(ctx, w, 3)
	p, err := c.Run(bounded(t))
	if err != nil || p.State != StateDone {
		t.Fatalf("chase: %+v %v", p, err)
	}
	return p
}

// TestAChaseOnTheStreamPollsNoBookOrdersOrFills: with the stream up, a chase hit by a taker until
// it fills reads its quote, its children's records and their fills from the stream: the
// simulator sees no book, open orders, order history or fills request from it; it still fills
// exactly its target, with what it reports filled the sum of its fills at the exchange.
func TestAChaseOnTheStreamPollsNoBookOrdersOrFills(t *testing.T) {
	t.Parallel() // its own simulator, stream, tape and request counts (newTapeRig)
	r, count, tape := newTapeRig(t)
	size := dec("0.004")
	count.polls()
	p := runHitChase(t, r, tape, "tape-up", size)
	polls, sum := count.polls()
	if sum != 0 {
		t.Fatalf("with the stream up the chase polled: %v", polls)
	}
	if !p.Filled.Equal(size) || !p.Filled.Equal(r.filledOf("tape-up-")) || p.Children < 1 {
		t.Fatalf("filled %s of %s, the exchange's fills %s", p.Filled, size, r.filledOf("tape-up-"))
	}
	t.Logf("%d children, %d reprices, no polls", p.Children, p.Reprices)
}

// TestAChaseWithTheStreamDownPolls: the same chase with the stream down reads the exchange (the
// fallback): its quote from the book, its children's records from the open orders or the order
// history, their fills from the fills; and it still fills exactly its target.
func TestAChaseWithTheStreamDownPolls(t *testing.T) {
	t.Parallel() // its own simulator, stream, tape and request counts (newTapeRig)
	r, count, tape := newTapeRig(t)
	r.streamDown(t)
	size := dec("0.004")
	count.polls()
	p := runHitChase(t, r, tape, "tape-down", size)
	polls, _ := count.polls()
	if polls[api.MethodOrderBook] == 0 || polls[api.MethodOpenOrders]+polls[api.MethodOrderHistory] == 0 || polls[api.MethodFills] == 0 {
		t.Fatalf("with the stream down the chase did not poll: %v", polls)
	}
	if !p.Filled.Equal(size) || !p.Filled.Equal(r.filledOf("tape-down-")) {
		t.Fatalf("filled %s of %s, the exchange's fills %s", p.Filled, size, r.filledOf("tape-down-"))
	}
}

// TestTheTapeNeverReopensAFinalOrder: a final record stays final whatever comes after it (a
// late open record, a read begun before it); an open one stands only while the stream that
// brought it is up (not while it is down, nor on a later connection).
func TestTheTapeNeverReopensAFinalOrder(t *testing.T) {
	var st atomic.Value
	st.Store(api.StreamStatus{Up: true, Epoch: 1})
	tape := NewTape(func() api.StreamStatus { return st.Load().(api.StreamStatus) })
	open := api.OrderRecord{Cloid: "c-1", State: api.StateOpen}
	tape.Put(api.StreamEvent{Data: &open})
	if rec, _, ok := tape.order("c-1"); !ok || rec.State != api.StateOpen {
		t.Fatalf("open record: %+v %v", rec, ok)
	}
	st.Store(api.StreamStatus{Epoch: 1}) // the stream down: what it said is open may have changed
	if _, _, ok := tape.order("c-1"); ok {
		t.Fatal("an open record stood for its order while the stream was down")
	}
	st.Store(api.StreamStatus{Up: true, Epoch: 1})
	_, v, _ := tape.order("c-1")
	done := api.OrderRecord{Cloid: "c-1", State: api.StateCancelled}
	tape.Put(api.StreamEvent{Data: &done})
	tape.learn(open, v) // a read begun before the cancel came
	tape.Put(api.StreamEvent{Data: &open})
	if rec, _, ok := tape.order("c-1"); !ok || rec.State != api.StateCancelled {
		t.Fatalf("after the cancel: %+v %v", rec, ok)
	}
	tape.Put(api.StreamEvent{Data: &api.OrderRecord{Cloid: "c-2", State: api.StateOpen}})
	st.Store(api.StreamStatus{Up: true, Epoch: 2})
	if _, _, ok := tape.order("c-2"); ok {
		t.Fatal("an open record of an earlier connection stood for its order")
	}
	if _, _, ok := tape.order("c-1"); !ok {
		t.Fatal("a final record was forgotten with its connection")
	}
}

// TestATapeFloodedByMadeUpRecordsStaysBounded: a stream making up instruments, orders and fills
// without end (a hostile server) fills the tape only up to its bounds; what it left out is read
// from the exchange (the tape does not have it), and what it holds still answers.
func TestATapeFloodedByMadeUpRecordsStaysBounded(t *testing.T) {
	tape := NewTape(func() api.StreamStatus { return api.StreamStatus{Up: true, Epoch: 1} })
	tape.Put(api.StreamEvent{Data: &api.OrderRecord{Cloid: "mine-1", State: api.StateOpen}})
	for i := range tapeOrders + tapeSymbols {
		name := fmt.Sprintf("MADE%d-PERP", i)
		tape.Put(api.StreamEvent{Data: &api.Ticker{Symbol: name, BestBidPrice: dec("1"), BestAskPrice: dec("2")}},
			api.StreamEvent{Data: []api.Mid{{Symbol: name, MidPrice: dec("1.5")}}},
			api.StreamEvent{Data: &api.OrderRecord{Cloid: name, State: api.StateOpen}},
			api.StreamEvent{Data: &api.Fill{OrderID: api.OrderID(i + 10), TradeID: 1, Size: dec("1")}})
	}
	tape.mu.Lock()
	sizes := []int{len(tape.quotes), len(tape.state.tickers), len(tape.state.mids), len(tape.orders), len(tape.fills)}
	tape.mu.Unlock()
	if sizes[0] > tapeSymbols || sizes[1] > tapeSymbols || sizes[2] > tapeSymbols || sizes[3] > tapeOrders || sizes[4] > tapeOrders {
		t.Fatalf("quotes, tickers, mids, orders, fills: %v", sizes)
	}
	if _, _, ok := tape.order("mine-1"); !ok {
		t.Fatal("the flood pushed out a record the tape held")
	}
	if _, _, ok := tape.order(fmt.Sprintf("MADE%d-PERP", tapeOrders+5)); ok {
		t.Fatal("a record past the bound is on the tape")
	}
}
