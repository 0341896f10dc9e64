package state

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// TestCheckLeverage: the ETH-PERP position (2 at the mark 3000, 10x: 600 of margin) frees margin
// at a higher leverage and needs more at a lower one; past the available margin the change is
// refused (guards a flipped Delta/Available comparison and a dropped sign), and over the tier or
// the instrument's maximum too.
func TestCheckLeverage(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	c, err := s.CheckLeverage("ETH-PERP", 20)
	if err != nil || c.Err != "" {
		t.Fatalf("20x: %+v %v", c, err)
	}
	checkDec(t, "current", c.Current, "10")
	checkDec(t, "notional", c.Notional, "6000")
	checkDec(t, "margin now", c.MarginNow, "600")
	checkDec(t, "delta at 20x", c.Delta(), "-300")
	if !strings.Contains(c.Effect(), "frees 300.00 USDC") {
		t.Errorf("effect %q", c.Effect())
	}
	c, _ = s.CheckLeverage("ETH-PERP", 2)
	checkDec(t, "delta at 2x", c.Delta(), "2400")
	if c.Err != "" || !strings.Contains(c.Effect(), "needs 2,400.00 USDC more") {
		t.Errorf("2x: %q %q", c.Err, c.Effect())
	}
	// 1x needs 5400 more; with 5000 available it is refused.
	acct := testAccount()
	acct.AvailableBalance = d("5000")
	s.Apply(AccountMsg{Summary: acct})
	c, _ = s.CheckLeverage("ETH-PERP", 1)
	if !strings.Contains(c.Err, "under margin") || !strings.Contains(c.Err, "5,400.00 USDC more and 5,000.00 is available") {
		t.Errorf("1x: %q", c.Err)
	}
	if c, _ = s.CheckLeverage("ETH-PERP", 26); !strings.Contains(c.Err, "over the 25x") {
		t.Errorf("26x: %q", c.Err)
	}
	// A 30 BTC position (1.5M USD) is in the 20x tier.
	s.Apply(PositionsMsg{Positions: append(testPositions(), api.Position{Instrument: "BTC-PERP", InstrumentID: 1, Size: d("30"), EntryPrice: d("50000"), MarginMode: "cross", Leverage: d("10")})})
	if c, _ = s.CheckLeverage("BTC-PERP", 25); !strings.Contains(c.Err, "over the 20x") {
		t.Errorf("25x on 1.5M: %q", c.Err)
	}
	if c, _ = s.CheckLeverage("BTC-PERP", 20); c.Err != "" {
		t.Errorf("20x on 1.5M: %q", c.Err)
	}
	if c, _ = s.CheckLeverage("HYPE/USDC", 2); !strings.Contains(c.Err, "spot") {
		t.Errorf("spot: %q", c.Err)
	}
	if c, _ = s.CheckLeverage("BTC-PERP", 0); c.Err == "" {
		t.Error("0x accepted")
	}
	if _, err := s.CheckLeverage("NOPE", 2); err == nil {
		t.Error("unknown instrument accepted")
	}
}
