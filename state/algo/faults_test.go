package algo

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
)

// chases is how many chases TestChasesUnderFaultsNeverOverfill runs (the 100 take a few
// minutes under faults: go test ./state/algo -run Faults -chases 100).
var chases = flag.Int("chases", 20, "chases to run under faults")

// windowHitter sends the trader's actions, but before each cancel of a chase's child it has the
// taker hit that child: a fill forced into the cancel window.
type windowHitter struct {
	*api.Client
	r   *rig
	w   *working
	mu  sync.Mutex
	rng *rand.Rand
	n   atomic.Int32
}

func (h *windowHitter) CancelByCloid(ctx context.Context, cs []api.CancelCloid) (api.TxResponse, error) {
	if cloid, px, size := h.w.get(); cloid != "" && len(cs) == 1 && cs[0].Cloid == cloid {
		h.mu.Lock()
		if h.rng.IntN(2) == 0 {
			h.r.hit(h.rng, api.SideSell, px, size, decimal.RequireFromString("0.0006"))
			h.n.Add(1)
		}
		h.mu.Unlock()
	}
	return h.Client.CancelByCloid(ctx, cs)
}

// TestChasesUnderFaultsNeverOverfill: chases of random sizes, against a simulator that loses 30%
// of its answers and fails 10% with a 5xx, with a taker hitting the working child now and then
// and inside half the cancel windows: none fills more than its target, no two children of one
// chase are ever open at once, each reports as filled the sum of its fills at the exchange, and
// each ends done.
func TestChasesUnderFaultsNeverOverfill(t *testing.T) {
	t.Parallel() // its own simulator and journal; it waits on lookups more than it computes
	n := *chases
	if testing.Short() {
		n = 5
	}
	r := newRig(t, false)
	w := &working{}
	h := &windowHitter{Client: r.trader, r: r, w: w, rng: rand.New(rand.NewPCG(3, 3))}
	r.send = h
	faults, err := sim.ParseFaults("lost=0.3,5xx=0.1")
	must(t, err)
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range n {
		d := r.deps(w.report)
		size := decimal.New(int64(10+rng.IntN(40)), -4)
		id := fmt.Sprintf("fc-%03d", i)
		c, err := NewChase(bg, d, id, ChaseParams{Instrument: "BTC-PERP", Side: "buy", Size: size, Aggressive: true})
		must(t, err)
		must(t, r.sim.SetFaults(faults))
		ctx, cancel := context.WithCancel(bg)
		var most atomic.Int32
		go r.hitLoop(ctx, w, uint64(i))
		go r.watchLive(ctx, id+"-", &most)
		p, err := c.Run(bounded(t))
		cancel()
		must(t, r.sim.SetFaults(sim.Faults{}))
		if err != nil || p.State != StateDone {
			t.Fatalf("%s: %+v %v", id, p, err)
		}
		r.checkChase(t, id+"-", p, size, &most)
	}
	t.Logf("%d fills forced into a cancel window", h.n.Load())
}
