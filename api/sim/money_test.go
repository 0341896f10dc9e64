package sim

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// moneyEnv is a quiet simulator with no demo balance: every unit in it was deposited by the test.
func moneyEnv(t *testing.T, opts ...Option) *env {
	return quietEnv(t, append([]Option{WithDemoBalance(decimal.Zero)}, opts...)...)
}

func (e *env) deposit(t *testing.T, c *api.Client, coll api.CollateralID, amount string) {
	t.Helper()
	if err := e.sim.Deposit(c.Address(), coll, dec(amount), true); err != nil {
		t.Fatal(err)
	}
}

func stop(id api.InstrumentID, side, trigger, price, size string) api.OrderWire {
	w := limit(id, side, price, size)
	w.TriggerPx = trigger
	return w
}

// Issue #22.1: a trigger order reserves margin while it waits, as a resting order does, so an
// account cannot stack stops past its collateral. Guards the mutation that leaves triggers out of
// the reserved margin (checkMargin/orderMargin reading only resting orders).
func TestTriggerOrdersReserveMargin(t *testing.T) {
	t.Parallel()
	e := moneyEnv(t)
	alice := e.client("alice")
	e.deposit(t, alice, collUSDC, "999")
	// 0.09 BTC at 97,400 is 8,766 USD: 876.60 of initial margin at 10x, plus the taker fee.
	place(t, alice, stop(1, api.SideBuy, "97300", "97400", "0.09"))
	msg := placeErr(t, alice, stop(1, api.SideBuy, "97300", "97400", "0.09"))
	if !contains(msg, "insufficient margin") || !contains(msg, "123.75 USDC is available") {
		t.Errorf("second stop: %q, want insufficient margin with 123.75 USDC available (999 less the first stop's 875.25)", msg)
	}
	// A resting order is refused too: the waiting stop holds the margin.
	if msg := placeErr(t, alice, limit(1, api.SideBuy, "97000", "0.02")); !contains(msg, "insufficient margin") {
		t.Errorf("limit behind a stop: %q, want insufficient margin", msg)
	}
	s := summaryOf(t, alice, "")
	eqDec(t, "available balance with one stop waiting", s.AvailableBalance, "123.75")
	checkBooks(t, e.sim)
}

