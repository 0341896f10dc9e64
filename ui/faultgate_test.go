package ui

import (
	"bytes"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// gateMode is what the fault gate does with each request.
type gateMode int32

const (
	gateClean  gateMode = iota // every request reaches the simulator
	gateFaulty                 // a share of requests fail in one of the ways below
	gateDown                   // the exchange is down: every request fails
)

// Fault kinds the gate injects.
const (
	faultNone       = "none"
	fault5xx        = "5xx"       // 500, 502 or 503, the simulator never sees the request
	faultStall      = "stall"     // no answer until the client gives up (a timeout)
	faultGarbage    = "garbage"   // 200 with a body that is not JSON, not acted on
	faultLostAfter  = "lostAfter" // the simulator acts, then the connection drops (a lost answer)
	faultLostBefore = "lostBefore"
)

var cloidRe = regexp.MustCompile(`"cloid"\s*:\s*"([^"]+)"`)

// faultGate stands in front of a clean simulator and injects faults that can be switched on and
// off at run time (the simulator's own faults are fixed when it is built). It records which
// order client ids reached the exchange, and how often each was sent.
type faultGate struct {
	h    http.Handler
	mode atomic.Int32
	rate float64 // the share of requests that fail in gateFaulty

	mu     sync.Mutex
	rng    *rand.Rand
	sent   map[string]int    // cloid -> /exchange requests that carried it
	acted  map[string]bool   // cloid -> the simulator saw the request
	faults map[string]int    // fault kind -> requests it hit
	fate   map[string]string // cloid -> the fault its request met
	conns  atomic.Int64      // new TCP connections (ConnState StateNew)
	// orderFaults are the faults the next order requests meet, in turn, before the random ones:
	// so every kind of lost answer happens in every run.
	orderFaults []string
	// lookups is the number of lost answers being looked up; lookupHit says a read of orders met
	// its fault since the lookup began (see pick).
	lookups   int
	lookupHit bool
}

func newFaultGate(h http.Handler, seed uint64, rate float64) *faultGate {
	return &faultGate{h: h, rate: rate, rng: rand.New(rand.NewPCG(seed, seed^0x5eed)),
		sent: map[string]int{}, acted: map[string]bool{}, faults: map[string]int{}, fate: map[string]string{}}
}

func (g *faultGate) set(m gateMode) { g.mode.Store(int32(m)) }

// lostAnswer (the gate's lock held) counts the lookup of an order whose answer the gate is losing;
// lookupDone ends it, once the executor's answer says it looked the order up.
func (g *faultGate) lostAnswer() {
	if g.lookups == 0 {
		g.lookupHit = false
	}
	g.lookups++
}

func (g *faultGate) lookupDone() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.lookups = max(g.lookups-1, 0)
}

// pick chooses this request's fault. order says the request carries orders; ordersRead that it
// reads open orders or order history, as a lookup does. While a lost answer is looked up, the
// first such read meets a fault (a random kind) and the others none: every lookup has a fault to
// get past, and whether it succeeds does not hang on the dice (with random faults, all four of a
// lookup's tries failed in about one run in fifteen).
func (g *faultGate) pick(order, ordersRead bool) string {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch gateMode(g.mode.Load()) {
	case gateClean:
		return faultNone
	case gateFaulty:
		if order && len(g.orderFaults) > 0 {
			f := g.orderFaults[0]
			g.orderFaults = g.orderFaults[1:]
			return f
		}
		if ordersRead && g.lookups > 0 {
			if g.lookupHit {
				return faultNone
			}
			g.lookupHit = true
			return []string{fault5xx, faultStall, faultGarbage, faultLostAfter, faultLostBefore}[g.rng.IntN(5)]
		}
	case gateDown:
		if g.rng.IntN(2) == 0 {
			return fault5xx
		}
		return faultLostBefore
	}
	if g.rng.Float64() >= g.rate {
		return faultNone
	}
	return []string{fault5xx, faultStall, faultGarbage, faultLostAfter, faultLostBefore}[g.rng.IntN(5)]
}

func (g *faultGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var cloids []string
	if strings.Contains(r.URL.Path, "exchange") {
		for _, m := range cloidRe.FindAllSubmatch(body, -1) {
			cloids = append(cloids, string(m[1]))
		}
	}
	ordersRead := !strings.Contains(r.URL.Path, "exchange") &&
		(bytes.Contains(body, []byte(`"`+api.MethodOpenOrders+`"`)) || bytes.Contains(body, []byte(`"`+api.MethodOrderHistory+`"`)))
	f := g.pick(len(cloids) > 0, ordersRead)
	g.mu.Lock()
	g.faults[f]++
	if len(cloids) > 0 && !strings.Contains(string(body), "cancel") && (f == faultStall || f == faultGarbage || f == faultLostAfter || f == faultLostBefore) {
		g.lostAnswer()
	}
	for _, c := range cloids {
		g.sent[c]++
		g.fate[c] = f
		if f == faultNone || f == faultLostAfter {
			g.acted[c] = true
		}
	}
	g.mu.Unlock()
	switch f {
	case faultNone:
		g.h.ServeHTTP(w, r)
	case fault5xx:
		code := []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable}[len(body)%3]
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_, _ = w.Write([]byte(`{"error":"injected server fault"}`))
	case faultStall:
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	case faultGarbage:
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<html>502 Bad Gateway</html>"))
	case faultLostAfter:
		g.h.ServeHTTP(httptest.NewRecorder(), r)
		panic(http.ErrAbortHandler)
	case faultLostBefore:
		panic(http.ErrAbortHandler)
	}
}

// stats copies what the gate recorded.
func (g *faultGate) stats() (sent map[string]int, acted map[string]bool, faults map[string]int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	sent, acted, faults = map[string]int{}, map[string]bool{}, map[string]int{}
	for k, v := range g.sent {
		sent[k] = v
	}
	for k, v := range g.acted {
		acted[k] = v
	}
	for k, v := range g.faults {
		faults[k] = v
	}
	return sent, acted, faults
}
