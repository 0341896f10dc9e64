package api

import (
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

// DivRound gives the library's DivRound to the digit and the exponent: on figures like the
// panes' (prices, sizes, PnL, leverage, from cents to millions, either sign), on halves that
// round away from zero either way, and on figures too wide for its integer path. Guards: a
// rounding other than half away from zero (a half-cent ROE on the wrong side); a quotient
// truncated; a wrong sign; an exponent other than the library's.
func TestDivRoundIsTheLibrarys(t *testing.T) {
	t.Parallel()
	cases := [][2]string{
		{"1", "3"}, {"2", "3"}, {"-2", "3"}, {"2", "-3"}, {"-2", "-3"}, {"0", "7"},
		{"1", "8"}, {"-1", "8"}, {"5", "2"}, {"-5", "2"}, {"12345.67499999999938", "1"},
		{"0.000000000000000005", "1"}, {"0.000000000000000015", "1"}, {"-0.000000000000000025", "1"},
		{"246.913", "2.0000"}, {"99999999999999999", "0.0000001"}, {"1", "99999999999999999"},
		{"123456789012345678", "0.000000000000000001"}, {"1", "1000000000000000000000"},
		{"123456789012345678901234567890", "7"}, {"3", "123456789012345678901234567890"},
	}
	check := func(a, b decimal.Decimal, places int32) {
		t.Helper()
		want, got := a.DivRound(b, places), DivRound(a, b, places)
		if !got.Equal(want) || got.Exponent() != want.Exponent() || got.String() != want.String() {
			t.Fatalf("%s / %s at %d places: %s (exp %d), want %s (exp %d)", a, b, places, got, got.Exponent(), want, want.Exponent())
		}
	}
	for _, c := range cases {
		for _, places := range []int32{0, 2, 8, 16, 18} {
			check(dec(c[0]), dec(c[1]), places)
		}
	}
	rng := rand.New(rand.NewPCG(34, 500))
	for range randomCases() {
		a := decimal.New(rng.Int64N(2e12)-1e12, -rng.Int32N(12))
		b := decimal.New(rng.Int64N(2e9)-1e9, -rng.Int32N(12))
		if b.IsZero() {
			continue
		}
		check(a, b, int32(decimal.DivisionPrecision))
		check(a, b, rng.Int32N(19))
		h := decimal.New(rng.Int64N(2e6)-1e6, -rng.Int32N(6)) // a divisor of 2: halves
		check(decimal.New(h.CoefficientInt64()*2+1, h.Exponent()-1), dec("2"), rng.Int32N(8))
	}
}

// Mul gives the library's Mul to the digit and the exponent: signs, zero, products near and past
// the int64 range, figures too wide for its integer path. Guards: a sign lost; an overflowed
// product; an exponent other than the library's.
func TestMulIsTheLibrarys(t *testing.T) {
	t.Parallel()
	check := func(a, b decimal.Decimal) {
		t.Helper()
		want, got := a.Mul(b), Mul(a, b)
		if !got.Equal(want) || got.Exponent() != want.Exponent() || got.String() != want.String() {
			t.Fatalf("%s x %s: %s (exp %d), want %s (exp %d)", a, b, got, got.Exponent(), want, want.Exponent())
		}
	}
	for _, c := range [][2]string{{"0", "5"}, {"-0.5", "3"}, {"-2", "-3.25"}, {"3037000499.97604969", "3037000499.97604969"},
		{"3037000500", "3037000500"}, {"-9223372036854775807", "1"}, {"922337203685477580.8", "-10"},
		{"123456789012345678901234567890", "2"}, {"1e-30", "1e30"}} {
		check(dec(c[0]), dec(c[1]))
		check(dec(c[1]), dec(c[0]))
	}
	rng := rand.New(rand.NewPCG(34, 2))
	for range randomCases() {
		a := decimal.New(rng.Int64N(2e12)-1e12, -rng.Int32N(12))
		b := decimal.New(rng.Int64N(2e9)-1e9, -rng.Int32N(12))
		check(a, b)
	}
}

// randomCases is how many random figures TestDivRoundIsTheLibrarys and TestMulIsTheLibrarys
// check: 100,000 in the plain run, 20,000 under -race (one goroutine: the detector finds
// nothing in them, and makes each several times dearer).
func randomCases() int {
	if raceBuild {
		return 20000
	}
	return 100000
}
