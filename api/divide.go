package api

import (
	"math/bits"

	"github.com/shopspring/decimal"
)

// Div is a.Div(b): a / b rounded half away from zero to decimal.DivisionPrecision places, the
// same decimal (coefficient and exponent) as the library's. b must not be zero.
func Div(a, b decimal.Decimal) decimal.Decimal {
	return DivRound(a, b, int32(decimal.DivisionPrecision))
}

// DivRound is a.DivRound(b, places), worked out in 128-bit integers when both coefficients and
// the quotient fit an int64 (every ROE, distance and mark a pane shows, every funding premium
// the simulator averages: the library's big.Int division cost a dozen allocations each, 100 of
// them a ticker update with 100 positions, 1,500 a market step with 500 markets); otherwise by
// the library. The result is the library's to the digit and to the exponent.
func DivRound(a, b decimal.Decimal, places int32) decimal.Decimal {
	if q, ok := divRoundInt64(a, b, places); ok {
		return q
	}
	return a.DivRound(b, places)
}

// divRoundInt64 is DivRound's integer path; ok is false when a figure does not fit.
func divRoundInt64(a, b decimal.Decimal, places int32) (decimal.Decimal, bool) {
	if b.IsZero() || a.NumDigits() > 18 || b.NumDigits() > 18 || places < 0 || places > 18 {
		return decimal.Decimal{}, false
	}
	ac, bc := a.CoefficientInt64(), b.CoefficientInt64()
	// a / b = ac / bc x 10^(ea - eb): the quotient's coefficient at 10^-places is
	// ac x 10^e / bc, e = ea - eb + places, rounded as the library rounds (its QuoRem's
	// truncation, then one unit away from zero when twice the remainder reaches the divisor).
	e := int64(a.Exponent()) - int64(b.Exponent()) + int64(places)
	ua, ub := uint64(abs64(ac)), uint64(abs64(bc))
	var q, r, d uint64
	switch {
	case e >= 0 && e <= 19:
		hi, lo := bits.Mul64(ua, pow10u(e))
		if hi >= ub {
			return decimal.Decimal{}, false // the quotient needs more than 64 bits
		}
		q, r = bits.Div64(hi, lo, ub)
		d = ub
	case e < 0 && e >= -19:
		hi, lo := bits.Mul64(ub, pow10u(-e))
		if hi != 0 { // the divisor is over 2^64 and ua under 2^63: the quotient rounds to 0
			return decimal.New(0, -places), true
		}
		q, r, d = ua/lo, ua%lo, lo
	default:
		return decimal.Decimal{}, false
	}
	if r >= d-r { // 2r >= d, without overflowing
		q++
	}
	if q > 1<<62 {
		return decimal.Decimal{}, false
	}
	n := int64(q)
	if (ac < 0) != (bc < 0) {
		n = -n
	}
	return decimal.New(n, -places), true
}

// pow10u is 10^e for e from 0 to 19.
func pow10u(e int64) uint64 {
	p := uint64(1)
	for range e {
		p *= 10
	}
	return p
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Mul is a.Mul(b), the same decimal (coefficient and exponent), multiplied in 64-bit integers
// when both coefficients and the product fit an int64 (a position's notional, PnL and ROE: the
// library's big.Int product allocates a word buffer of six); otherwise by the library.
func Mul(a, b decimal.Decimal) decimal.Decimal {
	e := int64(a.Exponent()) + int64(b.Exponent())
	if a.NumDigits() > 18 || b.NumDigits() > 18 || e != int64(int32(e)) {
		return a.Mul(b)
	}
	x, y := a.CoefficientInt64(), b.CoefficientInt64()
	hi, lo := bits.Mul64(uint64(abs64(x)), uint64(abs64(y)))
	if hi != 0 || lo >= 1<<63 {
		return a.Mul(b)
	}
	p := int64(lo)
	if (x < 0) != (y < 0) {
		p = -p
	}
	return decimal.New(p, int32(e))
}
