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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
	_, alice, bob := fundedPair(t, "2000")
	place(t, alice, limit(1, api.SideSell, "97300", "0.2"))
	place(t, bob, limit(1, api.SideBuy, "97300", "0.2"))
	_, err := bob.InternalTransfer(ctx(), 1, "1900", false)
	wantErr(t, "derivative to spot of margin in use", err, "insufficient derivative USDC: need 1900, 37.216 available")
	_, err = bob.DerivativeTransfer(ctx(), 1, "38", alice.Address())
	wantErr(t, "derivative transfer of margin in use", err, "insufficient derivative USDC: need 38, 37.216 available")
	_, err = bob.DerivativeWithdraw(ctx(), 1, "37", 1)
	wantErr(t, "derivative withdrawal of margin in use", err, "insufficient derivative USDC: need 38, 37.216 available")
	if _, err := bob.DerivativeTransfer(ctx(), 1, "37.216", alice.Address()); err != nil {
		t.Fatalf("transferring exactly the free margin: %v", err)
	}
	if ps := positions(t, bob); len(ps) != 1 {
		t.Fatalf("bob's position %+v", ps)
	}
}

// Guards book.remove: a cancelled order's size left in its price level, so the book shows size
// that nobody offers.
func TestCancelledOrderLeavesItsLevel(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, bob, limit(1, api.SideBuy, "97000", "0.2"))
	id := oid(t, place(t, alice, limit(1, api.SideBuy, "97000", "0.1")))
	if _, err := alice.CancelByOid(ctx(), []api.CancelOid{{Oid: id, InstrumentID: 1}}); err != nil {
		t.Fatal(err)
	}
	ob, err := alice.OrderBook(ctx(), "BTC-PERP", 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(ob.Bids) != 1 {
		t.Fatalf("bids %+v", ob.Bids)
	}
	eqDec(t, "size at 97000", ob.Bids[0].Size, "0.2")
}

// Guards book.available: a fill-or-kill order counting the account's own resting orders, which
// self-trade prevention cancels instead of filling; it must fill in full or do nothing.
func TestFillOrKillDoesNotCountOwnOrders(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, bob, limit(1, api.SideSell, "97300", "0.1"))
	own := oid(t, place(t, alice, limit(1, api.SideSell, "97300", "0.1")))
	w := limit(1, api.SideBuy, "97300", "0.2")
	w.Tif = api.TifFOK
	if msg := placeErr(t, alice, w); !strings.Contains(msg, "fill-or-kill order cannot fill in full: only 0.1 available") {
		t.Errorf("FOK error %q", msg)
	}
	if fs := fills(t, alice); len(fs) != 0 {
		t.Errorf("a refused FOK filled: %+v", fs)
	}
	if o := findOrder(t, alice, own); o.State != api.StateOpen {
		t.Errorf("alice's resting sell is %s: a refused FOK must change nothing", o.State)
	}
}

// Guards cancel: a cancelled order's margin left reserved (the resting count not lowered).
func TestCancelFreesOrderMargin(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice := e.client("alice")
	before := summary(t, alice).AvailableBalance
	id := oid(t, place(t, alice, limit(1, api.SideBuy, "97000", "9")))
	if held := summary(t, alice).AvailableBalance; !held.LessThan(before) {
		t.Fatalf("a resting buy reserves no margin: %s", held)
	}
	if _, err := alice.CancelByOid(ctx(), []api.CancelOid{{Oid: id, InstrumentID: 1}}); err != nil {
		t.Fatal(err)
	}
	eqDec(t, "available after the cancel", summary(t, alice).AvailableBalance, before.String())
}

// Guards addPosition: the tier's maintenance deduction added instead of subtracted. 6 BTC at
// 97250 is 583,500 USD, in the 2% tier whose deduction is 5,000: 11,670 - 5,000 = 6,670.
func TestMaintenanceMarginInSecondTier(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(1, api.SideSell, "97250", "6"))
	place(t, bob, limit(1, api.SideBuy, "97250", "6"))
	eqDec(t, "maintenance margin", summary(t, bob).MaintenanceMargin, "6670")
}

