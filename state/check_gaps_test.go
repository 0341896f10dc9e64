package state

import (
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// Each test here guards a mutation of the order check that the rest of the suite let live (issue
// #25); the comment above each names it.

// Guards crossMargin: the position's PnL added to the equity instead of taken out, and the
// position's old maintenance margin left in the account's total next to the new one. Long 2 ETH
// from 2900 at mark 3000 (PnL +200, MM 60 of the account's 300), adding 1 at 2900 (resting: the
// maker fee 0.435): 3 ETH from 2900, equity 1200 - 200 - 0.435 = 999.565, the others' MM
// 300 - 60 = 240, 2% maintenance (ETH-PERP lists no tiers, 25x); liquidation where
// 999.565 + 3 (p - 2900) = 240 + 0.02 x 3 p: p = 7940.435 / 2.94 = 2700.83.
func TestLiquidationEstimateAddingToCrossPosition(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	acct := testAccount()
	acct.MarginBalance, acct.TotalAccountEquity, acct.AvailableBalance = d("1200"), d("1200"), d("1000")
	acct.PerpPositions["ETH-PERP"] = api.PositionSummary{LiquidationPrice: d("2000"), MM: d("60"), IM: d("600"), Upnl: d("200")}
	s.Apply(AccountMsg{Summary: acct})
	co := mustCheck(t, s, limitBuy("ETH-PERP", "2900", "1"), Guard{})
	checkDec(t, "liquidation", co.Preview.LiquidationEstimate.Round(2), "2700.83")
}

// Guards spotBalance: a buy checked against the total USDC instead of what open orders leave free.
func TestSpotBuyCheckedAgainstFreeBalance(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	acct := testAccount()
	acct.SpotCollateral["USDC"] = api.CollateralBalance{Balance: d("500"), WithdrawableBalance: d("100")} // 400 held by open orders
	s.Apply(AccountMsg{Summary: acct})
	_, errs := s.CheckOrder(limitBuy("HYPE/USDC", "20", "10"), Guard{})
	if len(errs) != 1 || errs[0].Msg != "needs 200.09 USDC but the spot balance has 100 USDC free (400 held by open orders); use a size of at most 4.9" {
		t.Fatalf("a buy of 200.03 with 100 free: %v", errs)
	}
	mustCheck(t, s, limitBuy("HYPE/USDC", "20", "4.9"), Guard{}) // 98.0441 with the taker reserve fits in the 100 free
}

// Guards availableMargin: the position counted as closable when the order adds to it (the "at most"
// offer then grows by the position's size: 35.18 instead of 33.18). Long 2 ETH, 10,000 available,
// a buy at 2990 is valued at the mark 3000 (the exchange's rule) and reserves the taker fee: 300 +
// 1.35 a unit: 10000 / 301.35 = 33.18.
func TestAtMostOfferWhenAddingToSameSide(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	_, errs := s.CheckOrder(limitBuy("ETH-PERP", "2990", "40"), Guard{})
	if len(errs) != 1 || errs[0].Suggest != "33.18" {
		t.Fatalf("want the offer 33.18 (the long adds, nothing closes): %v", errs)
	}
}

// Guards takerOrMaker: post-only forced to the taker fee (or not forced to the maker fee).
func TestPostOnlyPreviewsMakerFee(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	in := limitBuy("BTC-PERP", "50000", "0.1")
	in.PostOnly = true
	co := mustCheck(t, s, in, Guard{})
	if co.Preview.Taker {
		t.Fatal("a post-only order is a maker")
	}
	checkDec(t, "fee", co.Preview.Fee, "0.75") // 5000 x 0.015%
}

// Guards takerOrMaker: a buy at exactly the best ask (or a sell at exactly the best bid) no longer
// counted as crossing (>= turned into >, <= into <).
func TestPriceAtTouchCrosses(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	co := mustCheck(t, s, limitBuy("BTC-PERP", "50000.5", "0.1"), Guard{})
	if !co.Preview.Taker {
		t.Error("a buy at the best ask 50000.5 takes")
	}
	checkDec(t, "buy fee", co.Preview.Fee, "2.2500225") // 5000.05 x 0.045%
	co = mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "s", Price: "49999.5", Size: "0.1"}, Guard{})
	if !co.Preview.Taker {
		t.Error("a sell at the best bid 49999.5 takes")
	}
	co = mustCheck(t, s, limitBuy("BTC-PERP", "50000", "0.1"), Guard{})
	if co.Preview.Taker {
		t.Error("a buy one tick under the best ask rests")
	}
}

