package sim

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// fundedPair makes two accounts with no demo balance: alice with plenty, bob with what the test gives.
func fundedPair(t *testing.T, bobUSDC string) (*env, *api.Client, *api.Client) {
	e := quietEnv(t, WithDemoBalance(dec("0")))
	alice, bob := e.client("alice"), e.client("bob")
	if err := e.sim.Deposit(alice.Address(), 1, dec("100000"), true); err != nil {
		t.Fatal(err)
	}
	if err := e.sim.Deposit(bob.Address(), 1, dec(bobUSDC), true); err != nil {
		t.Fatal(err)
	}
	return e, alice, bob
}

func summary(t *testing.T, c *api.Client) api.AccountSummary {
	t.Helper()
	s, err := c.AccountSummary(ctx(), "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestCrossLiquidation(t *testing.T) {
	t.Parallel()
	e, alice, bob := fundedPair(t, "2000")
	place(t, alice, limit(1, api.SideSell, "97300", "0.2"))
	place(t, bob, limit(1, api.SideBuy, "97300", "0.2"))
	s := summary(t, bob)
	eqDec(t, "balance", s.Collateral["USDC"].Balance, "1992.216")
	eqDec(t, "liquidation price", s.PerpPositions["BTC-PERP"].LiquidationPrice, "88221.13131313")
	tp := limit(1, api.SideSell, "99000", "0.1")
	tp.ReduceOnly = true
	place(t, bob, tp) // an open order, cancelled by the liquidation

	if err := e.sim.SetIndexPrice("BTC-PERP", dec("88300")); err != nil {
		t.Fatal(err)
	}
	s = summary(t, bob)
	if len(s.PerpPositions) != 1 {
		t.Fatal("liquidated above the liquidation price")
	}
	eqDec(t, "equity near the edge", s.TotalAccountEquity, "192.216")
	eqDec(t, "maintenance", s.MaintenanceMargin, "176.6")

	if err := e.sim.SetIndexPrice("BTC-PERP", dec("88200")); err != nil {
		t.Fatal(err)
	}
	s = summary(t, bob)
	if len(s.PerpPositions) != 0 {
		t.Fatalf("not liquidated: %+v", s.PerpPositions)
	}
	eqDec(t, "balance after liquidation", s.Collateral["USDC"].Balance, "84.016") // 1992.216 − 1820 − 88.2 fee
	f, _ := bob.Fills(ctx(), "", api.PageParams{})
	lf := f.Data[0]
	if lf.FillType != fillLiquidation || lf.Direction != api.DirCloseLong || lf.Side != "s" {
		t.Errorf("liquidation fill %+v", lf)
	}
	eqDec(t, "liquidation price", lf.Price, "88200")
	eqDec(t, "closed pnl", lf.ClosedPnl, "-1820")
	eqDec(t, "fee", lf.Fee, "88.2")
	if openCount(t, bob) != 0 {
		t.Error("open orders survive liquidation")
	}
	tk, _ := bob.Ticker(ctx(), "BTC-PERP")
	eqDec(t, "open interest moves to the liquidator", tk[0].OpenInterest, "0.2")
}

func TestIsolatedMarginAndLiquidation(t *testing.T) {
	t.Parallel()
	e, alice, bob := fundedPair(t, "1000")
	place(t, alice, limit(5, api.SideSell, "28.4", "20"))
	place(t, bob, limit(5, api.SideBuy, "28.4", "20"))
	s := summary(t, bob)
	eqDec(t, "cross balance less isolated margin and fee", s.Collateral["USDC"].Balance, "942.9728")
	ps := s.PerpPositions["HYPE-PERP"]
	if ps.Legs[0].Leverage.Type != api.MarginIsolated {
		t.Errorf("leg %+v", ps.Legs[0])
	}
	eqDec(t, "isolated liquidation price", ps.LiquidationPrice, "26.90526316")
	eqDec(t, "equity counts the isolated margin", s.TotalAccountEquity, "999.7728")
	pos, _ := bob.Positions(ctx(), "")
	if pos[0].MarginMode != api.MarginIsolated {
		t.Errorf("position %+v", pos[0])
	}

	if err := e.sim.SetIndexPrice("HYPE-PERP", dec("26.9")); err != nil {
		t.Fatal(err)
	}
	s = summary(t, bob)
	if len(s.PerpPositions) != 0 {
		t.Fatal("isolated position not liquidated")
	}
	eqDec(t, "balance after isolated liquidation", s.Collateral["USDC"].Balance, "967.0828")

	t.Run("loss capped at the isolated margin", func(t *testing.T) {
		if err := e.sim.SetIndexPrice("HYPE-PERP", dec("28.4")); err != nil {
			t.Fatal(err)
		}
		place(t, alice, limit(5, api.SideSell, "28.4", "20"))
		place(t, bob, limit(5, api.SideBuy, "28.4", "20"))
		before := summary(t, bob).Collateral["USDC"].Balance
		if err := e.sim.SetIndexPrice("HYPE-PERP", dec("20")); err != nil {
			t.Fatal(err)
		}
		eqDec(t, "cross balance untouched by the gap", summary(t, bob).Collateral["USDC"].Balance, before.String())
	})
}

func TestSetLeverage(t *testing.T) {
	t.Parallel()
	e, alice, bob := fundedPair(t, "10000")
	if err := e.sim.SetLeverage(bob.Address(), "ETH-PERP", "isolated", dec("25")); err != nil {
		t.Fatal(err)
	}
	lev, _ := bob.InstrumentLeverage(ctx(), "", "ETH-PERP")
	if lev.MarginType != api.MarginIsolated || !lev.Leverage.Equal(dec("25")) || !lev.UpdatedAt.Equal(testStart) {
		t.Errorf("leverage %+v", lev)
	}
	place(t, alice, limit(2, api.SideSell, "3412.5", "10"))
	place(t, bob, limit(2, api.SideBuy, "3412.5", "10"))
	eqDec(t, "isolated margin at 25x", summary(t, bob).Collateral["USDC"].Balance, "8621.35") // 10000 − 1365 − 13.65
	for _, c := range []struct{ mode, lev, want string }{
		{"isolated", "60", "want 1 to 50"},
		{"hedged", "5", "margin mode"},
		{"cross", "5", "close the ETH-PERP position"},
	} {
		if err := e.sim.SetLeverage(bob.Address(), "ETH-PERP", c.mode, dec(c.lev)); err == nil || !contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v", c.mode, c.lev, err)
		}
	}
	if err := e.sim.SetLeverage(bob.Address(), "HYPE-PERP", "cross", dec("5")); err == nil {
		t.Error("cross on an isolated-only instrument")
	}
}

