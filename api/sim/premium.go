package sim

import (
	"math/bits"

	"github.com/shopspring/decimal"
)

// The funding average in integers (issue #34). accruePremium runs for every perpetual every
// step; in decimals it made about ten allocations a market (the sum, the average, the rate, the
// clamp's rounding), 5,000 a step at 500 markets. The premium has 10 places (premium), so the
// sum is a whole number of 10^-10 (premUnits); the average rounds to the same places, an eighth
// of it is exact at the library's 16 places, the interest is added there, and the rate is
// rounded to 8: the decimal path's figures to the digit
// (TestFundingInUnitsIsTheDecimals). A tick under 10^-14 (premium divides the prices there) or a
// figure past an int64 goes the decimal way, which then keeps the sum (spillUnits).
const (
	premScale          = 10_000_000_000     // 10^10: a premium's units
	fundingPerAvgUnit  = 125_000            // an average's unit, over 8, in 10^-16
	baseFundingUnits   = 125_000_000_000    // baseFunding (0.0000125) in 10^-16
	maxFundingUnits    = 40_000_000_000_000 // maxFunding (0.004) in 10^-16
	fundingRoundUnits  = 100_000_000        // 10^-16 to the rate's 8 places
	maxPremiumPriceTks = 1 << 60            // bids, asks and indexes past this go the decimal way
)

// accrueUnits is accruePremium in integers, with the best bid and ask (both: the book has both
// sides); false, and nothing changed, where the decimal way must do it.
func (m *market) accrueUnits(bid, ask int64, both bool) bool {
	if m.tick.e < -14 || !m.toUnits() {
		return false
	}
	var p int64
	if both {
		if max(bid, ask, m.index) > maxPremiumPriceTks || min(bid, ask) < 0 || m.index <= 0 {
			return false
		}
		var ok bool
		if p, ok = divRoundHalfAway(bid+ask-2*m.index, 2*m.index, premScale); !ok {
			return false
		}
	}
	s := m.premUnits + p
	if (m.premUnits >= 0) == (p >= 0) && (s >= 0) != (p >= 0) {
		return false // the sum overflows
	}
	avg, _ := divRoundHalfAway(s, m.premN+1, 1) // |avg| <= |s|: it fits
	if avg > (1<<62)/fundingPerAvgUnit || avg < -(1<<62)/fundingPerAvgUnit {
		return false
	}
	r := min(max(avg*fundingPerAvgUnit+baseFundingUnits, -maxFundingUnits), maxFundingUnits)
	f, _ := divRoundHalfAway(r, fundingRoundUnits, 1)
	m.premUnits, m.premN = s, m.premN+1
	if m.funding.Exponent() != -8 || m.funding.CoefficientInt64() != f {
		m.funding = decimal.New(f, -8) // a new decimal only for a new rate: most steps keep it
	}
	return true
}

// toUnits keeps the sum in premUnits if it is not there yet: false when it is not a whole
// number of 10^-10 within an int64.
func (m *market) toUnits() bool {
	if m.premInUnits {
		return true
	}
	s := m.premSum
	e := s.Exponent() + 10
	if e < 0 || e > 18 || s.NumDigits() > 18 {
		return false
	}
	c := s.CoefficientInt64()
	hi, lo := bits.Mul64(uint64(max(c, -c)), pow10u64(e))
	if hi != 0 || lo >= 1<<63 {
		return false
	}
	m.premUnits, m.premInUnits = int64(lo), true
	if c < 0 {
		m.premUnits = -m.premUnits
	}
	return true
}

// spillUnits moves the sum back into premSum for the decimal way.
func (m *market) spillUnits() {
	if m.premInUnits {
		m.premSum, m.premInUnits = decimal.New(m.premUnits, -10), false
	}
}

// premiumSum is the funding average's sum as the decimal way keeps it, wherever it is kept.
func (m *market) premiumSum() decimal.Decimal {
	if m.premInUnits {
		return decimal.New(m.premUnits, -10)
	}
	return m.premSum
}

// resetPremium starts the funding average over (after a payment).
func (m *market) resetPremium() {
	m.premSum, m.premN, m.premUnits, m.premInUnits = decimal.Zero, 0, 0, false
}

// divRoundHalfAway is a x scale / b rounded half away from zero, as the decimal library's
// DivRound rounds; ok is false when the quotient does not fit an int64. b must be positive.
func divRoundHalfAway(a, b int64, scale uint64) (int64, bool) {
	ua := uint64(a)
	if a < 0 {
		ua = -ua
	}
	hi, lo := bits.Mul64(ua, scale)
	if hi >= uint64(b) {
		return 0, false
	}
	q, r := bits.Div64(hi, lo, uint64(b))
	if r >= uint64(b)-r {
		q++
	}
	if q >= 1<<63 {
		return 0, false
	}
	if a < 0 {
		return -int64(q), true
	}
	return int64(q), true
}

// pow10u64 is 10^e for e from 0 to 19.
func pow10u64(e int32) uint64 {
	p := uint64(1)
	for range e {
		p *= 10
	}
	return p
}