// Guards minNotional: an order of exactly the minimum notional refused (>= turned into >).
func TestExactMinimumNotionalAccepted(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	co := mustCheck(t, s, limitBuy("ETH-PERP", "1000", "0.01"), Guard{})
	checkDec(t, "notional", co.Preview.Notional, "10")
}

// Guards availableMargin: an order needing exactly the available margin and fee refused (<= turned
// into <). 0.1 BTC at 49000 is valued at the mark 50000, 10x: 500 of margin and a 2.25 taker fee
// reserve.
func TestExactlyAvailableMarginAccepted(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	acct := testAccount()
	acct.AvailableBalance = d("502.25")
	s.Apply(AccountMsg{Summary: acct})
	mustCheck(t, s, limitBuy("BTC-PERP", "49000", "0.1"), Guard{})
	acct.AvailableBalance = d("502.249")
	s.Apply(AccountMsg{Summary: acct})
	if _, errs := s.CheckOrder(limitBuy("BTC-PERP", "49000", "0.1"), Guard{}); len(errs) != 1 {
		t.Fatalf("one thousandth short must be refused: %v", errs)
	}
}

// Guards minNotional: reduce-only orders losing their minimum-notional exemption, so a 9 USD
// position could not be closed.
func TestReduceOnlyUnderMinimumNotionalAccepted(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	s.Apply(PositionsMsg{Positions: []api.Position{{Instrument: "ETH-PERP", InstrumentID: 2, Size: d("0.01"), EntryPrice: d("900"), MarginMode: "cross", Leverage: d("10")}}})
	co := mustCheck(t, s, OrderIntent{Instrument: "ETH-PERP", Side: "s", Price: "900", Size: "0.01", ReduceOnly: true}, Guard{})
	checkDec(t, "notional", co.Preview.Notional, "9")
	if _, errs := s.CheckOrder(OrderIntent{Instrument: "ETH-PERP", Side: "s", Price: "900", Size: "0.01"}, Guard{}); len(errs) == 0 {
		t.Fatal("the same sell without reduce-only is under the minimum")
	}
}

// Guards worstPrice: a market order's worst price not forced through the mid (the Max with the
// mid rounded up for a buy, the Min with the mid rounded down for a sell). With a 0.00001% slippage
// the rounded bound lands on the wrong side of a mid between two ticks.
func TestMarketWorstPriceThroughTheMid(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	tiny := d("0.0000001")
	s.Apply(MidsMsg{Mids: []api.Mid{{Symbol: "ETH-PERP", MidPrice: d("3000.004")}}})
	co := mustCheck(t, s, OrderIntent{Instrument: "ETH-PERP", Side: "b", Type: Market, Size: "1", Slippage: tiny}, Guard{})
	if co.Wire.Price != "3000.01" {
		t.Errorf("buy worst price %s, want 3000.01 (mid 3000.004 rounded up)", co.Wire.Price)
	}
	s.Apply(MidsMsg{Mids: []api.Mid{{Symbol: "ETH-PERP", MidPrice: d("3000.006")}}})
	co = mustCheck(t, s, OrderIntent{Instrument: "ETH-PERP", Side: "s", Type: Market, Size: "1", Slippage: tiny}, Guard{})
	if co.Wire.Price != "3000" {
		t.Errorf("sell worst price %s, want 3000 (mid 3000.006 rounded down)", co.Wire.Price)
	}
}

// Guards notionalField: a USD amount on a trigger order without a limit price converted at the mid
// instead of the trigger price (450 USD at 45000 is 0.01 BTC; at the mid 50000 it would be 0.009).
func TestNotionalOfTriggerAtTriggerPrice(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	co := mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "s", Type: Trigger, TriggerPx: "45000", Tpsl: "sl", NotionalUSD: "450"}, Guard{})
	if co.Wire.Size != "0.01" {
		t.Fatalf("size %s, want 0.01", co.Wire.Size)
	}
}

