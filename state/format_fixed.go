package state

import (
	"strconv"

	"github.com/shopspring/decimal"
)

// stringFixed is d.StringFixed(places) (places 0 to 18): without a big.Int when d's coefficient
// and the rounded result fit an int64, which is every price, size and PnL a pane writes.
// Rounding is StringFixed's, half away from zero.
func stringFixed(d decimal.Decimal, places int32) string {
	if s, ok := fixedInt64(d, places); ok {
		return s
	}
	return d.StringFixed(places)
}

var pow10 = func() (p [19]int64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// fixedInt64 is stringFixed's int64 path; ok is false when d or the result does not fit.
func fixedInt64(d decimal.Decimal, places int32) (string, bool) {
	if places < 0 || places > 18 || d.NumDigits() > 18 {
		return "", false
	}
	c, shift := d.CoefficientInt64(), d.Exponent()+places
	var n int64 // d × 10^places, rounded half away from zero
	switch {
	case shift >= 0:
		if shift > 18 || abs64(c) > (1<<63-1)/pow10[shift] {
			return "", false
		}
		n = c * pow10[shift]
	case shift >= -18:
		p := pow10[-shift]
		n = c / p
		if r := abs64(c % p); 2*r >= p {
			n += sign64(c)
		}
	default: // |c| < 10^18, far under half of 10^19 or more
	}
	b := make([]byte, 0, 24)
	if n < 0 {
		b = append(b, '-')
	}
	digits := strconv.AppendInt(nil, abs64(n), 10)
	for int32(len(digits)) <= places {
		digits = append([]byte{'0'}, digits...)
	}
	cut := len(digits) - int(places)
	b = append(b, digits[:cut]...)
	if places > 0 {
		b = append(append(b, '.'), digits[cut:]...)
	}
	return string(b), true
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func sign64(x int64) int64 {
	if x < 0 {
		return -1
	}
	return 1
}
