package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// MaxMarkets is the most synthetic markets WithMarkets adds.
const MaxMarkets = 2000

// syntheticBase is the first synthetic market's id less one: SYN1-PERP is instrument 1001.
const syntheticBase = 1000

// syntheticChartBytes is what the candles of all synthetic markets together may hold (made-up
// history and live bars alike): each one's share sets how many bars it keeps per resolution.
const syntheticChartBytes = 4 << 20

// WithMarkets adds n synthetic perpetuals, SYN1-PERP to SYNn-PERP (ids 1001 on), after the
// default instruments: prices from cents to tens of thousands, their own volatility and flow,
// quoted and traded like the others. Their candles are compact (see syntheticKeeps), so 500 of
// them hold a few MB in all. n outside 0 to MaxMarkets adds none.
func WithMarkets(n int) Option { return func(c *config) { c.markets = n } }

// CheckMarkets says what is wrong with a number of synthetic markets, or nil.
func CheckMarkets(n int) error {
	if n < 0 || n > MaxMarkets {
		return fmt.Errorf("%d synthetic markets: want 0 to %d", n, MaxMarkets)
	}
	return nil
}

// syntheticMarkets are n made-up perpetuals; each draws its terms from a generator of its own
// (seed and id), so market k is the same whatever n is.
func syntheticMarkets(seed uint64, n int) []marketSpec {
	if CheckMarkets(n) != nil {
		return nil
	}
	mid := makeTiers([3]string{"0", "20", "0.025"}, [3]string{"250000", "10", "0.05"}, [3]string{"1000000", "5", "0.1"})
	small := makeTiers([3]string{"0", "10", "0.05"}, [3]string{"100000", "5", "0.1"}, [3]string{"500000", "3", "0.15"})
	out := make([]marketSpec, n)
	for k := range out {
		id := api.InstrumentID(syntheticBase + k + 1)
		rng := rand.New(rand.NewPCG(seed^0x5eed5eed, uint64(id)))
		// A price from 0.01 to about 30000, quoted to four or five figures, a lot worth 1 to 10 USD.
		mag := math.Floor(-2 + rng.Float64()*6.5)
		px := math.Pow(10, mag) * (1 + rng.Float64()*8.99)
		tick := decimal.New(1, int32(mag)-4)
		lot := decimal.New(1, int32(math.Floor(-mag)))
		start := decimal.NewFromFloat(px).Div(tick).Round(0).Mul(tick)
		spec, tiers := "20", mid
		if k%3 == 2 {
			spec, tiers = "10", small
		}
		m := perp(id, fmt.Sprintf("SYN%d-PERP", k+1), tick.String(), lot.String(), spec, start.String(),
			0.00008+rng.Float64()*0.00017, tiers)
		m.flowPerMin = 2000 + rng.Float64()*40000
		m.listedAt = listed.Add(time.Duration(k) * time.Hour)
		m.synthetic = true
		out[k] = m
	}
	return out
}

// syntheticKeeps is how many bars a synthetic market keeps per resolution when n of them share
// syntheticChartBytes: the default resolutions' counts scaled down alike, at least 8 each, at
// most the default.
func syntheticKeeps(n int) []int {
	total := 0
	for _, r := range resolutions {
		total += r.keep
	}
	perMarket := float64(syntheticChartBytes) / float64(max(n, 1)) / (barBytes * 5 / 4)
	f := min(perMarket/float64(total), 1)
	out := make([]int, len(resolutions))
	for i, r := range resolutions {
		out[i] = max(int(float64(r.keep)*f), 8)
	}
	return out
}