func TestFunding(t *testing.T) {
	t.Parallel()
	e, alice, bob := fundedPair(t, "10000")
	place(t, alice, limit(1, api.SideSell, "97250", "0.2"))
	place(t, bob, limit(1, api.SideBuy, "97250", "0.2"))
	ab, bb := summary(t, alice).Collateral["USDC"].Balance, summary(t, bob).Collateral["USDC"].Balance
	e.sim.Advance(19 * time.Minute) // the clock starts at 12:40; funding is paid on the hour
	eqDec(t, "before the hour", summary(t, bob).Collateral["USDC"].Balance, bb.String())
	tk, _ := bob.Ticker(ctx(), "BTC-PERP")
	eqDec(t, "predicted rate (no premium, interest only)", tk[0].FundingRate, "0.0000125")
	e.sim.Advance(time.Minute)
	// 0.2 × 97250 × 0.0000125 = 0.243125: the long pays, the short receives.
	eqDec(t, "long after funding", summary(t, bob).Collateral["USDC"].Balance, bb.Sub(dec("0.243125")).String())
	eqDec(t, "short after funding", summary(t, alice).Collateral["USDC"].Balance, ab.Add(dec("0.243125")).String())
	raw := e.infoRaw(t, `{"method":"funding_history","params":{"user":%q}}`, bob.Address())
	if !contains(raw, `"funding_payment":"-0.243125","funding_rate":"0.0000125","mark_price":"97250","size":"0.2","timestamp":"2026-01-29T13:00:00.000Z"`) || !contains(raw, `"total_count":1`) {
		t.Errorf("funding history %s", raw)
	}
}
