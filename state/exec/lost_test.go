package exec

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state/journal"
)

// TestHalfTheAnswersLost: with the simulator losing half of all answers (it acts, then drops the
// connection: orders and lookups alike), 100 orders with distinct client ids each appear exactly
// once at the exchange, and each has a settled outcome in the journal. The orders go 25 to each
// of four simulators at once, one after another on each (its executor sends one at a time
// anyway: the lanes only overlap the waits on lost answers). Under -race 50 orders on one
// simulator (the detector gains nothing from more, and each costs several times the CPU there);
// the plain run keeps 100.
func TestHalfTheAnswersLost(t *testing.T) {
	t.Parallel() // owns its simulators, journals and executors
	if testing.Short() {
		t.Skip("100 orders")
	}
	n, lanes := 100, 4
	if raceBuild {
		n, lanes = 50, 1
	}
	var lost atomic.Int64
	t.Run("lanes", func(t *testing.T) {
		for k := range lanes {
			t.Run(fmt.Sprintf("sim-%d", k), func(t *testing.T) {
				t.Parallel()
				lost.Add(int64(placeWithHalfLost(t, fmt.Sprintf("lost-%d-", k), n/lanes)))
			})
		}
	})
	if l := int(lost.Load()); l < n/4 {
		t.Fatalf("only %d of %d answers were lost: the faults did not bite", l, n)
	}
	t.Logf("%d of %d answers lost, each resolved by client id", lost.Load(), n)
}

// placeWithHalfLost places n IOC orders, client ids prefix and a number, through an executor of
// a simulator of its own that loses half of all answers, checks each is at the exchange once and
// settled in the journal, and returns how many answers were lost.
func placeWithHalfLost(t *testing.T, prefix string, n int) int {
	r := newRig(t)
	e := r.executor(nil)
	must(t, e.ensureRecovered(bg))
	faults, err := sim.ParseFaults("lost=0.5")
	must(t, err)
	must(t, r.sim.SetFaults(faults))
	lost := 0
	for i := range n {
		cloid := fmt.Sprintf("%s%03d", prefix, i)
		// IOC under the market: nothing fills and nothing rests, so a second copy would not be
		// refused as a duplicate open cloid: only the executor keeps it to one.
		// Confirmed: the store was loaded before the faults and its prices age as the test runs
		// (the guard asks a typed confirmation for stale prices).
		res, err := e.Place(bg, r.bid(e, cloid, api.TifIOC), Ask{Who: journal.WhoAlgorithm, What: "order " + cloid, Confirmed: true})
		if err != nil || !res.Settled() || res.Kind != Unfilled {
			t.Fatalf("%s: %+v %v", cloid, res, err)
		}
		if res.AnswerLost {
			lost++
		}
	}
	must(t, r.sim.SetFaults(sim.Faults{}))
	at := r.atExchange()
	for i := range n {
		if cloid := fmt.Sprintf("%s%03d", prefix, i); at[cloid] != 1 {
			t.Errorf("%s is at the exchange %d times", cloid, at[cloid])
		}
	}
	es, err := r.j.Recent(bg, 2*n)
	must(t, err)
	if len(es) != n {
		t.Fatalf("%d journal entries for %d orders", len(es), n)
	}
	for _, en := range es {
		if en.Outcome == nil || !en.Outcome.Settled || en.State != journal.StateSent {
			t.Errorf("%s: %s %+v", en.Intent.ID, en.State, en.Outcome)
		}
	}
	return lost
}