// Issue #22.1: when a trigger fires, its order is checked against the account as it is then; an
// order the account can no longer carry is cancelled, and the owner reads why in order history.
// Guards the mutation that drops the margin check from fireTriggers (the stop would open a
// position at about 130% initial-margin utilisation).
func TestFiredTriggerIsCheckedAgain(t *testing.T) {
	t.Parallel()
	e := moneyEnv(t)
	carol, bob := e.client("carol"), e.client("bob")
	e.deposit(t, carol, collUSDC, "999")
	e.deposit(t, bob, collUSDC, "100000")
	place(t, bob, limit(2, api.SideSell, "3412.5", "0.3"))
	place(t, carol, limit(2, api.SideBuy, "3412.5", "0.3")) // 1,023.75 USD of ETH, 102.38 of margin
	place(t, carol, stop(1, api.SideBuy, "97300", "97400", "0.08"))
	place(t, bob, limit(1, api.SideSell, "97400", "0.08")) // liquidity for the stop when it fires
	if err := e.sim.SetIndexPrice("ETH-PERP", dec("2600")); err != nil {
		t.Fatal(err)
	}
	if err := e.sim.SetIndexPrice("BTC-PERP", dec("97400")); err != nil {
		t.Fatal(err)
	}
	ps, err := carol.Positions(ctx(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Instrument == "BTC-PERP" {
			t.Fatalf("the fired stop opened %s BTC that carol's margin cannot carry", p.Size)
		}
	}
	code, out := e.post(t, "/info", []byte(`{"method":"order_history","params":{"user":"`+carol.Address()+`"}}`))
	if code != 200 {
		t.Fatalf("order_history: %d %v", code, out)
	}
	var hist struct {
		Data []struct {
			State     string `json:"state"`
			TriggerPx string `json:"trigger_px"`
			Reason    string `json:"reason"`
			Size      string `json:"size"`
		} `json:"data"`
	}
	b, _ := json.Marshal(out)
	if err := json.Unmarshal(b, &hist); err != nil {
		t.Fatal(err)
	}
	child := hist.Data[0]
	if child.State != api.StateCancelled || !strings.Contains(child.Reason, "insufficient margin") {
		t.Errorf("the stop's order: state %q reason %q, want cancelled because of insufficient margin", child.State, child.Reason)
	}
	if hist.Data[1].State != api.StateTriggered {
		t.Errorf("the stop itself: state %q, want triggered", hist.Data[1].State)
	}
	ob, _ := bob.OrderBook(ctx(), "BTC-PERP", 5)
	if len(ob.Asks) != 1 || !ob.Asks[0].Size.Equal(dec("0.08")) {
		t.Errorf("bob's ask should be untouched: %+v", ob.Asks)
	}
	checkBooks(t, e.sim)
}

// liquidatedWithWETH opens a 0.4 BTC long for alice (2,000 USDC and 1 WETH in her derivative
// account) against bob, then drops BTC to 85,200 so that she is liquidated: a 4,820 loss and a
// 170.40 fee leave her USDC at −3,005.96, which her WETH (3,412.50 × 0.9 = 3,071.25) covers.
func liquidatedWithWETH(t *testing.T, opts ...Option) (*env, *api.Client) {
	e := moneyEnv(t, opts...)
	alice, bob := e.client("alice"), e.client("bob")
	e.deposit(t, alice, collUSDC, "2000")
	e.deposit(t, alice, collWETH, "1")
	e.deposit(t, bob, collUSDC, "100000")
	place(t, bob, limit(1, api.SideSell, "97250", "0.4"))
	place(t, alice, limit(1, api.SideBuy, "97250", "0.4")) // taker fee 15.56
	if err := e.sim.SetIndexPrice("BTC-PERP", dec("85200")); err != nil {
		t.Fatal(err)
	}
	return e, alice
}

// Issue #22.2: a liquidation takes the loss and the fee from the whole account: USDC may go
// negative while the account's other collateral covers it, nothing is written off, and the fill
// records exactly what was charged. Guards the old rule (USDC stopped at zero, 3,005.96 written
// off while the account kept its WETH) and a fill whose fee or PnL differ from the charge.
func TestLiquidationChargesTheWholeAccount(t *testing.T) {
	t.Parallel()
	e, alice := liquidatedWithWETH(t)
	s := summaryOf(t, alice, "")
	if len(s.PerpPositions) != 0 {
		t.Fatalf("alice should have been liquidated: %+v", s.PerpPositions)
	}
	eqDec(t, "alice USDC after liquidation", s.Collateral["USDC"].Balance, "-3005.96")
	eqDec(t, "alice WETH after liquidation", s.Collateral["WETH"].Balance, "1")
	eqDec(t, "alice WETH withdrawable while she owes USDC", s.Collateral["WETH"].WithdrawableBalance, "0")
	fs := fillsOf(t, alice, "")
	liq := fs[0]
	if int64(liq.FillType) != fillLiquidation {
		t.Fatalf("newest fill %+v, want the liquidation", liq)
	}
	eqDec(t, "liquidation closed PnL", liq.ClosedPnl, "-4820")
	eqDec(t, "liquidation fee", liq.Fee, "170.4")
	// The fills explain the balance: 2,000 + Σ(closed PnL − fee) = −3,005.96.
	sum := dec("2000")
	for _, f := range fs {
		sum = sum.Add(f.ClosedPnl).Sub(f.Fee)
	}
	eqDec(t, "2000 + fills", sum, "-3005.96")
	eqDec(t, "insurance fund USDC (the liquidation fee)", summaryOf(t, alice, InsuranceFund).Collateral["USDC"].Balance, "170.4")
	// Nothing leaves while the debt is open.
	for _, try := range []func() error{
		func() error { _, err := alice.DerivativeWithdraw(ctx(), collWETH, "0.5", 1); return err },
		func() error { _, err := alice.InternalTransfer(ctx(), collWETH, "0.5", false); return err },
		func() error {
			_, err := alice.DerivativeTransfer(ctx(), collWETH, "0.5", e.client("bob").Address())
			return err
		},
	} {
		if err := try(); err == nil || !contains(err.Error(), "owes 3005.96 USDC: transfer USDC in to repay it before moving WETH out") {
			t.Errorf("moving WETH out while owing USDC: %v", err)
		}
	}
	checkBooks(t, e.sim)
}

// Issue #22.2: an account whose USDC debt its collateral no longer covers is liquidated even
// without a position: the insurance fund buys as much collateral as the debt needs at the index
// price, and pays what the collateral cannot. Guards the mutation that skips accounts without a
// position (they were never liquidated) and one that seizes all collateral for a small debt.
func TestUncoveredDebtSellsCollateral(t *testing.T) {
	t.Parallel()
	t.Run("part of the WETH covers the debt", func(t *testing.T) {
		e, alice := liquidatedWithWETH(t)
		if err := e.sim.SetIndexPrice("ETH-PERP", dec("3300")); err != nil { // 0.9 × 3,300 = 2,970 < 3,005.96
			t.Fatal(err)
		}
		s := summaryOf(t, alice, "")
		eqDec(t, "alice USDC", s.Collateral["USDC"].Balance, "0")
		eqDec(t, "alice WETH kept", s.Collateral["WETH"].Balance, "0.089103030303030303")
		ins := summaryOf(t, alice, InsuranceFund)
		eqDec(t, "insurance WETH", ins.Collateral["WETH"].Balance, "0.910896969696969697")
		// 170.40 − 3,005.96 = −2,835.56, refilled by deleveraging bob's profitable short
		eqDec(t, "insurance USDC", ins.Collateral["USDC"].Balance, "0")
		checkBooks(t, e.sim)
	})
	t.Run("the insurance fund pays what the WETH cannot", func(t *testing.T) {
		e, alice := liquidatedWithWETH(t)
		if err := e.sim.SetIndexPrice("ETH-PERP", dec("1000")); err != nil {
			t.Fatal(err)
		}
		s := summaryOf(t, alice, "")
		eqDec(t, "alice USDC", s.Collateral["USDC"].Balance, "0")
		eqDec(t, "alice WETH", s.Collateral["WETH"].Balance, "0")
		ins := summaryOf(t, alice, InsuranceFund)
		eqDec(t, "insurance WETH", ins.Collateral["WETH"].Balance, "1")
		// 170.40 − 1,000 − 2,005.96 = −2,835.56, refilled by deleveraging bob's profitable short
		eqDec(t, "insurance USDC", ins.Collateral["USDC"].Balance, "0")
		checkBooks(t, e.sim)
	})
}

// Issue #22.2: an isolated position loses at most its own margin; the insurance fund pays the
// rest, and the liquidation fill shows only what the account paid.
func TestIsolatedLiquidationLosesOnlyItsMargin(t *testing.T) {
	t.Parallel()
	e := moneyEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	e.deposit(t, alice, collUSDC, "1000")
	e.deposit(t, bob, collUSDC, "100000")
	place(t, bob, limit(5, api.SideSell, "28.4", "100")) // HYPE-PERP is isolated-only, 10x
	place(t, alice, limit(5, api.SideBuy, "28.4", "100"))
	before := summaryOf(t, alice, "").Collateral["USDC"].Balance // 1,000 − 284 margin − 1.136 fee
	eqDec(t, "alice USDC after opening", before, "714.864")
	if err := e.sim.SetIndexPrice("HYPE-PERP", dec("20")); err != nil { // an 840 loss on 284 of margin
		t.Fatal(err)
	}
	s := summaryOf(t, alice, "")
	eqDec(t, "alice USDC after the isolated liquidation", s.Collateral["USDC"].Balance, "714.864")
	liq := fillsOf(t, alice, "")[0]
	eqDec(t, "fill: closed PnL − fee is what the position lost (its margin)", liq.ClosedPnl.Sub(liq.Fee), "-284")
	checkBooks(t, e.sim)
}

// Issue #22.3: fill-or-kill counts what can really fill. A reduce-only ask larger than its
// owner's position fills only the position, so a FOK that needs more does nothing at all.
// Guards the pre-check that counted the resting order's full size (the FOK came back
// "cancelled" with 0.5 of 1 filled).
func TestFillOrKillCountsReduceOnlyTrimming(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, carol, dave, eve := e.client("alice"), e.client("carol"), e.client("dave"), e.client("eve")
	place(t, dave, limit(1, api.SideSell, "97250", "1"))
	place(t, carol, limit(1, api.SideBuy, "97250", "1")) // carol is long 1
	ro := limit(1, api.SideSell, "98000", "1")
	ro.ReduceOnly = true
	place(t, carol, ro) // rests reduce-only for 1
	place(t, eve, limit(1, api.SideBuy, "97000", "0.5"))
	ioc := limit(1, api.SideSell, "97000", "0.5")
	ioc.Tif = api.TifIOC
	place(t, carol, ioc) // carol is long 0.5; her reduce-only ask still says 1
	fok := limit(1, api.SideBuy, "98000", "1")
	fok.Tif = api.TifFOK
	msg := placeErr(t, alice, fok)
	if !contains(msg, "fill-or-kill order cannot fill in full: only 0.5 available at 98000") {
		t.Errorf("FOK for 1: %q, want a refusal saying only 0.5 is available", msg)
	}
	if ps, _ := alice.Positions(ctx(), ""); len(ps) != 0 {
		t.Errorf("a refused FOK filled: %+v", ps)
	}
	fok.Size = "0.5"
	r := place(t, alice, fok)
	sts, _ := r.OrderStatuses()
	if len(sts) != 1 || !sts[0].TotalSize.Decimal.Equal(dec("0.5")) {
		t.Errorf("FOK for 0.5: %s, want filled", r.Data)
	}
	checkBooks(t, e.sim)
}

// Issue #22.3: the account's own resting orders do not count toward a FOK (self-trade
// prevention cancels them instead of filling).
func TestFillOrKillSkipsOwnOrders(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(1, api.SideSell, "97300", "1"))
	place(t, bob, limit(1, api.SideSell, "97400", "0.4"))
	fok := limit(1, api.SideBuy, "97400", "1")
	fok.Tif = api.TifFOK
	if msg := placeErr(t, alice, fok); !contains(msg, "only 0.4 available") {
		t.Errorf("FOK against own ask: %q", msg)
	}
	if open, _ := alice.OpenOrders(ctx(), "", api.PageParams{}); len(open.Data) != 1 {
		t.Errorf("a refused FOK must leave alice's own ask: %d open", len(open.Data))
	}
	checkBooks(t, e.sim)
}