// Guards takerOrMaker: a trigger order with a limit price previewed at the maker fee (only a plain
// limit order can rest; a trigger's child executes when it fires).
func TestTriggerLimitPreviewsTakerFee(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	co := mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "s", Type: Trigger, TriggerPx: "55000", Price: "54900", Tpsl: "tp", Size: "0.1"}, Guard{})
	if !co.Preview.Taker {
		t.Fatal("a trigger order is previewed as a taker")
	}
	checkDec(t, "fee", co.Preview.Fee, "2.4705") // 5490 x 0.045%
}

// Guards distanceFrom (a price exactly at the limit warned: <= turned into <) and triggersAtOnce
// (a trigger exactly at the mark not said to fire at once: >= turned into >).
func TestGuardBoundaries(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	g := DefaultGuard()
	if co := mustCheck(t, s, limitBuy("BTC-PERP", "52500", "0.01"), g); len(co.Warnings) != 0 {
		t.Errorf("a price exactly 5%% from the mark warns: %v", co.Warnings)
	}
	co := mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: Trigger, TriggerPx: "50000", Tpsl: "sl", Size: "0.01"}, g)
	if len(co.Warnings) != 1 || co.Warnings[0] != "the mark 50,000.0 is already at or above the trigger price 50,000.0, so this sl buy would trigger at once" {
		t.Errorf("a stop buy at the mark: %q", co.Warnings)
	}
	co = mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "s", Type: Trigger, TriggerPx: "50000", Tpsl: "sl", Size: "0.01"}, g)
	if len(co.Warnings) != 1 || co.Warnings[0] != "the mark 50,000.0 is already at or below the trigger price 50,000.0, so this sl sell would trigger at once" {
		t.Errorf("a stop sell at the mark: %q", co.Warnings)
	}
}

// Guards spotBalance: with every USDC held by open orders (withdrawable 0), the check fell back to
// the whole balance and passed a buy the exchange refuses (the fallback branch restored).
func TestSpotBuyWithNothingFreeIsRefused(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	acct := testAccount()
	acct.SpotCollateral["USDC"] = api.CollateralBalance{Balance: d("500"), WithdrawableBalance: d("0")}
	s.Apply(AccountMsg{Summary: acct})
	_, errs := s.CheckOrder(limitBuy("HYPE/USDC", "20", "1"), Guard{})
	if len(errs) != 1 || errs[0].Msg != "needs 20.009 USDC but the spot balance has 0 USDC free (500 held by open orders)" {
		t.Fatalf("a buy of 20 with nothing free: %v", errs)
	}
}

// Guards spotBalance: a spot buy needing exactly the free balance refused (> turned into >=).
func TestSpotBuyOfExactlyTheFreeBalance(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	acct := testAccount()
	acct.SpotCollateral["USDC"] = api.CollateralBalance{Balance: d("500"), WithdrawableBalance: d("200.09")}
	s.Apply(AccountMsg{Summary: acct})
	mustCheck(t, s, limitBuy("HYPE/USDC", "20", "10"), Guard{}) // 200 + 0.09 taker fee reserve
}

// Guards maxLeverage: the leverage exactly at the tier's maximum refused (<= turned into <), and
// the tier looked up for the order's size alone instead of the position it leaves.
func TestMaxLeverageOfResultingPosition(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	acct := testAccount()
	acct.AvailableBalance, acct.MarginBalance = d("10000000"), d("10000000")
	s.Apply(AccountMsg{Summary: acct})
	s.Apply(LeverageMsg{Leverage: api.InstrumentLeverage{Instrument: "BTC-PERP", MarginType: "cross", Leverage: d("20")}})
	mustCheck(t, s, limitBuy("BTC-PERP", "50000", "25"), Guard{}) // 1.25M at 20x: the second tier's maximum
	s.Apply(LeverageMsg{Leverage: api.InstrumentLeverage{Instrument: "BTC-PERP", MarginType: "cross", Leverage: d("40")}})
	s.Apply(PositionsMsg{Positions: append(testPositions(), api.Position{Instrument: "BTC-PERP", InstrumentID: 1, Size: d("10"), EntryPrice: d("50000"), MarginMode: "cross", Leverage: d("40")})})
	_, errs := s.CheckOrder(limitBuy("BTC-PERP", "50000", "15"), Guard{}) // 500k held + 750k = 1.25M
	if len(errs) != 1 || errs[0].Msg != "leverage 40x is over the 20x allowed for a 1,250,000.00 USD position on BTC-PERP; lower the leverage or the size" {
		t.Fatalf("adding 15 BTC to 10 at 40x: %v", errs)
	}
}

