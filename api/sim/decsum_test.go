package sim

import (
	"math/big"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/shopspring/decimal"
)

// TestAddDecIsDecimalAdd: addDec and subDec give decimal's Add and Sub to the digit and the
// exponent (so a balance or a cost prints and persists as before) for coefficients from zero to
// past an int64, exponents 20 apart, and sums that overflow an int64; where they fit, it
// allocates half the bytes of decimal's (no rescaled big.Int: a house fill's cost and PnL). Guards: an operand not
// brought to the lower exponent, an overflow of the scaling or the sum taken as a result, a sign
// lost.
func TestAddDecIsDecimalAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 5))
	coef := func() *big.Int {
		switch rng.IntN(6) {
		case 0:
			return big.NewInt(0)
		case 1: // near the int64 limits
			return big.NewInt(int64(rng.Uint64()>>rng.IntN(3)) * int64(1-2*rng.IntN(2)))
		case 2: // past them
			b := new(big.Int).Lsh(big.NewInt(rng.Int64N(1000)+1), 64)
			if rng.IntN(2) == 0 {
				b.Neg(b)
			}
			return b
		}
		return big.NewInt(rng.Int64N(2_000_000_000_000) - 1_000_000_000_000)
	}
	dec := func() decimal.Decimal { return decimal.NewFromBigInt(coef(), int32(rng.IntN(21)-14)) }
	for i := range 200_000 {
		a, b := dec(), dec()
		if i%7 == 0 {
			b = decimal.Zero
		}
		for _, c := range []struct {
			name      string
			got, want decimal.Decimal
		}{{"+", addDec(a, b), a.Add(b)}, {"-", subDec(a, b), a.Sub(b)}} {
			if !c.got.Equal(c.want) || c.got.Exponent() != c.want.Exponent() || c.got.String() != c.want.String() {
				t.Fatalf("%s %s %s (exponents %d, %d): %s (exponent %d), want %s (exponent %d)", a, c.name, b,
					a.Exponent(), b.Exponent(), c.got, c.got.Exponent(), c.want, c.want.Exponent())
			}
		}
	}
	cost, fill := decimal.New(123456789, -6), decimal.New(98765, -3)
	var sink decimal.Decimal
	fast := allocated(func() { sink = addDec(cost, fill) })
	lib := allocated(func() { sink = cost.Add(fill) })
	if fast >= lib || !sink.Equal(addDec(cost, fill)) {
		t.Errorf("a cost and a notional of different exponents: %d bytes, decimal.Add %d", fast, lib)
	}
}

// allocated is the bytes f allocates, on average over 1,000 calls.
func allocated(f func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for range 1000 {
		f()
	}
	runtime.ReadMemStats(&m1)
	return (m1.TotalAlloc - m0.TotalAlloc) / 1000
}
