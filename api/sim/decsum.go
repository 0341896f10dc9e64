package sim

import (
	"math/bits"

	"github.com/shopspring/decimal"
)

// addDec is a.Add(b) to the digit and the exponent (the lower of the two), worked in int64s
// when both coefficients, brought to that exponent, and the sum fit: decimal.Add rescales a
// big.Int for operands of different exponents (a position's cost and a fill's notional, a
// balance and a fill's PnL): twice the bytes, and the big.Int arithmetic's time.
func addDec(a, b decimal.Decimal) decimal.Decimal {
	x, y, e, ok := alignInt64(a, b)
	s := x + y
	if !ok || (y > 0 && s < x) || (y < 0 && s > x) {
		return a.Add(b)
	}
	return decimal.New(s, e)
}

// subDec is a.Sub(b) as addDec is a.Add(b).
func subDec(a, b decimal.Decimal) decimal.Decimal {
	x, y, e, ok := alignInt64(a, b)
	s := x - y
	if !ok || (y > 0 && s > x) || (y < 0 && s < x) {
		return a.Sub(b)
	}
	return decimal.New(s, e)
}

// alignInt64 is a's and b's coefficients at the lower of their exponents, and that exponent,
// when both fit an int64 there.
func alignInt64(a, b decimal.Decimal) (x, y int64, e int32, ok bool) {
	if a.NumDigits() > 18 || b.NumDigits() > 18 {
		return 0, 0, 0, false
	}
	ea, eb := a.Exponent(), b.Exponent()
	e = min(ea, eb)
	x, okx := scaleUp(a.CoefficientInt64(), int64(ea)-int64(e))
	y, oky := scaleUp(b.CoefficientInt64(), int64(eb)-int64(e))
	return x, y, e, okx && oky
}

// scaleUp is c x 10^k, when it fits an int64.
func scaleUp(c int64, k int64) (int64, bool) {
	if c == 0 || k == 0 {
		return c, true
	}
	if k > 18 || c == -1<<63 {
		return 0, false
	}
	hi, lo := bits.Mul64(uint64(abs(c)), pow10u64(int32(k)))
	if hi != 0 || lo >= 1<<63 {
		return 0, false
	}
	if c < 0 {
		return -int64(lo), true
	}
	return int64(lo), true
}