// Guards availableMargin's offer when the order flips the position: under the exchange's rule a
// sell up to twice the long (4) leaves the worst position at 2 and needs nothing; beyond, each unit
// needs 301 of margin, and the taker fee reserve (1.3545 a unit) is on the whole size. Long 2 ETH,
// 100 available, a sell at 3010: (100 x 10 / 3010 + 4) / 1.0045 = 4.31 (4.32 would need 102.17).
func TestAtMostOfferWhenFlipping(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	acct := testAccount()
	acct.AvailableBalance = d("100")
	s.Apply(AccountMsg{Summary: acct})
	sell := OrderIntent{Instrument: "ETH-PERP", Side: "s", Price: "3010", Size: "40"}
	_, errs := s.CheckOrder(sell, Guard{})
	if len(errs) != 1 || errs[0].Suggest != "4.31" {
		t.Fatalf("want the offer 4.31: %v", errs)
	}
	sell.Size = errs[0].Suggest
	mustCheck(t, s, sell, Guard{})
}

// Issue #23, case 6: closing previews the state after the close, and cutting risk or resting away
// from the market says the guard's finding without asking for a typed confirmation. Guards: the
// released margin added instead of taken off (10% instead of 0%), today's utilization shown (5%),
// the reduce-only exemption dropped (typed confirmation on a close), and a crossing limit treated
// as resting (no typed confirmation on a sell far under the mark).
func TestCloseAndRestingOrdersGuard(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	g := Guard{MaxPriceDistance: d("0.05"), MaxNotional: d("5000"), MaxMarketNotional: d("1000")}
	co := mustCheck(t, s, ClosePositionIntent(testPositions()[0]), g) // the ETH long: 600 of the 600 IM
	checkDec(t, "utilization after closing", co.Preview.UtilizationAfter, "0")
	if co.NeedsTypedConfirm || len(co.Warnings) == 0 {
		t.Errorf("a reduce-only close over the limits: typed %v, warnings %q (want them said, Enter only)", co.NeedsTypedConfirm, co.Warnings)
	}
	half := ClosePositionIntent(testPositions()[0])
	half.Size = "1"
	checkDec(t, "utilization after closing half", mustCheck(t, s, half, g).Preview.UtilizationAfter, "2.5")
	co = mustCheck(t, s, limitBuy("BTC-PERP", "44000", "0.01"), g) // 12% under the mark: rests
	if co.NeedsTypedConfirm || len(co.Warnings) != 1 || co.Warnings[0] != "price 44,000.0 is 12.00% below the mark 50,000.0; it rests on the book and cannot fill at once" {
		t.Errorf("a resting bid far under the mark: typed %v, warnings %q", co.NeedsTypedConfirm, co.Warnings)
	}
	co = mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "s", Price: "44000", Size: "0.01"}, g) // crosses the bid
	if !co.NeedsTypedConfirm {
		t.Errorf("a sell 12%% under the mark crosses and must be typed: %q", co.Warnings)
	}
}

// Issue #23, case 3: stale prices are said and asked about where the order is made. Guards the
// staleness check dropped or inverted (fresh prices asking, old ones not).
func TestStalePricesAskForTypedConfirmation(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	in := limitBuy("BTC-PERP", "49000", "0.01")
	now = t0.Add(4 * time.Second)
	if co := mustCheck(t, s, in, Guard{}); co.NeedsTypedConfirm || co.PricesStale != 0 {
		t.Fatalf("4s old prices are fresh: %q", co.Warnings)
	}
	now = t0.Add(30 * time.Second)
	co := mustCheck(t, s, in, Guard{})
	if !co.NeedsTypedConfirm || co.PricesStale != 30*time.Second || len(co.Warnings) != 1 ||
		co.Warnings[0] != "market prices are 30s old: the mark, notional, margin and distance shown are from then" {
		t.Fatalf("30s old prices: typed %v, age %s, %q", co.NeedsTypedConfirm, co.PricesStale, co.Warnings)
	}
}

