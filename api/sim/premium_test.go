package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// The book's premium over the index, worked out in ticks, is the decimal the prices gave: at
// ticks from 0.5 to 1e-8 (odd multiples too), bids and asks either side of the index, crossed
// and wide books, cheap and dear markets. Guards (a money rule: funding is paid on it): the
// index counted once, not twice; the mid's halving dropped; a rounding other than the library's.
func TestPremiumInTicksIsThePrices(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 509))
	ticks := []string{"0.5", "0.1", "0.01", "0.05", "0.0001", "0.000001", "0.00000001", "1", "5", "25"}
	for range 20000 {
		m := &market{index: 1 + rng.Int64N(1e9)}
		m.tick = mustUnit(ticks[rng.IntN(len(ticks))])
		spread := 1 + rng.Int64N(m.index/50+2)
		bid := max(m.index-rng.Int64N(2*spread)+spread/2, 1)
		ask := bid + rng.Int64N(2*spread) - spread/4
		mid := m.px(bid + ask).Div(decimal.NewFromInt(2))
		idx := m.px(m.index)
		want := mid.Sub(idx).DivRound(idx, 10)
		if got := m.premium(bid, ask); !got.Equal(want) || got.Exponent() != want.Exponent() {
			t.Fatalf("tick %s index %d bid %d ask %d: premium %s, want %s", m.tick.d, m.index, bid, ask, got, want)
		}
	}
}

// refAccrue is accruePremium as it was in decimals alone (before the integer way), at a best bid
// and ask: the reference the integer way must match.
func refAccrue(m *market, bid, ask int64, both bool) {
	prem := decimal.Zero
	if both {
		prem = m.premium(bid, ask)
	}
	m.premSum = m.premSum.Add(prem)
	m.premN++
	avg := api.DivRound(m.premSum, decimal.NewFromInt(m.premN), 10)
	rate := api.Div(avg, premDivisor).Add(baseFunding)
	m.funding = decimal.Min(decimal.Max(rate, maxFundingNeg), maxFunding).Round(8)
}

// TestFundingInUnitsIsTheDecimals: the funding average kept in integers gives the predicted
// funding rate and the sum the decimal way gave, to the digit and the exponent, step after step:
// books either side of the index, one-sided books, premiums past the clamp both ways, ticks down
// to 10^-16 (the decimal way's), prices near the int64's end, sums loaded from a decimal (a
// restart) and started over (a payment). Guards (a money rule: funding is paid at this rate):
// the average's or the rate's rounding (half away from zero, at 10 and 8 places) off by one
// either way, the eighth or the interest dropped, the clamp's sides, an overflow not sent the
// decimal way. Under -race 1,000 runs, not 3,000 (one goroutine: the detector finds nothing in
// them, and makes each several times dearer); the plain run keeps 3,000.
func TestFundingInUnitsIsTheDecimals(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 2026))
	ticks := []string{"0.5", "0.1", "0.01", "0.0001", "0.00000001", "1", "25", "0.00000000000001", "0.0000000000000001"}
	runs := 3000
	if raceBuild {
		runs = 1000
	}
	for run := range runs {
		tick := mustUnit(ticks[rng.IntN(len(ticks))])
		index := 1 + rng.Int64N([]int64{10, 1e4, 1e9, 1 << 61}[rng.IntN(4)])
		got, want := &market{index: index}, &market{index: index}
		got.tick, want.tick = tick, tick
		if rng.IntN(4) == 0 { // a restart: the sum loaded as stored
			s := decimal.New(rng.Int64N(2e12)-1e12, -10)
			if rng.IntN(2) == 0 {
				s = decimal.Zero
			}
			n := 1 + rng.Int64N(100)
			got.premSum, got.premN, want.premSum, want.premN = s, n, s, n
		}
		for step := range 40 {
			spread := 1 + rng.Int64N(index/[]int64{2, 50, 1000}[rng.IntN(3)]+2)
			bid := max(index-rng.Int64N(2*spread)+spread/2, 1)
			ask := bid + rng.Int64N(2*spread) - spread/4
			both := rng.IntN(8) != 0
			got.accrue(bid, ask, both)
			refAccrue(want, bid, ask, both)
			if g, w := got.premiumSum(), want.premSum; g.String() != w.String() || got.premN != want.premN ||
				got.funding.String() != want.funding.String() || got.funding.Exponent() != want.funding.Exponent() {
				t.Fatalf("run %d step %d (tick %s, index %d, bid %d, ask %d, both %v): rate %s (exp %d), sum %s/%d; the decimals: %s (exp %d), %s/%d",
					run, step, tick.d, index, bid, ask, both, got.funding, got.funding.Exponent(), g, got.premN,
					want.funding, want.funding.Exponent(), w, want.premN)
			}
			if rng.IntN(30) == 0 {
				got.resetPremium()
				want.premSum, want.premN = decimal.Zero, 0
			}
		}
	}
}

// TestFundingInUnitsAllocatesOnlyTheRate: a step's funding average for one market makes only the
// rate's decimal (the decimals' way made about ten allocations a market, 5,000 a step at 500
// markets). Guards: the decimal way taken for ordinary figures.
func TestFundingInUnitsAllocatesOnlyTheRate(t *testing.T) {
	m := &market{index: 900_000}
	m.tick = mustUnit("0.1")
	if n := testing.AllocsPerRun(100, func() { m.accrue(899_990, 900_030, true) }); n > 2 {
		t.Errorf("%.0f allocations a market's step, want at most 2", n)
	}
}
