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
}

func mustUnit(s string) unit {
	d := decimal.RequireFromString(s)
	e := d.Exponent()
	m := d.Coefficient().Int64()
	for m%10 == 0 && m != 0 {
		m /= 10
		e++
	}
	return unit{m: m, e: e, d: decimal.New(m, e)}
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