// decimalsOK reports whether v has at most n decimals.
func decimalsOK(v decimal.Decimal, n int32) bool { return v.Equal(v.Round(n)) }

// Issue #22.4: balances, fees, PnL and margin are kept at the collateral's decimals, so the
// withdrawable figure shown can be moved as it is. Guards the mutations that drop the rounding
// of fees (9 decimals), of a partial close's cost share and of isolated margin (16 or more).
func TestBalancesKeepCollateralDecimals(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	if err := e.sim.SetLeverage(alice.Address(), "HYPE-PERP", api.MarginIsolated, dec("3")); err != nil {
		t.Fatal(err)
	}
	place(t, bob, limit(5, api.SideSell, "28.4", "3"), limit(5, api.SideSell, "28.402", "4"))
	place(t, alice, limit(5, api.SideBuy, "28.402", "7")) // isolated margin 198.808 / 3
	place(t, bob, limit(5, api.SideBuy, "28.413", "2"))
	place(t, alice, limit(5, api.SideSell, "28.413", "2")) // closes 2/7 of a 198.808 cost
	place(t, bob, limit(1, api.SideSell, "97250.3", "0.0123"))
	place(t, alice, limit(1, api.SideBuy, "97250.3", "0.0123")) // fee 0.000478471476 × 1000
	place(t, bob, limit(1, api.SideBuy, "97251.7", "0.0041"))
	place(t, alice, limit(1, api.SideSell, "97251.7", "0.0041")) // closes 41/123 of the cost
	for _, who := range []*api.Client{alice, bob} {
		s := summaryOf(t, who, "")
		for sym, b := range s.Collateral {
			if !decimalsOK(b.Balance, 6) || !decimalsOK(b.WithdrawableBalance, 6) {
				t.Errorf("%s derivative %s: balance %s withdrawable %s, want at most 6 decimals", who.Address(), sym, b.Balance, b.WithdrawableBalance)
			}
		}
		for _, f := range fillsOf(t, who, "") {
			if !decimalsOK(f.Fee, 6) || !decimalsOK(f.ClosedPnl, 6) {
				t.Errorf("fill fee %s closed PnL %s: want at most 6 decimals", f.Fee, f.ClosedPnl)
			}
		}
	}
	w := summaryOf(t, alice, "").Collateral["USDC"].WithdrawableBalance
	if _, err := alice.InternalTransfer(ctx(), collUSDC, w.String(), false); err != nil {
		t.Errorf("moving the whole withdrawable %s: %v", w, err)
	}
	checkBooks(t, e.sim)
}

