package sim

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// Each test here guards a mutation of the simulator's money code that the rest of the suite let
// live (issue #25); the comment above each names it. All go through the HTTP handler.

// fills returns the account's fills, newest first, failing the test on error.
func fills(t *testing.T, c *api.Client) []api.Fill {
	t.Helper()
	p, err := c.Fills(ctx(), "", api.PageParams{})
	if err != nil {
		t.Fatal(err)
	}
	return p.Data
}

// positions returns the account's positions, failing the test on error.
func positions(t *testing.T, c *api.Client) []api.Position {
	t.Helper()
	ps, err := c.Positions(ctx(), "")
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// wantErr fails the test unless err says want.
func wantErr(t *testing.T, what string, err error, want string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: got %v, want an error saying %q", what, err, want)
	}
}

// Guards closePart: the closed PnL of a short with its sign flipped (exit - cost instead of
// cost - exit). Alice sells 0.2 at 97300 and buys it back at 97000: +60 before fees.
func TestShortClosedPnL(t *testing.T) {
	e, alice, bob := fundedPair(t, "100000")
	carol := e.client("carol")
	if err := e.sim.Deposit(carol.Address(), 1, dec("100000"), true); err != nil {
		t.Fatal(err)
	}
	place(t, bob, limit(1, api.SideBuy, "97300", "0.2"))
	place(t, alice, limit(1, api.SideSell, "97300", "0.2")) // alice short 0.2 from 97300, taker
	before := summary(t, alice).Collateral["USDC"].Balance
	place(t, carol, limit(1, api.SideSell, "97000", "0.2"))
	place(t, alice, limit(1, api.SideBuy, "97000", "0.2")) // closes at 97000, taker fee 7.76
	f := fills(t, alice)[0]
	if f.Direction != api.DirCloseShort {
		t.Fatalf("closing fill %+v", f)
	}
	eqDec(t, "closed pnl of the short", f.ClosedPnl, "60")
	eqDec(t, "fee", f.Fee, "7.76")
	eqDec(t, "balance after the close", summary(t, alice).Collateral["USDC"].Balance, before.Add(dec("52.24")).String())
	if ps := positions(t, alice); len(ps) != 0 {
		t.Errorf("alice still has %+v", ps)
	}
}

// Guards applyPerpFill: a fill that flips a position through zero closing more than the position
// (closeQ not capped at the position), or opening nothing on the other side. Bob is long 0.1 from
// 97300 and sells 0.3 at 97000 in one fill: he closes 0.1 (-30) and opens a 0.2 short at 97000.
func TestFillFlipsPositionThroughZero(t *testing.T) {
	e, alice, bob := fundedPair(t, "100000")
	place(t, alice, limit(1, api.SideSell, "97300", "0.1"))
	place(t, bob, limit(1, api.SideBuy, "97300", "0.1"))
	carol := e.client("carol")
	if err := e.sim.Deposit(carol.Address(), 1, dec("100000"), true); err != nil {
		t.Fatal(err)
	}
	place(t, carol, limit(1, api.SideBuy, "97000", "0.3"))
	before := summary(t, bob).Collateral["USDC"].Balance
	place(t, bob, limit(1, api.SideSell, "97000", "0.3"))
	fs := fills(t, bob)
	if len(fs) != 2 || fs[0].Direction != api.DirCloseLong {
		t.Fatalf("bob's fills %+v", fs)
	}
	eqDec(t, "closed pnl", fs[0].ClosedPnl, "-30")
	eqDec(t, "fill size", fs[0].Size, "0.3")
	ps := positions(t, bob)
	if len(ps) != 1 {
		t.Fatalf("bob's positions %+v", ps)
	}
	eqDec(t, "size after the flip", ps[0].Size, "-0.2")
	eqDec(t, "entry of the new short", ps[0].EntryPrice, "97000")
	// -30 closed, 29100 x 0.04% = 11.64 taker fee.
	eqDec(t, "balance", summary(t, bob).Collateral["USDC"].Balance, before.Sub(dec("41.64")).String())
}

// Guards spotHold: a resting spot buy holding its notional without the fee it may pay. Alice's
// buy of 10 ETH at 3000 holds 30,000 + 12 (taker fee) of her 100,000 spot USDC: 69,988 is free.
func TestSpotBuyHoldsItsFee(t *testing.T) {
	e := quietEnv(t)
	alice := e.client("alice")
	place(t, alice, limit(101, api.SideBuy, "3000", "10"))
	_, err := alice.InternalTransfer(ctx(), 1, "69988.01", true)
	wantErr(t, "moving a cent of the held fee", err, "insufficient spot USDC: need 69988.01, 69988 available")
	if _, err := alice.InternalTransfer(ctx(), 1, "69988", true); err != nil {
		t.Fatalf("moving exactly the free balance: %v", err)
	}
}

// Guards transfer and withdraw: spot transfers to another account and spot withdrawals counting
// the whole spot balance, funds held by open orders included. Alice's resting buy holds 30,012.
func TestSpotTransferAndWithdrawLeaveHeldFunds(t *testing.T) {
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(101, api.SideBuy, "3000", "10"))
	_, err := alice.SpotTransfer(ctx(), 1, "70000", bob.Address())
	wantErr(t, "spot transfer of held funds", err, "insufficient spot USDC: need 70000, 69988 available")
	_, err = alice.SpotWithdraw(ctx(), 1, "69988", 1)
	wantErr(t, "spot withdrawal of held funds", err, "insufficient spot USDC: need 69989, 69988 available") // 1 USDC fee
	if _, err := alice.SpotWithdraw(ctx(), 1, "69987", 1); err != nil {
		t.Fatalf("withdrawing exactly the free balance: %v", err)
	}
	s := summary(t, alice)
	eqDec(t, "spot USDC left for the order", s.SpotCollateral["USDC"].Balance, "30012")
}

// Guards internalTransfer, transfer and withdraw on the derivative side: moving out margin that a
// position uses. Bob has 2,000 USDC and a 0.2 BTC long holding 1,945 of initial margin; with
// 1,992.216 after the fee and -10 of PnL, 37.216 is free.
func TestDerivativeMovesLeaveMarginInUse(t *testing.T) {
	_, alice, bob := fundedPair(t, "2000")
	place(t, alice, limit(1, api.SideSell, "97300", "0.2"))
	place(t, bob, limit(1, api.SideBuy, "97300", "0.2"))
	_, err := bob.InternalTransfer(ctx(), 1, "1900", false)
	wantErr(t, "derivative to spot of margin in use", err, "insufficient derivative USDC: need 1900, 37.216 available")
	_, err = bob.DerivativeTransfer(ctx(), 1, "38", alice.Address())
	wantErr(t, "derivative transfer of margin in use", err, "insufficient derivative USDC: need 38, 37.216 available")
	_, err = bob.DerivativeWithdraw(ctx(), 1, "37", 1)
	wantErr(t, "derivative withdrawal of margin in use", err, "insufficient derivative USDC: need 38, 37.216 available")
	if _, err := bob.InternalTransfer(ctx(), 1, "37.216", false); err != nil {
		t.Fatalf("moving exactly the free margin: %v", err)
	}
	if ps := positions(t, bob); len(ps) != 1 {
		t.Fatalf("bob's position %+v", ps)
	}
}
