package sim

import (
	"testing"

	"github.com/shopspring/decimal"
)

// TestAPartialCloseDividesInIntegers (issue #34): a partial close's share of the position's
// cost is the library's figure to the digit (cost x closed / size, rounded to USDC's places),
// worked out in integers where it fits: the house accounts close part of a position in most
// trades, and the library's big.Int product and division were about 1,700 allocations a market
// step with --markets 500.
func TestAPartialCloseDividesInIntegers(t *testing.T) {
	e := New(WithSeed(1), WithQuietMarkets()).eng
	m, err := e.marketByName("BTC-PERP")
	if err != nil {
		t.Fatal(err)
	}
	a := e.taker
	const size, q, entry, exit = 37, 11, 973_001, 975_437 // lots and ticks: a share that rounds
	start := position{size: size, cost: m.notional(entry, size).Add(decimal.New(7, -7))}
	want := start.cost.Mul(decimal.NewFromInt(q)).DivRound(decimal.NewFromInt(size), e.decimalsOf(collUSDC))
	p := start
	pnl := e.closePart(a, m, &p, exit, q)
	if !p.cost.Equal(start.cost.Sub(want)) || !pnl.Equal(m.notional(exit, q).Sub(want)) {
		t.Fatalf("closing %d of %d: cost left %s, pnl %s; want %s and %s", q, size, p.cost, pnl,
			start.cost.Sub(want), m.notional(exit, q).Sub(want))
	}
	n := testing.AllocsPerRun(50, func() {
		p := start
		e.closePart(a, m, &p, exit, q)
	})
	if n > 12 {
		t.Errorf("a partial close: %.0f allocations, want at most 12 (16 with the library's product and division)", n)
	}
}
