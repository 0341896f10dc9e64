package headless

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// dropper passes requests to the simulator, but drops the connection of the next /exchange
// request without an answer: after the simulator acted on it (lost answer), or before (lost request).
type dropper struct {
	sim          http.Handler
	afterActing  atomic.Bool
	beforeActing atomic.Bool
	// rewrite, when set, replaces the next /exchange answer's body (the simulator has acted).
	rewrite atomic.Pointer[func([]byte) []byte]
	// lose, when set, is asked for every /exchange request whether to drop its answer after the
	// simulator acted on it.
	lose atomic.Pointer[func() bool]
	// before, when set, runs once before the next /exchange request reaches the simulator.
	before atomic.Pointer[func()]
	// held, when set, runs once after the simulator acted on the next /exchange request and
	// before its answer is written (a slow answer).
	held atomic.Pointer[func(*http.Request)]
	// infoLost is how many of the next /info requests lose their answer.
	infoLost atomic.Int32
	// exchanges counts the signed requests that reached /exchange.
	exchanges atomic.Int64
	// down, while set, answers every request 503 without reaching the simulator (the exchange
	// lost).
	down atomic.Bool
}

func (d *dropper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if d.down.Load() {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	if strings.HasPrefix(r.URL.Path, "/info") && d.infoLost.Add(-1) >= 0 {
		d.sim.ServeHTTP(httptest.NewRecorder(), r)
		panic(http.ErrAbortHandler)
	}
	if strings.HasPrefix(r.URL.Path, "/exchange") {
		d.exchanges.Add(1)
		if f := d.before.Swap(nil); f != nil {
			(*f)()
		}
		if d.beforeActing.Swap(false) {
			panic(http.ErrAbortHandler)
		}
		if f := d.held.Swap(nil); f != nil {
			rec := httptest.NewRecorder()
			d.sim.ServeHTTP(rec, r)
			(*f)(r)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(rec.Code)
			_, _ = w.Write(rec.Body.Bytes())
			return
		}
		if f := d.rewrite.Swap(nil); f != nil {
			rec := httptest.NewRecorder()
			d.sim.ServeHTTP(rec, r)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(rec.Code)
			_, _ = w.Write((*f)(rec.Body.Bytes()))
			return
		}
		if f := d.lose.Load(); d.afterActing.Swap(false) || f != nil && (*f)() {
			d.sim.ServeHTTP(httptest.NewRecorder(), r)
			panic(http.ErrAbortHandler)
		}
	}
	d.sim.ServeHTTP(w, r)
}

func TestLostAnswerIsLookedUp(t *testing.T) {
	t.Parallel() // waits on the wall clock (a request's expiry, a build) while the others run
	h := newHarness(t)
	h.expiry = time.Second // a lost request is called not placed once its expiresAfter has passed
	d := h.drop
	px := h.restingBid()
	cloid := "0f8fad5b-d9cb-469f-a165-70867728950e"

	d.afterActing.Store(true)
	code, out, errs := h.run("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px, "--cloid", cloid)
	if code != 0 || !strings.Contains(out, "the answer was lost, but the order is on the exchange: oid ") || !strings.Contains(out, "state open, cloid "+cloid) {
		t.Fatalf("lost answer: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	orders := h.openOrders()
	if len(orders) != 1 || orders[0].Cloid != cloid {
		t.Fatalf("the order must be on the book exactly once: %+v", orders)
	}

	// With --json the same is one JSON object with the outcome word.
	d.afterActing.Store(true)
	again := "2f8fad5b-d9cb-469f-a165-70867728950e"
	code, out, errs = h.run("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px, "--cloid", again, "--json")
	var j lostFoundJSON
	if err := json.Unmarshal([]byte(out), &j); code != 0 || err != nil || j.Outcome != "ok" || !j.AnswerLost || j.Cloid != again || j.Oid == 0 {
		t.Fatalf("lost answer --json: exit %d, %+v (%v), stdout %q, stderr %q", code, j, err, out, errs)
	}
	h.ok("cancel", "--instrument", "BTC-PERP", "--cloid", again)

	d.beforeActing.Store(true)
	other := "1f8fad5b-d9cb-469f-a165-70867728950e"
	code, _, errs = h.run("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px, "--cloid", other)
	if code != ExitUnavailable || !strings.Contains(errs, "cloid "+other+" is not in open orders or history: the order was not placed") {
		t.Fatalf("lost request: exit %d, stderr %q", code, errs)
	}
	if n := len(h.openOrders()); n != 1 {
		t.Fatalf("a lost request was resent: %d open orders", n)
	}
	h.checkNoKey()
}

// TestLostInfoAnswerIsRetried: a read whose answer is lost is asked again with backoff, so a lost
// /info answer does not stop an order before it is sent, and the order is sent once.
func TestLostInfoAnswerIsRetried(t *testing.T) {
	t.Parallel() // owns its simulator; waits on the wall clock while the others run
	h := newHarness(t)
	px := h.restingBid()
	h.drop.infoLost.Store(2)
	code, out, errs := h.run("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px)
	if code != 0 || !strings.Contains(out, "placed") {
		t.Fatalf("order after two lost reads: exit %d, %q %q", code, out, errs)
	}
	if h.drop.infoLost.Load() >= 0 {
		t.Fatal("no read was lost")
	}
	if n := len(h.openOrders()); n != 1 {
		t.Fatalf("%d open orders", n)
	}
}