// TestStalePriceGuardMeasuresTheNewestPrice (issue #31 #7): while the stream is up the tickers
// get the stream's wide stale window (a quiet account is not stale), but the stale-price guard
// and the form's marker (PricesFreshness) measure the age of the newest price from either route
// against the price's own window: 12 s after the newest price, streamed after the last poll, it
// asks for a typed yes; 4 s after, it does not. Guards the guard reading the route's window
// (the reconcile poll, every 30 s, kept it from ever firing).
func TestStalePriceGuardMeasuresTheNewestPrice(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	s.SetStaleAfter(KindTickers, 70*time.Second) // the streaming window
	s.SetStaleAfter(KindMids, 70*time.Second)
	tk, _ := s.Ticker("BTC-PERP")
	now = t0.Add(5 * time.Second)
	s.Apply(TickerUpdateMsg{Ticker: tk}) // streamed, after the poll at t0
	now = t0.Add(9 * time.Second)
	in := limitBuy("BTC-PERP", "49000", "0.01")
	if co := mustCheck(t, s, in, Guard{}); co.NeedsTypedConfirm || co.PricesStale != 0 {
		t.Fatalf("a price streamed 4s ago is fresh: %q", co.Warnings)
	}
	now = t0.Add(17 * time.Second)
	co := mustCheck(t, s, in, Guard{})
	if !co.NeedsTypedConfirm || co.PricesStale != 12*time.Second {
		t.Fatalf("12s after the newest price: typed %v, age %s, %q", co.NeedsTypedConfirm, co.PricesStale, co.Warnings)
	}
	if f := s.PricesFreshness(false); !f.Stale || f.Age != 12*time.Second {
		t.Errorf("the form's measure: %+v", f)
	}
	if s.Freshness(KindTickers).Stale {
		t.Error("the tickers pane's window is the stream's: not stale at 12s")
	}
}

// openOrders replaces the store's open orders.
func openOrders(s *Store, os ...api.OrderRecord) {
	for i := range os {
		os[i].OrderID = api.OrderID(100 + i)
		os[i].State = api.StateOpen
	}
	s.Apply(OrdersMsg{Orders: os})
}

// Guards marginOrder: open orders of another instrument, reduce-only triggers or sells counted as
// buys changing what an order needs. ETH-PERP, long 2, mark 3000, 10x: a buy of 1 grows the worst
// position from 2 to 3, 300 of margin; a sell of 1 with 3 already offered grows it from 3 to 4.
func TestMarginCountsTheInstrumentsOwnOpenOrders(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	openOrders(s,
		api.OrderRecord{Instrument: "BTC-PERP", InstrumentID: 1, Side: "s", Size: d("5"), Unfilled: d("5")},
		api.OrderRecord{Instrument: "ETH-PERP", InstrumentID: 2, Side: "s", Size: d("5"), Unfilled: d("5"), ReduceOnly: true,
			TriggerPx: api.OptDecimal{Decimal: d("2500"), Valid: true}})
	co := mustCheck(t, s, limitBuy("ETH-PERP", "2990", "1"), Guard{})
	checkDec(t, "margin of a buy beside a BTC sell and a reduce-only stop", co.Preview.MarginRequired, "300")
	s.Apply(PositionsMsg{Positions: nil})
	openOrders(s, api.OrderRecord{Instrument: "ETH-PERP", InstrumentID: 2, Side: "s", Size: d("3"), Unfilled: d("3")})
	co = mustCheck(t, s, OrderIntent{Instrument: "ETH-PERP", Side: "s", Price: "3010", Size: "1"}, Guard{})
	checkDec(t, "margin of a fourth ETH offered", co.Preview.MarginRequired, "301") // valued at 3010
}

