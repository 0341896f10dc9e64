package state

import (
	"strings"
	"testing"
)

// Which orders ask to be confirmed, under each policy: the mass-risk ones (a warning) under
// every policy, market and trigger orders, limit orders through the book and brackets under the
// default, every order under "every", and nothing else under "warned". Guards a flipped policy, a
// dropped market, trigger or crossing branch (a market order, or a limit priced through the ask,
// sent on Enter under the default), a dropped warning branch (a far-off order sent unconfirmed
// under "warned"), and a bracket sent unconfirmed under the default.
func TestConfirmPolicyAsksForWhatItSays(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	market := OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: Market, Size: "0.01"}
	trigger := OrderIntent{Instrument: "BTC-PERP", Side: "sell", Type: Trigger, Size: "0.01", Price: "44000", Tif: "GTC",
		TriggerPx: "45000", Tpsl: "sl"}
	near := limitBuy("BTC-PERP", "49900", "0.01")
	cross := limitBuy("BTC-PERP", "50100", "0.01") // through the ask 50,000.5: fills at once
	far := limitBuy("BTC-PERP", "40000", "0.01")   // 20% under the mark: the guard warns
	large := limitBuy("BTC-PERP", "49900", "0.1")  // 4,990 USD: over the 1,000 USD limit set below
	for _, tc := range []struct {
		policy ConfirmPolicy
		in     OrderIntent
		want   bool
	}{
		{ConfirmRisky, near, false},
		{ConfirmRisky, cross, true},
		{ConfirmRisky, market, true},
		{ConfirmRisky, trigger, true},
		{ConfirmRisky, far, true},
		{ConfirmRisky, large, true},
		{"", near, false},
		{"", market, true},
		{ConfirmEvery, near, true},
		{ConfirmEvery, market, true},
		{ConfirmWarned, near, false},
		{ConfirmWarned, cross, false},
		{ConfirmWarned, market, false},
		{ConfirmWarned, trigger, false},
		{ConfirmWarned, far, true},
		{ConfirmWarned, large, true},
	} {
		g := DefaultGuard()
		g.Confirm, g.MaxNotional = tc.policy, d("1000")
		c, errs := s.CheckOrder(tc.in, g)
		if len(errs) > 0 {
			t.Fatalf("%s %+v: %v", tc.policy, tc.in, errs)
		}
		if c.NeedsConfirm != tc.want {
			t.Errorf("policy %q, %s %s @ %s: asks %v, want %v (warnings %v)", tc.policy, tc.in.Type, tc.in.Size, tc.in.Price,
				c.NeedsConfirm, tc.want, c.Warnings)
		}
	}
	for _, tc := range []struct {
		policy ConfirmPolicy
		entry  OrderIntent
		want   bool
	}{
		{ConfirmRisky, near, true},
		{ConfirmEvery, near, true},
		{ConfirmWarned, near, false},
		{ConfirmWarned, large, true},
	} {
		g := DefaultGuard()
		g.Confirm, g.MaxNotional = tc.policy, d("1000")
		cb, errs := s.CheckBracket(BracketIntent{Entry: tc.entry, TakeProfit: "2%", StopLoss: "1%"}, g)
		if len(errs) > 0 {
			t.Fatalf("bracket %s: %v", tc.policy, errs)
		}
		if cb.NeedsConfirm != tc.want {
			t.Errorf("policy %q, bracket on %s: asks %v, want %v", tc.policy, tc.entry.Size, cb.NeedsConfirm, tc.want)
		}
	}
}

// A cancel of one order asks only under "every"; the policy's name is read case-blind, "" is the
// default, and a wrong name says which names there are.
func TestConfirmPolicyCancelAndNames(t *testing.T) {
	for p, want := range map[ConfirmPolicy]bool{ConfirmRisky: false, ConfirmEvery: true, ConfirmWarned: false, "": false} {
		if p.AsksCancel() != want {
			t.Errorf("policy %q asks for a cancel: %v, want %v", p, p.AsksCancel(), want)
		}
	}
	for in, want := range map[string]ConfirmPolicy{"": ConfirmRisky, "risky": ConfirmRisky, "EVERY": ConfirmEvery, "warned": ConfirmWarned} {
		if got, err := ParseConfirmPolicy(in); err != nil || got != want {
			t.Errorf("ParseConfirmPolicy(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	_, err := ParseConfirmPolicy("never")
	if err == nil || !strings.Contains(err.Error(), `"never"`) || !strings.Contains(err.Error(), "risky, every, warned") {
		t.Errorf("a wrong name: %v", err)
	}
}

// A limit order priced through the book fills at once like a market order, so the market-order
// limit holds for it too (QA: a 68k USD limit buy through the ask went out on one Enter while the
// same market order asked for a typed yes); a limit that rests does not. Guards the crossing branch
// dropped, and the limit applied to resting orders.
func TestMarketLimitHoldsForALimitThroughTheBook(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	g := DefaultGuard()
	g.MaxMarketNotional = d("400")
	c, errs := s.CheckOrder(limitBuy("BTC-PERP", "50100", "0.01"), g) // 501 USD through the ask
	if len(errs) > 0 || !c.NeedsTypedConfirm || !strings.Contains(strings.Join(c.Warnings, "\n"), "crosses the book: 501.00 USD of it fills at once") {
		t.Errorf("a limit through the book over the market limit: typed %v, warnings %q, errors %v", c.NeedsTypedConfirm, c.Warnings, errs)
	}
	c, _ = s.CheckOrder(limitBuy("BTC-PERP", "49900", "0.01"), g) // 499 USD, rests under the bid
	if len(c.Warnings) > 0 || c.NeedsConfirm || !c.Rests {
		t.Errorf("a resting limit: warnings %q, asks %v, rests %v", c.Warnings, c.NeedsConfirm, c.Rests)
	}
}