// Issue #22.5: fees go to the fee account (makers' rebates come from it), funding passes between
// longs and shorts, and the fee account keeps funding's rounding remainder. Guards the mutations
// that drop a fee, a rebate or the funding remainder (the books are then off by that amount).
func TestFeesAndFundingStayInTheExchange(t *testing.T) {
	t.Parallel()
	e := moneyEnv(t, WithFundingInterval(10*time.Minute))
	alice, bob := e.client("alice"), e.client("bob")
	e.deposit(t, alice, collUSDC, "10000")
	e.deposit(t, bob, collUSDC, "10000")
	place(t, bob, limit(1, api.SideSell, "97250", "0.4123"))
	place(t, alice, limit(1, api.SideBuy, "97250", "0.4123")) // 40,096.175 USD
	fees := summaryOf(t, alice, FeeAccount)
	eqDec(t, "fee account after one trade (16.03847 − 4.009617)", fees.Collateral["USDC"].Balance, "12.028853")
	if fees.Address != FeeAccount {
		t.Errorf("fee account summary answers for %s", fees.Address)
	}
	e.sim.Advance(10 * time.Minute) // funding at 0.00125%: 0.5012021875 owed by the long
	fund := func(c *api.Client) decimal.Decimal {
		code, out := e.post(t, "/info", []byte(`{"method":"funding_history","params":{"user":"`+c.Address()+`"}}`))
		data, _ := out["data"].([]any)
		if code != 200 || len(data) != 1 {
			t.Fatalf("funding_history: %d %v", code, out)
		}
		return dec(data[0].(map[string]any)["funding_payment"].(string))
	}
	eqDec(t, "alice pays funding rounded up", fund(alice), "-0.501203")
	eqDec(t, "bob receives funding rounded down", fund(bob), "0.501202")
	eqDec(t, "fee account keeps the remainder", summaryOf(t, alice, FeeAccount).Collateral["USDC"].Balance, "12.028854")
	b := checkBooks(t, e.sim)
	checkFlows(t, b, map[string]decimal.Decimal{"USDC": dec("20000")}, map[string]decimal.Decimal{"USDC": decimal.Zero})
}

