package state

import "testing"

// TestBracketLegsWords: the one wording of a bracket's legs the console's confirmation and the
// headless journal entry share: each leg given, at the instrument's price precision, in order.
func TestBracketLegsWords(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	for _, tc := range []struct{ tp, sl, want string }{
		{"51000", "48000", " tp 51,000.0 sl 48,000.0"},
		{"", "48500", " sl 48,500.0"},
		{"50000.5", "", " tp 50,000.5"},
	} {
		cb, errs := s.CheckBracket(BracketIntent{Entry: limitBuy("BTC-PERP", "49000", "0.01"), TakeProfit: tc.tp, StopLoss: tc.sl}, DefaultGuard())
		if len(errs) != 0 {
			t.Fatalf("%s/%s: %v", tc.tp, tc.sl, errs)
		}
		if got := cb.LegsWords(); got != tc.want {
			t.Errorf("tp %q sl %q: %q, want %q", tc.tp, tc.sl, got, tc.want)
		}
	}
}
