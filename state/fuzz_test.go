package state

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// plainPositive is an independent reading of "a plain positive decimal number": digits with at most
// one point, at least one digit, not all zeros.
func plainPositive(s string) (decimal.Decimal, bool) {
	s = strings.TrimSpace(s)
	digits, points := 0, 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '.':
			points++
		default:
			return decimal.Zero, false
		}
	}
	if digits == 0 || points > 1 || len(s) > maxNumberLen {
		return decimal.Zero, false
	}
	v, err := decimal.NewFromString(s)
	if err != nil || !v.IsPositive() {
		return decimal.Zero, false
	}
	return v, true
}

// FuzzCheckOrder feeds random text to every numeric field of an intent: CheckOrder must not panic,
// and whatever it accepts must have come from well-formed input and be on the instrument's grid.
func FuzzCheckOrder(f *testing.F) {
	seeds := [][5]string{
		{"49000", "0.01", "", "", ""},
		{"49000.3", "0.0105", "45000", "", "0.02"},
		{"", "", "", "1000", ""},
		{"-1", "1e3", "0x10", "NaN", "-0.1"},
		{"5e4", ".5", "45000.", "１２", "0.5"},
		{" 50000 ", "0.010", "45000", "", "0.00000001"},
		{"99999999999999999999999999999999999999999", "0.001", "1", "1", "1"},
		{"0.5", "1000000", "0", ".", "."},
	}
	for i, s := range seeds {
		f.Add(s[0], s[1], s[2], s[3], s[4], uint8(i%3), i%2 == 0, i%4 == 0)
	}
	now := t0
	st := loadedStore(&now)
	f.Fuzz(func(t *testing.T, price, size, trigger, notional, slip string, typ uint8, buy, reduce bool) {
		in := OrderIntent{Instrument: "BTC-PERP", Side: "s", Type: OrderType(typ % 4), Price: price, Size: size,
			TriggerPx: trigger, NotionalUSD: notional, Tpsl: "sl", ReduceOnly: reduce}
		if buy {
			in.Side = "b"
		}
		if v, err := decimal.NewFromString(slip); err == nil {
			in.Slippage = v
		}
		co, errs := st.CheckOrder(in, DefaultGuard())
		if len(errs) != 0 {
			return
		}
		checkAccepted(t, in, co)
	})
}

func checkAccepted(t *testing.T, in OrderIntent, co CheckedOrder) {
	inst := co.Instrument
	if in.Type > Trigger {
		t.Fatalf("accepted order type %d", in.Type)
	}
	if in.Type == Limit || (in.Type == Trigger && strings.TrimSpace(in.Price) != "") {
		p, ok := plainPositive(in.Price)
		if !ok || !OnStep(p, inst.TickSize) || co.Wire.Price != p.String() {
			t.Fatalf("accepted price %q as %q", in.Price, co.Wire.Price)
		}
	}
	if in.Type == Trigger {
		p, ok := plainPositive(in.TriggerPx)
		if !ok || !OnStep(p, inst.TickSize) || co.Wire.TriggerPx != p.String() {
			t.Fatalf("accepted trigger %q as %q", in.TriggerPx, co.Wire.TriggerPx)
		}
	}
	if strings.TrimSpace(in.Size) != "" {
		sz, ok := plainPositive(in.Size)
		if !ok || !OnStep(sz, inst.LotSize) || co.Wire.Size != sz.String() {
			t.Fatalf("accepted size %q as %q", in.Size, co.Wire.Size)
		}
	} else if _, ok := plainPositive(in.NotionalUSD); !ok {
		t.Fatalf("accepted notional %q", in.NotionalUSD)
	}
	px, err1 := decimal.NewFromString(co.Wire.Price)
	sz, err2 := decimal.NewFromString(co.Wire.Size)
	if err1 != nil || err2 != nil || !px.IsPositive() || !sz.IsPositive() || !OnStep(px, inst.TickSize) || !OnStep(sz, inst.LotSize) {
		t.Fatalf("wire off the grid: %+v", co.Wire)
	}
	if !in.ReduceOnly && co.Preview.Notional.LessThan(inst.MinNotional) {
		t.Fatalf("accepted notional %s under the minimum", co.Preview.Notional)
	}
	if in.Slippage.IsNegative() || in.Slippage.GreaterThan(maxSlippage) {
		t.Fatalf("accepted slippage %s", in.Slippage)
	}
}