// Issue #22.5: transfer and withdrawal fees go to the fee account; a withdrawal leaves the books.
func TestTransferAndWithdrawalFeesStayInTheExchange(t *testing.T) {
	t.Parallel()
	e := moneyEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	if err := e.sim.Deposit(alice.Address(), collUSDT, dec("1000"), false); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.SpotTransfer(ctx(), collUSDT, "100.000001", bob.Address()); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.SpotWithdraw(ctx(), collUSDT, "200", 1); err != nil {
		t.Fatal(err)
	}
	fee := summaryOf(t, alice, FeeAccount).SpotCollateral["USDT"].Balance
	eqDec(t, "fee account USDT (0.0500001 rounded up, plus 1.5)", fee, "1.550001")
	eqDec(t, "alice USDT", summaryOf(t, alice, "").SpotCollateral["USDT"].Balance, "698.449998")
	b := checkBooks(t, e.sim)
	checkFlows(t, b, map[string]decimal.Decimal{"USDT": dec("1000")}, map[string]decimal.Decimal{"USDT": dec("200")})
}

// Issue #22.2: a USDC debt of an account whose open positions keep it healthy is the account's
// own: the margin check judges it, and the insurance fund pays nothing. Guards the mutation that
// settles debts of accounts that still hold cross positions (the fund would have paid 582.905).
func TestHealthyAccountKeepsItsDebt(t *testing.T) {
	t.Parallel()
	e := moneyEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	e.deposit(t, alice, collUSDC, "2000")
	e.deposit(t, bob, collUSDC, "100000")
	for _, sym := range []string{"BTC-PERP", "ETH-PERP"} {
		if err := e.sim.SetLeverage(alice.Address(), sym, api.MarginCross, dec("50")); err != nil {
			t.Fatal(err)
		}
	}
	place(t, bob, limit(1, api.SideSell, "97250", "0.2"), limit(2, api.SideSell, "3412.5", "5"))
	place(t, alice, limit(1, api.SideBuy, "97250", "0.2"), limit(2, api.SideBuy, "3412.5", "5"))
	if err := e.sim.SetIndexPrice("BTC-PERP", dec("110000")); err != nil { // +2,550 on BTC
		t.Fatal(err)
	}
	if err := e.sim.SetIndexPrice("ETH-PERP", dec("2900")); err != nil {
		t.Fatal(err)
	}
	place(t, bob, limit(2, api.SideBuy, "2900", "5"))
	place(t, alice, limit(2, api.SideSell, "2900", "5"))                     // realises −2,562.50 and a 5.80 fee
	if err := e.sim.SetIndexPrice("BTC-PERP", dec("110000.1")); err != nil { // a liquidation pass
		t.Fatal(err)
	}
	s := summaryOf(t, alice, "")
	eqDec(t, "alice USDC (her debt, backed by her BTC profit)", s.Collateral["USDC"].Balance, "-582.905")
	if len(s.PerpPositions) != 1 {
		t.Errorf("alice should still hold BTC: %+v", s.PerpPositions)
	}
	eqDec(t, "insurance fund USDC", summaryOf(t, alice, InsuranceFund).Collateral["USDC"].Balance, "0")
	checkBooks(t, e.sim)
}