// Guards checkMargin: an order needing exactly the available margin and fee refused (> turned
// into >=). 0.1 BTC at the mark 97250, 10x: 972.50 of margin and 3.89 of taker fee.
func TestOrderNeedingExactlyTheAvailableMargin(t *testing.T) {
	t.Parallel()
	_, _, bob := fundedPair(t, "976.39")
	place(t, bob, limit(1, api.SideBuy, "97250", "0.1"))
	_, _, carol := fundedPair(t, "976.38") // a simulator of its own
	if msg := placeErr(t, carol, limit(1, api.SideBuy, "97250", "0.1")); !strings.Contains(msg, "insufficient margin") {
		t.Errorf("one cent short: %q", msg)
	}
}

// Guards spotHold: a resting spot sell holding none of its base asset. Bob rests a sell of 1.5 of
// his 2 WETH: only 0.5 can move or back another sell.
func TestSpotSellHoldsItsBase(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	bob := e.client("bob")
	if err := e.sim.Deposit(bob.Address(), collWETH, dec("2"), false); err != nil {
		t.Fatal(err)
	}
	place(t, bob, limit(101, api.SideSell, "3500", "1.5"))
	_, err := bob.InternalTransfer(ctx(), 3, "0.6", true)
	wantErr(t, "moving held WETH", err, "insufficient spot WETH: need 0.6, 0.5 available")
	if msg := placeErr(t, bob, limit(101, api.SideSell, "3500", "0.6")); !strings.Contains(msg, "insufficient WETH in the spot account") {
		t.Errorf("a second sell of held WETH: %q", msg)
	}
	if _, err := bob.InternalTransfer(ctx(), 3, "0.5", true); err != nil {
		t.Fatalf("moving the free 0.5 WETH: %v", err)
	}
}

// Guards checkSpotFunds: a spot buy checked without the fee it may pay. 29.41 ETH at 3400 is
// 99,994 USDC, 100,033.9976 with the taker fee: more than Alice's 100,000.
func TestSpotBuyNeedsItsFee(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice := e.client("alice")
	if msg := placeErr(t, alice, limit(101, api.SideBuy, "3400", "29.41")); !strings.Contains(msg, "insufficient USDC in the spot account") {
		t.Errorf("a buy that the fee takes over the balance: %q", msg)
	}
	place(t, alice, limit(101, api.SideBuy, "3400", "29.4")) // 99,999.984 with the fee
}

// Guards closePart: a partial close taking the cost of one lot instead of its share, and an
// isolated partial close releasing all the position's margin instead of its share.
func TestPartialCloses(t *testing.T) {
	t.Parallel()
	e, alice, bob := fundedPair(t, "10000")
	place(t, alice, limit(1, api.SideSell, "97300", "0.2"))
	place(t, bob, limit(1, api.SideBuy, "97300", "0.2"))
	place(t, alice, limit(1, api.SideBuy, "97500", "0.1"))
	place(t, bob, limit(1, api.SideSell, "97500", "0.1"))
	eqDec(t, "closed pnl of half the long", fills(t, bob)[0].ClosedPnl, "20")
	ps := positions(t, bob)
	if len(ps) != 1 {
		t.Fatalf("bob's positions %+v", ps)
	}
	eqDec(t, "size left", ps[0].Size, "0.1")
	eqDec(t, "entry left", ps[0].EntryPrice, "97300")

	// HYPE-PERP is isolated: 20 at 28.4 set aside 56.80; selling 10 releases 28.40.
	carol := e.client("carol")
	if err := e.sim.Deposit(carol.Address(), 1, dec("1000"), true); err != nil {
		t.Fatal(err)
	}
	place(t, alice, limit(5, api.SideSell, "28.4", "20"))
	place(t, carol, limit(5, api.SideBuy, "28.4", "20"))
	eqDec(t, "cross balance after opening", summary(t, carol).Collateral["USDC"].Balance, "942.9728")
	place(t, alice, limit(5, api.SideBuy, "28.4", "10"))
	place(t, carol, limit(5, api.SideSell, "28.4", "10"))
	eqDec(t, "cross balance after closing half", summary(t, carol).Collateral["USDC"].Balance, "971.2592") // + 28.40 - 0.1136 fee
}

// Guards trade: a filled resting buy still counted as resting, so its margin is reserved twice
// (once by the position, once by the order). Alice's bid of 0.2 fills in full: available is the
// equity 99,991.946 (100,000 + 1.946 rebate - 10 PnL) less the position's 1,945 only.
func TestFilledRestingOrderFreesItsMargin(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(1, api.SideBuy, "97300", "0.2"))
	place(t, bob, limit(1, api.SideSell, "97300", "0.2"))
	eqDec(t, "alice available", summary(t, alice).AvailableBalance, "98046.946")
}

