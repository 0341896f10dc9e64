package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
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
