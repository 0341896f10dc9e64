package state

import (
	"strconv"

	"github.com/shopspring/decimal"
)

// stringFixed is d.StringFixed(places) (places 0 to 18): without a big.Int when d's coefficient
// and the rounded result fit an int64, which is every price, size and PnL a pane writes.
// Rounding is StringFixed's, half away from zero.
func stringFixed(d decimal.Decimal, places int32) string {
	if n, ok := roundedInt64(d, places); ok {
		var buf [48]byte
		return string(appendFixed(buf[:0], n, places, false))
	}
	return d.StringFixed(places)
}

// fixedText is d at places (0 to 18) as FormatPrice writes it (commas between thousands), with a
// + before a figure above zero when plus, then suffix: one allocation, the string, when d fits
// an int64 (roundedInt64); ok is false otherwise.
func fixedText(d decimal.Decimal, places int32, plus bool, suffix string) (string, bool) {
	n, ok := roundedInt64(d, places)
	if !ok {
		return "", false
	}
	var buf [64]byte
	b := buf[:0]
	if plus && n > 0 {
		b = append(b, '+')
	}
	b = append(appendFixed(b, n, places, true), suffix...)
	return string(b), true
}

var pow10 = func() (p [19]int64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// roundedInt64 is d x 10^places rounded half away from zero (StringFixed's rounding), when d's
// coefficient and the result fit an int64; ok is false otherwise.
func roundedInt64(d decimal.Decimal, places int32) (int64, bool) {
	if places < 0 || places > 18 || d.NumDigits() > 18 {
		return 0, false
	}
	c, shift := d.CoefficientInt64(), d.Exponent()+places
	var n int64
	switch {
	case shift >= 0:
		if shift > 18 || abs64(c) > (1<<63-1)/pow10[shift] {
			return 0, false
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
	return n, true
}

// appendFixed appends n x 10^-places as plain text ("-0.05", "1234.50"), with a comma between
// thousands of the integer part when group ("1,234.50").
func appendFixed(b []byte, n int64, places int32, group bool) []byte {
	if n < 0 {
		b = append(b, '-')
	}
	var buf [48]byte
	ds := strconv.AppendUint(buf[:0], uint64(abs64(n)), 10)
	if pad := int(places) + 1 - len(ds); pad > 0 { // "5" at 2 places is "0.05"
		ds = buf[:len(ds)+pad]
		copy(ds[pad:], ds[:len(ds)-pad])
		for i := range pad {
			ds[i] = '0'
		}
	}
	cut := len(ds) - int(places)
	for i, c := range ds[:cut] {
		if group && i > 0 && (cut-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, c)
	}
	if places > 0 {
		b = append(append(b, '.'), ds[cut:]...)
	}
	return b
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