// Guards liquidations: a cross liquidation closing the account's isolated positions too. Bob's
// BTC long is cross, his HYPE long isolated; BTC falls through its liquidation price.
func TestCrossLiquidationLeavesIsolatedPositions(t *testing.T) {
	t.Parallel()
	e, alice, bob := fundedPair(t, "2100")
	place(t, alice, limit(5, api.SideSell, "28.4", "10"))
	place(t, bob, limit(5, api.SideBuy, "28.4", "10"))
	place(t, alice, limit(1, api.SideSell, "97300", "0.2"))
	place(t, bob, limit(1, api.SideBuy, "97300", "0.2"))
	if err := e.sim.SetIndexPrice("BTC-PERP", dec("87500")); err != nil {
		t.Fatal(err)
	}
	ps := positions(t, bob)
	if len(ps) != 1 || ps[0].Instrument != "HYPE-PERP" {
		t.Fatalf("after the cross liquidation: %+v, want the isolated HYPE-PERP only", ps)
	}
	eqDec(t, "isolated size", ps[0].Size, "10")
}

// Guards liquidate: a liquidation fill recording the full fee when the account could pay only
// part of it. Bob's long loses 1,940 of his 1,992.216 at 87,600; the 87.60 fee takes the 52.216
// left, and the fill says so: the balance moves by exactly the fill's PnL and fee.
func TestLiquidationFillRecordsWhatWasCharged(t *testing.T) {
	t.Parallel()
	e, alice, bob := fundedPair(t, "2000")
	place(t, alice, limit(1, api.SideSell, "97300", "0.2"))
	place(t, bob, limit(1, api.SideBuy, "97300", "0.2"))
	before := summary(t, bob).Collateral["USDC"].Balance
	if err := e.sim.SetIndexPrice("BTC-PERP", dec("87600")); err != nil {
		t.Fatal(err)
	}
	after := summary(t, bob).Collateral["USDC"].Balance
	f := fills(t, bob)[0]
	if f.FillType != fillLiquidation {
		t.Fatalf("newest fill %+v, want the liquidation", f)
	}
	eqDec(t, "closed pnl", f.ClosedPnl, "-1940")
	eqDec(t, "balance moved by the fill", after, before.Add(f.ClosedPnl).Sub(f.Fee).String())
	eqDec(t, "fee charged", f.Fee, "52.216")
}

// Guards transfer: a transfer to another account checked without its fee, so the fee takes the
// balance below zero. USDT charges 0.05 % on transfers: 1,000 needs 1,000.50.
func TestTransferNeedsItsFee(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	if err := e.sim.Deposit(alice.Address(), collUSDT, dec("1000"), false); err != nil {
		t.Fatal(err)
	}
	_, err := alice.SpotTransfer(ctx(), 2, "1000", bob.Address())
	wantErr(t, "a transfer whose fee is not covered", err, "insufficient spot USDT: need 1000.5, 1000 available")
	if _, err := alice.SpotTransfer(ctx(), 2, "999.5", bob.Address()); err != nil {
		t.Fatalf("999.50 + 0.49975 fee: %v", err)
	}
	eqDec(t, "alice USDT left", summary(t, alice).SpotCollateral["USDT"].Balance, "0.00025")
}

// Guards fillable: a fill-or-kill order counting each of a maker's reduce-only orders against the
// whole position, when together they can fill only what the position holds. Carol is long 0.1
// with two reduce-only sells of 0.1: only 0.1 can fill, so a FOK buy of 0.2 does nothing.
func TestFillOrKillCountsReduceOnlyOrdersTogether(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob, carol := e.client("alice"), e.client("bob"), e.client("carol")
	place(t, alice, limit(1, api.SideSell, "97300", "0.1"))
	place(t, carol, limit(1, api.SideBuy, "97300", "0.1"))
	for range 2 {
		ro := limit(1, api.SideSell, "97300", "0.1")
		ro.ReduceOnly = true
		place(t, carol, ro)
	}
	w := limit(1, api.SideBuy, "97300", "0.2")
	w.Tif = api.TifFOK
	if msg := placeErr(t, bob, w); !strings.Contains(msg, "fill-or-kill order cannot fill in full: only 0.1 available") {
		t.Errorf("FOK error %q", msg)
	}
	if fs := fills(t, bob); len(fs) != 0 {
		t.Errorf("a refused FOK filled: %+v", fs)
	}
}
