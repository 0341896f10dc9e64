package algo

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
)

// chases is how many chases TestChasesUnderFaultsNeverOverfill runs: 0 is the 100, or 20
// under the race detector, which looks for races, not for the rare overfill (go test ./state/algo
// -run Faults -chases 1000 for a longer soak).
var chases = flag.Int("chases", 0, "chases to run under faults (0: 100, 20 with -race)")

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

// TestChasesUnderFaultsNeverOverfill: chases of random sizes, against simulators that lose 30%
// of their answers and fail 10% with a 5xx, with a taker hitting the working child now and then
// and inside half the cancel windows: none fills more than its target, no two children of one
// chase are ever open at once, each reports as filled the sum of its fills at the exchange, and
// each ends done. The chases run lanes at a time, each alone on its simulator.
func TestChasesUnderFaultsNeverOverfill(t *testing.T) {
	t.Parallel() // its own simulators and journals; it waits on lookups more than it computes
	n := *chases
	switch {
	case n > 0:
	case testing.Short():
		n = 5
	case raceDetector:
		n = 20
	default:
		n = 100
	}
	faults, err := sim.ParseFaults("lost=0.3,5xx=0.1")
	must(t, err)
	rng := rand.New(rand.NewPCG(9, 9))
	sizes := make([]decimal.Decimal, n)
	for i := range sizes {
		sizes[i] = decimal.New(int64(10+rng.IntN(40)), -4)
	}
	var forced atomic.Int32
	acrossSims(t, n, lanes, func(t *testing.T, r *rig, k int) func(int) {
		w := &working{}
		h := &windowHitter{Client: r.trader, r: r, w: w, rng: rand.New(rand.NewPCG(3, uint64(3+k)))}
		r.send = h
		t.Cleanup(func() { forced.Add(h.n.Load()) })
		return func(i int) {
			id := fmt.Sprintf("fc-%03d", i)
			c, err := NewChase(bg, r.deps(w.report), id, ChaseParams{Instrument: "BTC-PERP", Side: "buy", Size: sizes[i], Aggressive: true})
			must(t, err)
			must(t, r.sim.SetFaults(faults))
			ctx, cancel := context.WithCancel(bg)
			var most atomic.Int32
			go r.hitLoop(ctx, w, uint64(i))
			go r.watchLive(ctx, id+"-", &most)
			p, err := c.Run(bounded(t))
			cancel()
			must(t, r.sim.SetFaults(sim.Faults{}))
			if errors.Is(err, ErrUnresolved) {
				// Five cancels of a child each lost or refused (40% of answers are): the chase stops
				// sending and says to run it again, as TestTWAPsAndAScaleUnderFaults's TWAPs do; the
				// next start settles the child and resumes, and what follows is checked the same.
				t.Logf("%s: %v; started again", id, err)
				p, err = r.startAgain(t, r.deps(w.report), id)
			}
			if err != nil || p.State != StateDone {
				t.Fatalf("%s: %+v %v", id, p, err)
			}
			r.checkChase(t, id+"-", p, sizes[i], &most)
		}
	})
	t.Logf("%d fills forced into a cancel window", forced.Load())
}

// TestTWAPsAndAScaleUnderFaults: against a simulator that loses 30% of its answers and fails 10%
// with a 5xx, TWAPs never fill more than their size and report as filled, average and fees what
// their slices' fills at the exchange add up to (an IOC that matches nothing is an ordinary
// no-fill: the TWAP goes on); a scale's rungs land together, under one intent, and cancel as one.
func TestTWAPsAndAScaleUnderFaults(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, false)
	faults, err := sim.ParseFaults("lost=0.3,5xx=0.1")
	must(t, err)
	for i := range 3 {
		id := fmt.Sprintf("ft-%d", i)
		size := decimal.New(int64(40+10*i), -4)
		tw, err := NewTWAP(bg, r.deps(nil), id, TWAPParams{Instrument: "BTC-PERP", Side: "buy", Size: size, Duration: 600 * time.Millisecond, Slices: 3})
		must(t, err)
		must(t, r.sim.SetFaults(faults))
		p, err := tw.Run(bounded(t))
		must(t, r.sim.SetFaults(sim.Faults{}))
		if errors.Is(err, ErrUnresolved) {
			p, err = r.startAgain(t, r.deps(nil), id) // a lost answer not found yet: the next start settles it and resumes
		}
		if err != nil || p.Filled.GreaterThan(size) || (p.State != StateDone && p.State != StateExpired) {
			t.Fatalf("%s: %+v %v", id, p, err)
		}
		if at := r.filledOf(id + "-"); !p.Filled.Equal(at) {
			t.Fatalf("%s reports %s filled, its fills at the exchange %s", id, p.Filled, at)
		}
	}
	d := r.deps(nil)
	sp := ScaleParams{Instrument: "BTC-PERP", Side: "buy", Size: dec("0.01"), From: dec("80000"), To: dec("81000"), Count: 10, Distribution: "flat"}
	rungs, _, err := PlanScale(btc, sp, decimal.Zero, decimal.Zero)
	must(t, err)
	must(t, r.sim.SetFaults(faults))
	var res ScaleResult
	for try := 0; try < 20; try++ { // refused (a read lost, the batch refused): the trader sends it again
		res, err = PlaceScale(bg, d, "", sp, rungs)
		placed := 0
		for _, o := range res.Batch.Orders {
			if o.Outcome.Oid != 0 {
				placed++
			}
		}
		if placed != 0 && placed != 10 {
			t.Fatalf("%d of 10 rungs landed: %s", placed, res.Batch.Reason)
		}
		if err == nil && placed == 10 {
			break
		}
	}
	must(t, r.sim.SetFaults(sim.Faults{}))
	if err != nil {
		t.Fatalf("%+v %v", res, err)
	}
	if open, all := r.orders(res.ID + "-"); len(open) != 10 || len(all) != 10 {
		t.Fatalf("%d rungs rest, %d at the exchange", len(open), len(all))
	}
	must(t, r.sim.SetFaults(faults))
	n, err := CancelGroup(bg, d, res.ID)
	for try := 0; try < 5 && err != nil; try++ { // a cancel that failed is asked again
		n, err = CancelGroup(bg, d, res.ID)
	}
	must(t, r.sim.SetFaults(sim.Faults{}))
	if open, _ := r.orders(res.ID + "-"); err != nil || len(open) != 0 {
		t.Fatalf("cancelled %d, %d still open: %v", n, len(open), err)
	}
}

// startAgain starts algorithm id again from its journal record, as a trader does after
// ErrUnresolved (the start settles the child whose outcome was not known, then resumes), and runs
// it to its end.
func (r *rig) startAgain(t *testing.T, d *Deps, id string) (Progress, error) {
	t.Helper()
	a, _, _ := r.j.GetAlgo(bg, id)
	rn, _, err := Restart(bg, d, a, OnRestartResume)
	must(t, err)
	return rn.Run(bounded(t))
}
