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

	"github.com/tradedesk/tradedesk/api"
)

// pollCounter counts the /info reads of the book, the orders and the fills that pass through it.
type pollCounter struct {
	next http.Handler
	mu   sync.Mutex
	n    int
	seen []string
}

func (c *pollCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/info" {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &req)
		switch req.Method {
		case api.MethodOrderBook, api.MethodOpenOrders, api.MethodOrderHistory, api.MethodFills:
			c.mu.Lock()
			c.n++
			c.seen = append(c.seen, req.Method)
			c.mu.Unlock()
		}
	}
	c.next.ServeHTTP(w, r)
}

// take is the count since the last take, and the methods counted.
func (c *pollCounter) take() (int, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, seen := c.n, strings.Join(c.seen, " ")
	c.n, c.seen = 0, nil
	return n, seen
}

// TestAHeadlessChaseRestsOnTheStream: a headless chase resting in a moving market (5000 ticks off,
// a refresh too wide to follow) reads its quote and its child's record from its own stream once that is up: a
// whole second passes with no read of the book, the orders or the fills (polling them, it reads
// the open orders and the book every half second). Ctrl+C still cancels its child.
func TestAHeadlessChaseRestsOnTheStream(t *testing.T) {
	t.Parallel() // its own simulator and journal
	h := newHarness(t)
	counter := &pollCounter{next: h.drop}
	h.srv = httptest.NewServer(counter)
	t.Cleanup(h.srv.Close)
	market, stopMarket := context.WithCancel(context.Background())
	t.Cleanup(stopMarket)
	go func() { _ = h.sim.Run(market) }()
	stop, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan string, 1)
	go func() {
		code, out, errs := h.runCtx(stop, "chase", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--offset", "5000t", "--refresh", "1000000t")
		done <- strings.Join([]string{out, errs}, "\n") + map[bool]string{true: "", false: "exit not partial"}[code == ExitPartial]
	}()
	for deadline := time.Now().Add(time.Minute); len(h.openOrders()) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the chase placed nothing within a minute")
		}
	}
	quiet, last := false, ""
	for i := 0; i < 30 && !quiet; i++ {
		counter.take()
		time.Sleep(time.Second)
		n, seen := counter.take()
		quiet, last = n == 0 && len(h.openOrders()) == 1, seen // and still resting
	}
	cancel()
	out := <-done
	if !quiet {
		t.Fatalf("the resting chase polled in every second of 30 (last: %s)", last)
	}
	if !strings.Contains(out, "stopped") || strings.Contains(out, "exit not partial") || len(h.openOrders()) != 0 {
		t.Fatalf("Ctrl+C: %q, open orders %d", out, len(h.openOrders()))
	}
}

// TestTheGuardsChaseRestsOnTheStream: a chase handed to the guard reads the guard's stream as a
// headless chase does: resting, a whole second passes with no read of the book, the orders or
// the fills.
func TestTheGuardsChaseRestsOnTheStream(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	h := guardHarness(t)
	counter := &pollCounter{next: h.drop}
	h.srv = httptest.NewServer(counter)
	t.Cleanup(h.srv.Close)
	market, stopMarket := context.WithCancel(context.Background())
	t.Cleanup(stopMarket)
	go func() { _ = h.sim.Run(market) }()
	g := h.startGuard("--allow-account-key")
	h.ok("chase", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--offset", "5000t", "--refresh", "1000000t", "--guard")
	eventually(t, "the guard's chase rests its order", func() bool { return len(h.openOrders()) == 1 })
	quiet, last := false, ""
	for i := 0; i < 30 && !quiet; i++ {
		counter.take()
		time.Sleep(time.Second)
		n, seen := counter.take()
		quiet, last = n == 0 && len(h.openOrders()) == 1, seen
	}
	h.guardOK("stop")
	if code := g.wait(); code != 0 {
		t.Fatalf("guard exit %d: %q", code, g.errb.String())
	}
	if !quiet {
		t.Fatalf("the guard's resting chase polled in every second of 30 (last: %s)", last)
	}
}
