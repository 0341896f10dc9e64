package algo

import (
	"context"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

var btc = state.Instrument{ID: 1, Name: "BTC-PERP", TickSize: decimal.RequireFromString("0.1"),
	LotSize: decimal.RequireFromString("0.0001"), MinNotional: decimal.NewFromInt(50)}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestScaleRungs: rungs are evenly spaced and on the tick, their sizes whole lots adding up to the
// size exactly, shaped by the distribution; a rung under the minimum order value, two rungs on
// one tick or over 100 rungs refuse; a buy rung at or over the ask is warned of.
func TestScaleRungs(t *testing.T) {
	p := ScaleParams{Instrument: "BTC-PERP", Side: "buy", Size: dec("0.1"), From: dec("95000"), To: dec("96000.05"), Count: 4, Distribution: "inc"}
	rungs, warns, err := PlanScale(btc, p, dec("95999"), dec("96000"))
	if err != nil {
		t.Fatal(err)
	}
	var sum decimal.Decimal
	wantPx := []string{"95000", "95333.4", "95666.7", "96000.1"}
	wantSz := []string{"0.01", "0.02", "0.03", "0.04"}
	for i, r := range rungs {
		sum = sum.Add(r.Size)
		if r.Price.String() != wantPx[i] || r.Size.String() != wantSz[i] {
			t.Errorf("rung %d: %s @ %s, want %s @ %s", i+1, r.Size, r.Price, wantSz[i], wantPx[i])
		}
	}
	if !sum.Equal(p.Size) || len(warns) != 1 || !strings.Contains(warns[0], "rung 4") {
		t.Fatalf("sum %s, warnings %v", sum, warns)
	}
	// 0.0007 over three rungs: 2, 2, 3 lots (flat), the leftover lot to a rung, never lost.
	p = ScaleParams{Instrument: "BTC-PERP", Side: "sell", Size: dec("0.0007"), From: dec("99000"), To: dec("98000"), Count: 3, Distribution: "geo"}
	if _, _, err := PlanScale(btc, p, dec("1"), dec("2")); err == nil || !strings.Contains(err.Error(), "minimum order value") {
		t.Fatalf("a rung under the minimum: %v", err)
	}
	p.Size = dec("0.0107")
	rungs, _, err = PlanScale(btc, p, dec("1"), dec("2"))
	if err != nil || !rungs[0].Size.Add(rungs[1].Size).Add(rungs[2].Size).Equal(p.Size) || !rungs[2].Size.GreaterThan(rungs[0].Size) {
		t.Fatalf("geo: %+v %v", rungs, err)
	}
	for _, bad := range []ScaleParams{
		{Side: "buy", Size: dec("1"), From: dec("95000"), To: dec("95000.1"), Count: 5, Distribution: "flat"},
		{Side: "buy", Size: dec("1"), From: dec("95000"), To: dec("96000"), Count: 101, Distribution: "flat"},
		{Side: "buy", Size: dec("1"), From: dec("95000"), To: dec("96000"), Count: 5, Distribution: "steep"},
		{Side: "up", Size: dec("1"), From: dec("95000"), To: dec("96000"), Count: 5, Distribution: "flat"},
		{Side: "buy", Size: dec("1.00001"), From: dec("95000"), To: dec("96000"), Count: 5, Distribution: "flat"},
	} {
		if _, _, err := PlanScale(btc, bad, dec("1"), dec("2")); err == nil {
			t.Errorf("taken: %+v", bad)
		}
	}
}

// TestAScaleLandsAndCancelsAsOne: a scale's rungs go out as one placeOrder (one journal intent
// naming every rung), all rest at once at the exchange under the scale's client id prefix, and
// CancelGroup cancels every one of them.
func TestAScaleLandsAndCancelsAsOne(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, true)
	must(t, r.sim.SetIndexPrice("BTC-PERP", dec("97000")))
	d := r.deps(nil)
	p := ScaleParams{Instrument: "BTC-PERP", Side: "buy", Size: dec("0.01"), From: dec("90000"), To: dec("91000"), Count: 10, Distribution: "flat"}
	rungs, warns, err := PlanScale(btc, p, decimal.Zero, decimal.Zero)
	if err != nil || len(warns) != 0 {
		t.Fatal(err, warns)
	}
	res, err := PlaceScale(bg, d, "sc-1", p, rungs)
	if err != nil || len(res.Batch.Orders) != 10 {
		t.Fatalf("%+v %v", res, err)
	}
	en, ok, err := r.j.Get(bg, res.Batch.ID)
	if !ok || err != nil || len(en.Intent.Cloids) != 10 || en.Intent.Parent != "sc-1" {
		t.Fatalf("one intent for the batch: %+v %v", en, err)
	}
	open, _ := r.orders("sc-1-")
	if len(open) != 10 {
		t.Fatalf("%d rungs rest", len(open))
	}
	if a, _, _ := r.j.GetAlgo(bg, "sc-1"); a.State != StateDone {
		t.Fatalf("journal: %+v", a)
	}
	n, err := CancelGroup(bg, d, "sc-1")
	if open, _ = r.orders("sc-1-"); err != nil || n != 10 || len(open) != 0 {
		t.Fatalf("cancelled %d, %d still open: %v", n, len(open), err)
	}
	if GroupOf("sc-1-10") != "sc-1" || GroupOf("sc-1") != "sc" || GroupOf("abc") != "" || GroupOf("a-") != "" {
		t.Fatal("GroupOf")
	}
}

// refusesBatches delivers a batch to the exchange, then answers as if the exchange had refused it
// whole: an answer that proves nothing about each order in it.
type refusesBatches struct{ *api.Client }

func (s refusesBatches) PlaceOrders(ctx context.Context, o []api.OrderWire) (api.TxResponse, error) {
	if len(o) < 2 {
		return s.Client.PlaceOrders(ctx, o)
	}
	_, _ = s.Client.PlaceOrders(ctx, o)
	return api.TxResponse{}, &api.Error{Kind: api.KindServer, Op: "exchange placeOrder", Status: 400, Message: "batch refused"}
}

// TestABatchRefusedWholeIsLookedUp: a scale whose batch is answered with a refusal of the whole
// batch, though its rungs landed, looks each rung up by client id: every one is known resting (none
// orphaned as "rejected"), and they cancel as one.
func TestABatchRefusedWholeIsLookedUp(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, true)
	must(t, r.sim.SetIndexPrice("BTC-PERP", dec("97000")))
	r.send = refusesBatches{r.trader}
	d := r.deps(nil)
	p := ScaleParams{Instrument: "BTC-PERP", Side: "buy", Size: dec("0.005"), From: dec("90000"), To: dec("91000"), Count: 5, Distribution: "flat"}
	rungs, _, err := PlanScale(btc, p, decimal.Zero, decimal.Zero)
	must(t, err)
	res, err := PlaceScale(bg, d, "rb-1", p, rungs)
	if err != nil || len(res.Batch.Orders) != 5 {
		t.Fatalf("%+v %v", res, err)
	}
	for _, o := range res.Batch.Orders {
		if o.Outcome.Oid == 0 || !o.Outcome.Resting {
			t.Fatalf("rung %s: %s %s, want found resting", o.Cloid, o.Kind, o.Reason)
		}
	}
	if n, err := CancelGroup(bg, d, "rb-1"); err != nil || n != 5 {
		t.Fatalf("cancelled %d: %v", n, err)
	}
}
