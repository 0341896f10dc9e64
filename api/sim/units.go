package sim

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// unit is a quantum m×10^e (a tick or lot size). Books keep prices and sizes as whole counts of
// their unit, so matching runs on int64; decimals appear only at the edges.
type unit struct {
	m int64
	e int32
	d decimal.Decimal
	f float64 // d.InexactFloat64(), kept: the market step sizes every quote with it
}

func mustUnit(s string) unit {
	d := decimal.RequireFromString(s)
	e := d.Exponent()
	m := d.Coefficient().Int64()
	for m%10 == 0 && m != 0 {
		m /= 10
		e++
	}
	d = decimal.New(m, e)
	return unit{m: m, e: e, d: d, f: d.InexactFloat64()}
}

// dec returns n units as a decimal.
func (u unit) dec(n int64) decimal.Decimal { return decimal.New(n*u.m, u.e) }

// maxUnits bounds counts so products of a price count and a size count stay far from overflow in
// the places that multiply them as int64.
const maxUnits = 1e15

// count returns d as a whole number of units, or an error naming the unit when d is not a
// multiple of it.
func (u unit) count(d decimal.Decimal, what string) (int64, error) {
	s := d.Shift(-u.e)
	if !s.IsInteger() {
		return 0, fmt.Errorf("%s %s is not a multiple of %s", what, d, u.d)
	}
	if s.Abs().GreaterThan(decimal.New(maxUnits, 0)) {
		return 0, fmt.Errorf("%s %s is too large", what, d)
	}
	n := s.IntPart()
	if n%u.m != 0 {
		return 0, fmt.Errorf("%s %s is not a multiple of %s", what, d, u.d)
	}
	return n / u.m, nil
}

// round returns d rounded to the nearest whole number of units.
func (u unit) round(d decimal.Decimal) int64 {
	return d.Div(u.d).Round(0).IntPart()
}

// countText reads a plain decimal text such as "97000.5" as a whole, positive number of units
// without allocating. ok is false for anything else (a sign, an exponent, spaces, more than 18
// digits, zero, not a multiple, too large): the caller then takes the decimal path, which says
// what is wrong. When ok is true the count equals what the decimal path gives.
func (u unit) countText(s string) (n int64, ok bool) {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' {
		return 0, false
	}
	var mant int64
	var exp int32
	dot, digits := false, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			if mant != 0 || c != '0' {
				digits++
			}
			if digits > 18 {
				return 0, false
			}
			mant = mant*10 + int64(c-'0')
			if dot {
				exp--
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	if mant == 0 {
		return 0, false
	}
	for shift := exp - u.e; shift != 0; {
		if shift > 0 {
			if mant > maxUnits {
				return 0, false
			}
			mant *= 10
			shift--
			continue
		}
		if mant%10 != 0 {
			return 0, false
		}
		mant /= 10
		shift++
	}
	if mant%u.m != 0 || mant > maxUnits {
		return 0, false
	}
	return mant / u.m, true
}