// Issue #22.2: an account that owes USDC is never forgotten to make room for a new one, since
// forgetting it would forgive its debt. Guards the mutation that drops the debt condition from
// evictable.
func TestIndebtedAccountIsNotForgotten(t *testing.T) {
	t.Parallel()
	e, alice := liquidatedWithWETH(t, WithMaxAccounts(2))
	e.sim.Advance(49 * time.Hour) // idle for longer than the nonce window
	if err := e.sim.Fund(nameAddr(t, "carol"), dec("100")); err == nil || !contains(err.Error(), "none is idle") {
		t.Errorf("a third account: %v, want a refusal (alice owes USDC, bob holds a position)", err)
	}
	eqDec(t, "alice USDC", summaryOf(t, alice, "").Collateral["USDC"].Balance, "-3005.96")
	checkBooks(t, e.sim)
}

// Issue #22.4: a spot order's fee is its fills' notional's fee rounded up once, not each fill's
// rounded up, so an order the account can pay for never leaves its balance negative. Alice has
// exactly what 0.0045 ETH at 3,412.51 costs with its fee (15.356295 + 0.006143); three fills
// rounded one by one would charge 15.362439. Guards the mutation back to per-fill rounding.
func TestSpotFeeRoundsOncePerOrder(t *testing.T) {
	t.Parallel()
	e := moneyEnv(t)
	alice := e.client("alice")
	if err := e.sim.Deposit(alice.Address(), collUSDC, dec("15.362438"), false); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"s1", "s2", "s3"} {
		c := e.client(name)
		if err := e.sim.Deposit(c.Address(), collWETH, dec("0.0015"), false); err != nil {
			t.Fatal(err)
		}
		place(t, c, limit(101, api.SideSell, "3412.51", "0.0015"))
	}
	buy := limit(101, api.SideBuy, "3412.51", "0.0045")
	buy.Tif = api.TifIOC
	place(t, alice, buy)
	s := summaryOf(t, alice, "").SpotCollateral
	eqDec(t, "alice spot USDC", s["USDC"].Balance, "0")
	eqDec(t, "alice spot WETH", s["WETH"].Balance, "0.0045")
	var fees decimal.Decimal
	for _, f := range fillsOf(t, alice, "") {
		fees = fees.Add(f.Fee)
	}
	eqDec(t, "alice's fees", fees, "0.006143")
	checkBooks(t, e.sim)
}

// TestHouseFillsWorkOutNoFeeNotional: a fill of the exchange's own accounts (the makers' and
// takers' trades, every trade of the demo's market step) works out its position's cost and PnL
// but not the notional of a fee and a volume, which they have neither of: an open and a close of
// a house account make at most 16 allocations (20 when that notional was worked out; a trader's
// make 44). Guards: the notional worked out for every fill again.
func TestHouseFillsWorkOutNoFeeNotional(t *testing.T) {
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)))
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.eng
	m := e.markets[0]
	n := testing.AllocsPerRun(50, func() {
		var f fillRec
		e.applyPerpFill(e.taker, m, true, m.mark, 10, e.fee.taker, &f)
		e.applyPerpFill(e.taker, m, false, m.mark, 10, e.fee.taker, &f)
	})
	if n > 16 {
		t.Errorf("a house account's open and close: %.0f allocations, want at most 16", n)
	}
}