// Guards released: margin counted as released when the order adds to the position, or more than
// the position's margin released when the order flips it. Long 2 ETH holding 600 of the
// account's 600 initial margin, 12,000 of equity.
func TestUtilizationAfterReleasesOnlyWhatCloses(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	co := mustCheck(t, s, limitBuy("ETH-PERP", "2990", "1"), Guard{})
	checkDec(t, "utilization after adding 1", co.Preview.UtilizationAfter, "7.5") // (600 + 300) / 12000
	co = mustCheck(t, s, OrderIntent{Instrument: "ETH-PERP", Side: "s", Price: "3010", Size: "3"}, Guard{})
	checkDec(t, "utilization after flipping to short 1", co.Preview.UtilizationAfter, "0") // the long's 600 released
}

// Guards affordable: an "at most" offer under the minimum order value. ISO-PERP at 0.1234 needs 82
// contracts for 10 USD; 2 USD of margin at 3x affords 48, which is no offer at all.
func TestNoOfferUnderTheMinimumNotional(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	s.Apply(LeverageMsg{Leverage: api.InstrumentLeverage{Instrument: "ISO-PERP", MarginType: "isolated", Leverage: d("3")}})
	acct := testAccount()
	acct.AvailableBalance = d("2")
	s.Apply(AccountMsg{Summary: acct})
	_, errs := s.CheckOrder(limitBuy("ISO-PERP", "0.1234", "1000"), Guard{})
	if len(errs) != 1 || errs[0].Suggest != "" || strings.Contains(errs[0].Msg, "at most") {
		t.Fatalf("want a refusal without an offer: %v", errs)
	}
}

// Guards minPrice: a market order's minimum order value checked at its worst price instead of the
// mark, as the exchange checks it. At a mark of 995, 0.01 ETH is 9.95 USD: under the 10 minimum,
// although its 1% worst price (1004.95) would make it 10.05.
func TestMarketMinimumNotionalAtTheMark(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	s.Apply(TickersMsg{Tickers: []api.Ticker{{Symbol: "ETH-PERP", MarkPrice: d("995"), MidPrice: d("995"), BestBidPrice: d("994.99"), BestAskPrice: d("995.01")}}})
	_, errs := s.CheckOrder(OrderIntent{Instrument: "ETH-PERP", Side: "b", Type: Market, Size: "0.01"}, Guard{})
	if len(errs) != 1 || errs[0].Msg != "order value 9.95 is under the 10 minimum on ETH-PERP; use a size of at least 0.02" {
		t.Fatalf("a market buy of 9.95 USD at the mark: %v", errs)
	}
}

// Guards liquidation's tier: the tier's deduction (mmd) left out. T-PERP lists a second tier from
// 100,000 USD (2%, less 1,000); 3 bought at 100,000 (resting: the maker fee 45) on 30,000 of
// equity: 29,955 + 3 (p - 100000) = 0.02 x 3 p - 1000: p = 269,045 / 2.94 = 91,511.90 (without
// the deduction 91,852.04).
func TestLiquidationEstimateTakesTheTierDeduction(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	ins := testInstruments()
	ins.Perps = append(ins.Perps, api.PerpInstrument{ID: 9, Name: "T-PERP", TickSize: d("0.5"), LotSize: d("0.001"), MinNotionalUSD: d("10"),
		MaxLeverage: d("50"), MarginTiers: []api.MarginTier{
			{NotionalUSDThreshold: d("0"), MaxLeverage: d("50"), MMR: d("0.01")},
			{NotionalUSDThreshold: d("100000"), MaxLeverage: d("20"), MMR: d("0.02"), MMD: d("1000")},
		}})
	s.Apply(InstrumentsMsg{Instruments: ins})
	s.Apply(TickersMsg{Tickers: append(testTickers(), api.Ticker{Symbol: "T-PERP", MarkPrice: d("100000"), MidPrice: d("100000"),
		BestBidPrice: d("99999.5"), BestAskPrice: d("100000.5")})})
	s.Apply(PositionsMsg{Gen: 2, Positions: nil})
	s.Apply(AccountMsg{Summary: api.AccountSummary{MarginMode: "cross", MarginBalance: d("30000"), AvailableBalance: d("30000")}})
	s.Apply(LeverageMsg{Leverage: api.InstrumentLeverage{Instrument: "T-PERP", MarginType: "cross", Leverage: d("20")}})
	co := mustCheck(t, s, limitBuy("T-PERP", "100000", "3"), Guard{})
	checkDec(t, "liquidation", co.Preview.LiquidationEstimate.Round(2), "91511.90")
}
