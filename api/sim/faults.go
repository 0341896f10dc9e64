package sim

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Faults makes a share of requests misbehave, for testing clients' resilience. Each field is a
// probability (0 to 1) per request; their sum must not exceed 1.
type Faults struct {
	ServerError float64       // answer 500, 502 or 503 without acting
	Timeout     float64       // stall for Delay without acting, then answer 504
	Garbage     float64       // answer 200 with a body that is not JSON, without acting
	Lost        float64       // act, then drop the connection before answering
	Delay       time.Duration // how long a timeout stalls (default 15s, at most 2 minutes)
}

// ParseFaults reads a fault spec: one share spread evenly over the four kinds ("0.2"), or
// comma-separated kind=value pairs ("5xx=0.05,timeout=0.02,garbage=0.02,lost=0.02,delay=10s").
// The kinds are 5xx, timeout, garbage and lost; "" means no faults.
func ParseFaults(spec string) (Faults, error) {
	var f Faults
	spec = strings.TrimSpace(spec)
	if spec == "" || spec == "0" || spec == "none" {
		return f, nil
	}
	if p, err := strconv.ParseFloat(spec, 64); err == nil {
		f = Faults{ServerError: p / 4, Timeout: p / 4, Garbage: p / 4, Lost: p / 4}
		return f, f.validate()
	}
	for _, part := range strings.Split(spec, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return f, fmt.Errorf("fault %q: want kind=share, e.g. 5xx=0.05", part)
		}
		if k == "delay" {
			d, err := time.ParseDuration(v)
			if err != nil {
				return f, fmt.Errorf("fault delay %q: want a duration such as 10s", v)
			}
			f.Delay = d
			continue
		}
		p, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return f, fmt.Errorf("fault %s=%q: want a share between 0 and 1", k, v)
		}
		switch k {
		case "5xx", "error":
			f.ServerError = p
		case "timeout":
			f.Timeout = p
		case "garbage":
			f.Garbage = p
		case "lost":
			f.Lost = p
		default:
			return f, fmt.Errorf("fault kind %q: want 5xx, timeout, garbage, lost or delay", k)
		}
	}
	return f, f.validate()
}

func (f Faults) validate() error {
	sum := 0.0
	for _, p := range []float64{f.ServerError, f.Timeout, f.Garbage, f.Lost} {
		if p < 0 || p > 1 {
			return fmt.Errorf("fault share %v: want between 0 and 1", p)
		}
		sum += p
	}
	if sum > 1 {
		return fmt.Errorf("fault shares add up to %v: want at most 1", sum)
	}
	if f.Delay < 0 {
		return fmt.Errorf("fault delay %v: want a positive duration", f.Delay)
	}
	return nil
}

// Fault kinds.
const (
	faultNone = iota
	faultServer
	faultTimeout
	faultGarbage
	faultLost
)

type faultInjector struct {
	mu  sync.Mutex
	f   Faults
	rng *rand.Rand
}

func newFaultInjector(f Faults, seed uint64) *faultInjector {
	if f.Delay <= 0 {
		f.Delay = 15 * time.Second
	}
	f.Delay = min(f.Delay, 2*time.Minute)
	return &faultInjector{f: f, rng: rand.New(rand.NewPCG(seed^0xfa17, seed))}
}

// fault is the fault chosen for one request.
type fault struct {
	kind  int
	n     uint64
	delay time.Duration
}

// SetFaults changes the share of requests that misbehave, from the next request on: a test
// switches faults on at the moment it means (after the reads an order needs, before the order).
func (s *Sim) SetFaults(f Faults) error {
	if err := f.validate(); err != nil {
		return err
	}
	fi := s.faults
	if f.Delay <= 0 {
		f.Delay = 15 * time.Second
	}
	f.Delay = min(f.Delay, 2*time.Minute)
	fi.mu.Lock()
	fi.f = f
	fi.mu.Unlock()
	return nil
}

func (fi *faultInjector) pick() fault {
	fi.mu.Lock()
	f := fi.f
	if f.ServerError+f.Timeout+f.Garbage+f.Lost == 0 {
		fi.mu.Unlock()
		return fault{}
	}
	x, n := fi.rng.Float64(), fi.rng.Uint64()
	fi.mu.Unlock()
	for i, p := range []float64{f.ServerError, f.Timeout, f.Garbage, f.Lost} {
		if x < p {
			return fault{kind: i + 1, n: n, delay: f.Delay}
		}
		x -= p
	}
	return fault{}
}

var garbageBodies = []string{
	"<html><body><h1>502 Bad Gateway</h1></body></html>",
	`{"tx_hash":"0x`,
	"\x00\x01garbage\xff",
}

// before applies a fault that replaces the answer. It reports whether the request is finished.
func (f fault) before(w http.ResponseWriter, r *http.Request) bool {
	switch f.kind {
	case faultServer:
		codes := []int{http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable}
		code := codes[f.n%3]
		if code == http.StatusServiceUnavailable {
			w.Header().Set("Retry-After", "1")
		}
		writeJSON(w, code, errorBody{"simulated server fault"})
		return true
	case faultTimeout:
		t := time.NewTimer(f.delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
		}
		writeJSON(w, http.StatusGatewayTimeout, errorBody{"simulated timeout"})
		return true
	case faultGarbage:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(garbageBodies[f.n%uint64(len(garbageBodies))]))
		return true
	}
	return false
}

// after applies a fault that strikes once the request has taken effect: the connection drops
// without an answer.
func (f fault) after() {
	if f.kind == faultLost {
		panic(http.ErrAbortHandler)
	}
}
