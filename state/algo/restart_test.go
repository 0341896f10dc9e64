package algo

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// abandoned is a chase that placed a child and had part of it filled, then stopped without a
// word (its process gone): the journal says running. The rig's market is still (stillBook):
// in a live one the simulator's own takers could fill the child whole, and the chase, done,
// would never have the child resting with 0.001 filled that this waits for.
func (r *rig) abandoned(t *testing.T, id string) {
	t.Helper()
	w := &working{}
	d := r.deps(w.report)
	c, err := NewChase(bg, d, id, ChaseParams{Instrument: "BTC-PERP", Side: "buy", Size: dec("0.004"), Aggressive: true})
	must(t, err)
	step := func() {
		t.Helper()
		if st, err := c.step(bg); err != nil || st != "" {
			t.Fatalf("%s ended %q before it had a child resting with 0.001 filled: %v", id, st, err)
		}
	}
	for c.live == nil || committed(c.children).IsZero() {
		step()
		if c.live != nil && committed(c.children).IsZero() { // one 0.001 taken, once
			_, _ = r.taker.PlaceOrders(bg, []api.OrderWire{{InstrumentID: 1, Side: api.SideSell, PositionSide: api.PositionSideBoth,
				Price: c.live.price.String(), Size: "0.001", Tif: api.TifIOC, Cloid: id + "-taker-" + time.Now().Format("150405.000000")}})
			step()
			// The child had 0.001 taken: cancel it so the next one carries the rest.
			if c.live != nil && committed(c.children).IsZero() {
				must(t, d.cancelChild(bg, id, 1, c.live))
				c.live = nil
			}
		}
	}
	r.reopen()
}

// TestRestartCancelAndFlatten: a chase left running with a child resting and 0.001 filled is, on
// restart, cancelled (its child cancelled, what filled kept, the journal says cancelled) or
// flattened (its child cancelled and what it bought sold back at market).
func TestRestartCancelAndFlatten(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, true)
	r.stillBook(t, "rc-quote")
	r.abandoned(t, "rc-1")
	d := r.deps(nil)
	run, err := Running(bg, d)
	if err != nil || len(run) != 1 {
		t.Fatalf("%+v %v", run, err)
	}
	rn, p, err := Restart(bg, d, run[0], OnRestartCancel)
	if open, _ := r.orders("rc-1-"); err != nil || rn != nil || p.State != StateCancelled || !p.Filled.Equal(dec("0.001")) || len(open) != 0 {
		t.Fatalf("cancel: %+v %v, %d open", p, err, len(open))
	}
	r.abandoned(t, "rc-2")
	d = r.deps(nil)
	run, _ = Running(bg, d)
	if len(run) != 1 || run[0].ID != "rc-2" {
		t.Fatalf("running: %+v", run)
	}
	_, p, err = Restart(bg, d, run[0], OnRestartFlatten)
	if err != nil || p.State != StateFlattened {
		t.Fatalf("flatten: %+v %v", p, err)
	}
	pos, err := r.trader.Positions(bg, r.trader.Address())
	must(t, err)
	for _, x := range pos {
		// rc-1's 0.001 was kept; rc-2's was sold back.
		if x.Instrument == "BTC-PERP" && !x.Size.Equal(dec("0.001")) {
			t.Fatalf("after flatten the position is %s (%s)", x.Size, p.Detail)
		}
	}
	if _, _, err := Restart(bg, d, run[0], "later"); err == nil {
		t.Fatal("a choice that is not one was taken")
	}
}

// TestSurveySaysWhatALeftAlgorithmDid: a chase left running with 0.001 filled and a child resting
// is surveyed from the journal and the exchange (filled 0.001 with its average, the working
// child and its price) without anything sent or written: the same child still rests and the
// journal still says running with the same child count.
func TestSurveySaysWhatALeftAlgorithmDid(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, true)
	r.stillBook(t, "sv-quote")
	r.abandoned(t, "sv-1")
	d := r.deps(nil)
	run, err := Running(bg, d)
	if err != nil || len(run) != 1 {
		t.Fatalf("%+v %v", run, err)
	}
	openBefore, allBefore := r.orders("sv-1-")
	p, err := Survey(bg, d, run[0])
	if err != nil || !p.Filled.Equal(dec("0.001")) || !p.AvgPrice.IsPositive() || p.State != "running" {
		t.Fatalf("%+v %v", p, err)
	}
	if len(openBefore) != 1 || p.Working != openBefore[0].Cloid || p.WorkingPrice == nil {
		t.Fatalf("working %q, open %+v", p.Working, openBefore)
	}
	open, all := r.orders("sv-1-")
	a, _, _ := r.j.GetAlgo(bg, "sv-1")
	if len(open) != 1 || len(all) != len(allBefore) || a.State != "running" || a.Children != run[0].Children {
		t.Fatalf("the survey acted: %d open, %d in all (was %d), journal %+v", len(open), len(all), len(allBefore), a)
	}
}
