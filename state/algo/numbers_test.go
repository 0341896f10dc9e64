package algo

import (
	"testing"

	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
)

// TestAChildsNumberIsTakenInItsPlacesCommits: a chase's child takes its number in the commit
// that writes its intent before the signing, not in one of its own: a place is two commits
// (intent, outcome), so a reprice (a cancel and a place) is four. A child the check refuses
// writes nothing and leaves its number free; the next child carries it. A scale's rungs take
// their numbers in the batch's one commit.
func TestAChildsNumberIsTakenInItsPlacesCommits(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, true)
	must(t, r.sim.SetIndexPrice("BTC-PERP", dec("97000")))
	d := r.deps(nil)
	must(t, d.check())
	id, err := r.j.BeginAlgo(bg, journal.Algo{ID: "num", Kind: "chase", Params: []byte(`{}`)})
	must(t, err)
	in := state.OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: state.Limit, Price: "90000", Size: "0.001", PostOnly: true}
	bad := in
	bad.Size = "0.00001" // off the lot: the check refuses it
	c0 := r.j.Commits()
	if ch, err := d.place(bg, id, bad, "refused"); ch != nil || err == nil || r.j.Commits() != c0 {
		t.Fatalf("a refused child: %+v %v, %d commits", ch, err, r.j.Commits()-c0)
	}
	ch, err := d.place(bg, id, in, "child")
	if err != nil || ch == nil || ch.cloid != "num-1" || ch.final {
		t.Fatalf("the child: %+v %v", ch, err)
	}
	if n := r.j.Commits() - c0; n != 2 {
		t.Errorf("a child's place committed %d times, want 2 (its intent with its number, its outcome)", n)
	}
	c1 := r.j.Commits()
	must(t, d.cancelChild(bg, id, 1, ch))
	if n := r.j.Commits() - c1; n != 2 {
		t.Errorf("a child's cancel committed %d times, want 2", n)
	}
	if n, err := r.j.FreeChild(bg, id); err != nil || n != 2 {
		t.Fatalf("the next number: %d %v", n, err)
	}
	p := ScaleParams{Instrument: "BTC-PERP", Side: "buy", Size: dec("0.01"), From: dec("90000"), To: dec("91000"), Count: 10, Distribution: "flat"}
	rungs, _, err := PlanScale(btc, p, dec("0"), dec("0"))
	must(t, err)
	c2 := r.j.Commits()
	if _, err := PlaceScale(bg, d, "numsc", p, rungs); err != nil {
		t.Fatal(err)
	}
	// The algorithm begun, the batch's intent with its ten numbers, its outcome, the algorithm done.
	if n := r.j.Commits() - c2; n != 4 {
		t.Errorf("a scale of 10 committed %d times, want 4", n)
	}
	if n, err := r.j.FreeChild(bg, "numsc"); err != nil || n != 11 {
		t.Fatalf("the scale's next number: %d %v", n, err)
	}
	_, _ = CancelGroup(bg, d, "numsc")
}
