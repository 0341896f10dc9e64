package api

import (
	"math/rand"
	"testing"

	"github.com/shopspring/decimal"
)

func dm(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestMarginNeedByHand checks the rule on figures worked by hand. Guards: the price taken as the
// lowest of mark and price instead of the highest (a buy below the mark valued at its price), the
// fee reserved on the growth only instead of the whole size, the growth measured against the
// position instead of the worst position the open orders allow, and a reduction checked at all.
func TestMarginNeedByHand(t *testing.T) {
	base := MarginOrder{Buy: true, Size: dm("1"), Price: dm("97000"), Mark: dm("97299"), Leverage: dm("10"), TakerFee: dm("0.0004")}
	n := base.Need()
	if !n.Price.Equal(dm("97299")) || !n.Margin.Equal(dm("9729.9")) || !n.Fee.Equal(dm("38.9196")) || !n.Total().Equal(dm("9768.8196")) {
		t.Fatalf("1 BTC bid under the mark: %+v", n)
	}
	flip := base
	flip.Position, flip.Buy, flip.Size, flip.Price = dm("2"), false, dm("5"), dm("97500")
	n = flip.Need() // long 2, sell 5: worst 2 -> 3, growth 1 at 97500; fee on 5
	if !n.Margin.Equal(dm("9750")) || !n.Fee.Equal(dm("195")) {
		t.Fatalf("flip past the long: %+v", n)
	}
	cover := base
	cover.OpenSell = dm("3") // a resting sell of 3: a buy of 3 leaves the worst at 3
	cover.Size = dm("3")
	if n := cover.Need(); n.Grows() || !n.Total().IsZero() {
		t.Fatalf("a buy the open sells already cover needs nothing: %+v", n)
	}
	reduce := base
	reduce.Position, reduce.Buy = dm("-1"), true
	if n := reduce.Need(); n.Grows() {
		t.Fatalf("buying back a short grows nothing: %+v", n)
	}
}

// TestMaxSizeIsTheLargestAccepted: over random orders, the offered size passes the rule and one
// lot more does not (unless the offer is the room that needs nothing). Guards a flipped comparison
// in MaxSize's step-down and the free room taken with the wrong
// sign (a sell's room counted as a buy's).
func TestMaxSizeIsTheLargestAccepted(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	lot := dm("0.001")
	rnd := func(max int64) decimal.Decimal { return decimal.New(r.Int63n(max), -3) }
	for i := 0; i < 3000; i++ {
		o := MarginOrder{Position: rnd(5000).Sub(rnd(5000)), OpenBuy: rnd(3000), OpenSell: rnd(3000), Buy: r.Intn(2) == 0,
			Price: decimal.New(90000+r.Int63n(20000), 0), Mark: decimal.New(95000+r.Int63n(10000), 0),
			Leverage: decimal.New(1+r.Int63n(50), 0), TakerFee: dm("0.0004")}
		avail := decimal.New(r.Int63n(20_000_000), -2)
		max := o.MaxSize(avail, lot)
		o.Size = max
		if n := o.Need(); n.Total().GreaterThan(avail) {
			t.Fatalf("%+v: offered %s needs %s with %s available", o, max, n.Total(), avail)
		}
		o.Size = max.Add(lot)
		if n := o.Need(); n.Grows() && n.Total().LessThanOrEqual(avail) {
			t.Fatalf("%+v: %s fits too (needs %s of %s), so %s is not the largest", o, o.Size, n.Total(), avail, max)
		}
	}
}

// TestSpotMaxSize: the offer fits and one lot more does not. Guards the fee left out (the offer
// then needs more than is free) and the sell side charged a price.
func TestSpotMaxSize(t *testing.T) {
	fee, lot := dm("0.0004"), dm("0.0001")
	max := SpotMaxSize(true, dm("1000"), dm("3412.5"), fee, lot)
	if !max.Equal(dm("0.2929")) || SpotNeed(true, max, dm("3412.5"), fee).GreaterThan(dm("1000")) ||
		!SpotNeed(true, max.Add(lot), dm("3412.5"), fee).GreaterThan(dm("1000")) {
		t.Fatalf("spot buy offer %s", max)
	}
	if s := SpotMaxSize(false, dm("0.12345"), dm("3412.5"), fee, lot); !s.Equal(dm("0.1234")) {
		t.Fatalf("spot sell offer %s, want the free base rounded down to the lot", s)
	}
}

// TestMaxSizeStepsDownWhereDivisionRoundsUp holds the offered maximum to the rule when the
// estimate's division (16 digits) rounds up onto a whole lot: 2.999…9 (20 nines) at 3 gives
// 1.0000000000000000, which needs 3 and is refused. Guards margin/max-steps-down and
// margin/spot-max-steps-down (the step-down loops skipped: the console would offer a size the
// exchange refuses).
func TestMaxSizeStepsDownWhereDivisionRoundsUp(t *testing.T) {
	avail, lot := dm("2.99999999999999999999"), dm("0.001")
	o := MarginOrder{Buy: true, Price: dm("3"), Mark: dm("3"), Leverage: dm("1")}
	got := o.MaxSize(avail, lot)
	o.Size = got
	if !got.Equal(dm("0.999")) || o.Need().Total().GreaterThan(avail) {
		t.Fatalf("perp MaxSize = %s (needs %s of %s), want 0.999", got, o.Need().Total(), avail)
	}
	spot := SpotMaxSize(true, avail, dm("3"), decimal.Zero, lot)
	if !spot.Equal(dm("0.999")) || SpotNeed(true, spot, dm("3"), decimal.Zero).GreaterThan(avail) {
		t.Fatalf("SpotMaxSize = %s, want 0.999", spot)
	}
}

// TestMaxSizeNeverBelowTheRoomItNeedsNothingFor: short 1 with almost nothing available, a buy of
// 2 (cover and flip to long 1) leaves the worst position at 1 and needs nothing, so 2 is offered
// even though the fee-scaled estimate lands at 1.998. Guards margin/max-at-least-room.
func TestMaxSizeNeverBelowTheRoomItNeedsNothingFor(t *testing.T) {
	o := MarginOrder{Position: dm("-1"), Buy: true, Price: dm("100"), Mark: dm("100"), Leverage: dm("1"), TakerFee: dm("0.001")}
	got := o.MaxSize(dm("0.01"), dm("0.001"))
	o.Size = got
	if !got.Equal(dm("2")) || o.Need().Grows() {
		t.Fatalf("MaxSize = %s (grows: %v), want 2: a cover-and-flip to the same size needs nothing", got, o.Need().Grows())
	}
}

// TestMaxSizeEstimateCountsTheFee: the closed-form estimate divides by 1 + leverage x fee, so
// the step-down loop only corrects rounding. Without the fee term the estimate is 0.4 % high
// and the loop walks down a 1e-8 lot about 400,000 times per call (every keystroke in the form).
// Guards margin/max-fee.
func TestMaxSizeEstimateCountsTheFee(t *testing.T) {
	o := MarginOrder{Buy: true, Price: dm("100"), Mark: dm("100"), Leverage: dm("10"), TakerFee: dm("0.0004")}
	avail, lot := dm("1000"), dm("0.00000001")
	got := o.MaxSize(avail, lot)
	// avail x lev / px / (1 + lev x fee) = 100 / 1.004 = 99.60159362549800…
	if want := dm("99.60159362"); !got.Equal(want) {
		t.Fatalf("MaxSize = %s, want %s", got, want)
	}
	est := o.maxSizeEstimate(avail, decimal.Zero, lot)
	if steps := est.Sub(got).Div(lot); steps.GreaterThan(decimal.NewFromInt(2)) {
		t.Fatalf("estimate %s is %s lots above the answer", est, steps)
	}
}
