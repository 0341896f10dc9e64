package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
)

// readCounter counts the requests that pass through it: /info by method, /exchange as one.
type readCounter struct {
	next http.Handler
	mu   sync.Mutex
	n    map[string]int
}

func (c *readCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Path
	if name == "/info" {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &req)
		name = req.Method
	}
	c.mu.Lock()
	c.n[name]++
	c.mu.Unlock()
	c.next.ServeHTTP(w, r)
}

func (c *readCounter) get(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[name]
}

// TestAHeadlessChaseChecksItsChildrenOnTheStream (issue #36): a headless chase repricing in a
// moving market checks each child against its own stream, as the console's do: a post-only
// child's check reads no book, and the leverage setting is read once and kept, not read for
// each child (it read both for every child: a book and a leverage read a reprice).
func TestAHeadlessChaseChecksItsChildrenOnTheStream(t *testing.T) {
	t.Parallel() // waits on the wall clock (the chase's reprices) while the others run
	// The makers requote five times a second, and the chase may follow them as often (not once a
	// second each): its four reprices take a second, not four.
	h := newHarness(t, sim.WithStep(200*time.Millisecond))
	h.reprice = 200 * time.Millisecond
	counter := &readCounter{next: h.drop, n: map[string]int{}}
	h.srv = httptest.NewServer(counter)
	t.Cleanup(h.srv.Close)
	market, stopMarket := context.WithCancel(context.Background())
	t.Cleanup(stopMarket)
	go func() { _ = h.sim.Run(market) }() // the makers requote around the index
	stop, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan string, 1)
	go func() {
		_, out, errs := h.runCtx(stop, "chase", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--offset", "5000t")
		done <- out + "\n" + errs
	}()
	eventually(t, "the chase rests its first child", func() bool { return len(h.openOrders()) == 1 })
	books, levs := threeChildrenRead(t, h, counter)
	cancel()
	out := <-done
	if books > 0 || levs > 1 {
		t.Fatalf("3 children read the book %d times and the leverage %d times; want 0 and at most 1\n%s", books, levs, out)
	}
	if !strings.Contains(out, "stopped") {
		t.Fatalf("Ctrl+C: %q", out)
	}
}

// TestTheGuardsChaseChecksItsChildrenOnTheStream (issue #36): the guard's algorithms check their
// children on the guard's stream as a headless chase does: no book, the leverage kept.
func TestTheGuardsChaseChecksItsChildrenOnTheStream(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	// Reprices five times a second, as TestAHeadlessChaseChecksItsChildrenOnTheStream's.
	h := guardHarness(t, sim.WithStep(200*time.Millisecond))
	h.reprice = 200 * time.Millisecond
	counter := &readCounter{next: h.drop, n: map[string]int{}}
	h.srv = httptest.NewServer(counter)
	t.Cleanup(h.srv.Close)
	market, stopMarket := context.WithCancel(context.Background())
	t.Cleanup(stopMarket)
	go func() { _ = h.sim.Run(market) }()
	g := h.startGuard("--allow-account-key")
	h.ok("chase", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--offset", "5000t", "--guard")
	eventually(t, "the guard's chase rests its first child", func() bool { return len(h.openOrders()) == 1 })
	books, levs := threeChildrenRead(t, h, counter)
	h.guardOK("stop")
	if code := g.wait(); code != 0 {
		t.Fatalf("guard exit %d: %q", code, g.errb.String())
	}
	if books > 0 || levs > 1 {
		t.Fatalf("3 children of the guard's chase read the book %d times and the leverage %d times; want 0 and at most 1", books, levs)
	}
}

// threeChildrenRead raises the market until a chase resting far under the bid has repriced four
// times, and returns the book and leverage reads of the last three children: the first child and
// reprice may come before the stream is up (then they read the exchange).
func threeChildrenRead(t *testing.T, h *harness, counter *readCounter) (books, levs int) {
	t.Helper()
	ts, err := api.New(h.srv.URL).Ticker(context.Background(), "BTC-PERP")
	if err != nil || len(ts) != 1 {
		t.Fatalf("ticker: %v", err)
	}
	px, base := ts[0].IndexPrice.Round(0), counter.get("/exchange")
	rise := func(actions int) {
		t.Helper()
		for deadline := time.Now().Add(time.Minute); counter.get("/exchange")-base < actions; time.Sleep(200 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the chase sent %d actions in a minute of a rising market, want %d", counter.get("/exchange")-base, actions)
			}
			px = px.Add(decimal.NewFromInt(20))
			if err := h.sim.SetIndexPrice("BTC-PERP", px); err != nil {
				t.Fatal(err)
			}
		}
	}
	rise(2) // the first reprice: a cancel and a place
	books, levs = counter.get(api.MethodOrderBook), counter.get(api.MethodInstrumentLeverage)
	rise(8)
	return counter.get(api.MethodOrderBook) - books, counter.get(api.MethodInstrumentLeverage) - levs
}
