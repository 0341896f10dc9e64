package sim

import (
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// FuzzCountText: whenever the fast reader accepts a text, the decimal path reads the same count.
func FuzzCountText(f *testing.F) {
	for _, s := range []string{"97000.5", "0.0001", "1", "0.00100", "1e3", "-1", " 1", "1.", ".5", "0",
		"123456789012345678", "1234567890123456789", "000000000000000000000001", "97000.55"} {
		f.Add(s, "0.1")
		f.Add(s, "0.0001")
		f.Add(s, "25")
	}
	f.Fuzz(func(t *testing.T, s, unitText string) {
		d, err := decimal.NewFromString(unitText)
		if err != nil || !d.IsPositive() || d.Exponent() < -12 || d.Exponent() > 6 || d.Coefficient().BitLen() > 20 {
			return
		}
		u := mustUnit(unitText)
		n, ok := u.countText(s)
		if !ok {
			return
		}
		v, err := decimal.NewFromString(s)
		if err != nil {
			t.Fatalf("countText(%q) = %d but the decimal path cannot read it: %v", s, n, err)
		}
		want, err := u.count(v, "x")
		if err != nil || want != n || n <= 0 {
			t.Fatalf("countText(%q) in %s = %d, the decimal path %d (%v)", s, unitText, n, want, err)
		}
	})
}

func TestCountText(t *testing.T) {
	t.Parallel()
	tick := mustUnit("0.1")
	for s, want := range map[string]int64{"97000.5": 970005, "97000.50": 970005, "0.1": 1, "10": 100, "007.0": 70} {
		if n, ok := tick.countText(s); !ok || n != want {
			t.Errorf("%q: %d %v, want %d", s, n, ok, want)
		}
	}
	for _, s := range []string{"97000.55", "0", "", "-1", "1e3", " 1", "1.", ".5", "1.2.3", "12345678901234567890"} {
		if n, ok := tick.countText(s); ok {
			t.Errorf("%q read as %d: the decimal path must explain it", s, n)
		}
	}
}

// TestNotionalIsTheLibrarysProduct: a price count times a size count in USD, worked out in an
// int64, is the library's product of the two decimals to the coefficient and the exponent, for
// ticks and lots from 25 to 10^-8, both signs, and counts up to where the product leaves an int64
// (then the library's); and it makes one decimal, not three. Guards (a money rule: every fill's
// cost, PnL, fee and volume are notionals): the exponent of one unit alone, a sign lost, an
// overflow not sent to the library.
func TestNotionalIsTheLibrarysProduct(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 260))
	units := []string{"25", "5", "1", "0.5", "0.1", "0.01", "0.0001", "0.000001", "0.00000001", "0.00025"}
	for range 50000 {
		m := &market{}
		m.tick, m.lot = mustUnit(units[rng.IntN(len(units))]), mustUnit(units[rng.IntN(len(units))])
		ticks := rng.Int64N([]int64{10, 1e6, 1e12, maxUnits}[rng.IntN(4)])
		lots := rng.Int64N([]int64{10, 1e6, 1e12, maxUnits}[rng.IntN(4)])
		if rng.IntN(4) == 0 {
			ticks = -ticks
		}
		if rng.IntN(4) == 0 {
			lots = -lots
		}
		got, want := m.notional(ticks, lots), m.tick.dec(ticks).Mul(m.lot.dec(lots))
		if !got.Equal(want) || got.Exponent() != want.Exponent() || got.String() != want.String() {
			t.Fatalf("%d x %s by %d x %s: %s (exp %d), the library %s (exp %d)", ticks, m.tick.d, lots, m.lot.d, got, got.Exponent(), want, want.Exponent())
		}
	}
	m := &market{}
	m.tick, m.lot = mustUnit("0.1"), mustUnit("0.0001")
	if n := testing.AllocsPerRun(100, func() { _ = m.notional(900_000, 25) }); n > 2 {
		t.Errorf("a notional: %.0f allocations, want at most 2 (one decimal)", n)
	}
}
