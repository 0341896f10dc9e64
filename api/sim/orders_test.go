package sim

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

func history(t *testing.T, c *api.Client) []api.OrderRecord {
	t.Helper()
	h, err := c.OrderHistory(ctx(), "", api.PageParams{})
	if err != nil {
		t.Fatal(err)
	}
	return h.Data
}

func findOrder(t *testing.T, c *api.Client, id api.OrderID) api.OrderRecord {
	t.Helper()
	for _, o := range history(t, c) {
		if o.OrderID == id {
			return o
		}
	}
	t.Fatalf("order %d not in history", id)
	return api.OrderRecord{}
}

func TestLimitGTCRests(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice := e.client("alice")
	w := limit(1, api.SideBuy, "97000", "0.1")
	w.Cloid = "c-1"
	id := oid(t, place(t, alice, w))
	open, err := alice.OpenOrders(ctx(), "", api.PageParams{})
	if err != nil || len(open.Data) != 1 {
		t.Fatalf("open orders %+v %v", open, err)
	}
	o := open.Data[0]
	if o.OrderID != id || o.State != api.StateOpen || o.Cloid != "c-1" || o.Tif != "GTC" || o.Side != "b" || o.Instrument != "BTC-PERP" {
		t.Errorf("open order %+v", o)
	}
	eqDec(t, "limit", o.LimitPrice, "97000")
	eqDec(t, "unfilled", o.Unfilled, "0.1")
	if !o.Timestamp.Equal(testStart) {
		t.Errorf("timestamp %v, want %v", o.Timestamp, testStart)
	}
	ob, err := alice.OrderBook(ctx(), "BTC-PERP", 5)
	if err != nil || len(ob.Bids) != 1 || len(ob.Asks) != 0 {
		t.Fatalf("book %+v %v", ob, err)
	}
	eqDec(t, "bid", ob.Bids[0].Price, "97000")
	eqDec(t, "bid size", ob.Bids[0].Size, "0.1")
}

func TestPriceTimePriorityAndPartialFills(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	a, b, c := e.client("a"), e.client("b"), e.client("c")
	first := oid(t, place(t, a, limit(1, api.SideSell, "97300", "0.1")))
	second := oid(t, place(t, b, limit(1, api.SideSell, "97300", "0.1")))
	better := oid(t, place(t, b, limit(1, api.SideSell, "97299.9", "0.05")))
	r := place(t, c, limit(1, api.SideBuy, "97300", "0.12"))
	st, _ := r.OrderStatuses()
	eqDec(t, "filled", st[0].TotalSize.Decimal, "0.12")
	// 0.05 at the better price, then 0.07 from the first order at 97300 (time priority).
	eqDec(t, "avg", st[0].AvgPrice.Decimal, "97299.95833")
	if o := findOrder(t, b, better); o.State != api.StateFilled {
		t.Errorf("better-priced order %+v", o)
	}
	o := findOrder(t, a, first)
	if o.State != api.StateOpen {
		t.Errorf("first order state %s", o.State)
	}
	eqDec(t, "first unfilled", o.Unfilled, "0.03")
	eqDec(t, "second unfilled", findOrder(t, b, second).Unfilled, "0.1")
	fills, _ := c.Fills(ctx(), "", api.PageParams{})
	if len(fills.Data) != 2 {
		t.Fatalf("fills %d", len(fills.Data))
	}
	eqDec(t, "newest fill price", fills.Data[0].Price, "97300")
	eqDec(t, "newest fill size", fills.Data[0].Size, "0.07")
	eqDec(t, "newest fill start size", fills.Data[0].StartSize, "0.05")
	eqDec(t, "newest fill start price", fills.Data[0].StartPrice, "97299.9")
}

func TestIOCCancelsRemainder(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(1, api.SideSell, "97300", "0.1"))
	w := limit(1, api.SideBuy, "97400", "0.3")
	w.Tif = api.TifIOC
	id := oid(t, place(t, bob, w))
	o := findOrder(t, bob, id)
	if o.State != api.StateCancelled {
		t.Errorf("IOC state %s", o.State)
	}
	eqDec(t, "IOC unfilled", o.Unfilled, "0.2")
	ob, err := bob.OrderBook(ctx(), "BTC-PERP", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ob.Bids) != 0 {
		t.Errorf("IOC rested: %+v", ob.Bids)
	}
	if n := openCount(t, bob); n != 0 {
		t.Errorf("IOC left %d open orders", n)
	}
}

func TestFillOrKill(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(1, api.SideSell, "97300", "0.1"))
	w := limit(1, api.SideBuy, "97400", "0.2")
	w.Tif = api.TifFOK
	if msg := placeErr(t, bob, w); !strings.Contains(msg, "fill-or-kill order cannot fill in full: only 0.1 available") {
		t.Errorf("FOK error %q", msg)
	}
	w.Size = "0.1"
	if o := findOrder(t, bob, oid(t, place(t, bob, w))); o.State != api.StateFilled {
		t.Errorf("FOK state %s", o.State)
	}
}

func TestPostOnly(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(1, api.SideSell, "97300", "0.1"))
	w := limit(1, api.SideBuy, "97300", "0.1")
	w.PostOnly = true
	if msg := placeErr(t, bob, w); !strings.Contains(msg, "post-only order would cross the book: best ask is 97300") {
		t.Errorf("post-only error %q", msg)
	}
	w.Price = "97299.9"
	if o := findOrder(t, bob, oid(t, place(t, bob, w))); o.State != api.StateOpen || !o.PostOnly {
		t.Errorf("post-only order %+v", o)
	}
	w.Tif = api.TifIOC
	if msg := placeErr(t, bob, w); !strings.Contains(msg, "post-only order must be a GTC limit order") {
		t.Errorf("post-only IOC error %q", msg)
	}
}

func TestMarketOrderSlippageBound(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(1, api.SideSell, "97300", "0.1"), limit(1, api.SideSell, "97500", "0.1"))
	m := api.OrderWire{InstrumentID: 1, Side: api.SideBuy, PositionSide: "BOTH", Price: "97400", Size: "0.3", Tif: api.TifIOC, IsMarket: true}
	o := findOrder(t, bob, oid(t, place(t, bob, m)))
	if o.State != api.StateCancelled || !o.IsMarket {
		t.Errorf("bounded market order %+v", o)
	}
	eqDec(t, "unfilled past the bound", o.Unfilled, "0.2")
	// No price (sent raw: the api client insists on one): the bound is the mark ± 5%, so 97500 fills.
	m.Price, m.Size = "", "0.1"
	n := e.nowMs() + 1
	body := signed(t, "bob", api.ActionPlaceOrder, &api.PlaceOrderData{Orders: []api.OrderWire{m}, ExpiresAfter: n + 60000, Nonce: n})
	if code, out := e.post(t, "/exchange", body); code != 200 || out["error"] != "" {
		t.Fatalf("unbounded market order: %d %v", code, out)
	}
	ps, _ := bob.Positions(ctx(), "")
	eqDec(t, "position", ps[0].Size, "0.2")
	eqDec(t, "entry", ps[0].EntryPrice, "97400")
}

func TestReduceOnly(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	ro := limit(1, api.SideSell, "97000", "0.3")
	ro.ReduceOnly = true
	if msg := placeErr(t, bob, ro); !strings.Contains(msg, "reduce-only order would not reduce a position") {
		t.Errorf("reduce-only error %q", msg)
	}
	place(t, alice, limit(1, api.SideSell, "97300", "0.1"))
	place(t, bob, limit(1, api.SideBuy, "97300", "0.1"))
	id := oid(t, place(t, bob, ro))
	o := findOrder(t, bob, id)
	if o.State != api.StateOpen || !o.ReduceOnly {
		t.Errorf("reduce-only order %+v", o)
	}
	eqDec(t, "trimmed size", o.Size, "0.1")
	// A reduce-only order under the minimum notional is still accepted (it closes a position).
	small := limit(1, api.SideSell, "97000", "0.0001")
	small.ReduceOnly = true
	oid(t, place(t, bob, small))
}

func TestTriggerOrders(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(1, api.SideSell, "97300", "0.1"))
	place(t, bob, limit(1, api.SideBuy, "97300", "0.1"))
	sl := api.OrderWire{InstrumentID: 1, Side: api.SideSell, PositionSide: "BOTH", Price: "90000", Size: "0.1", Tif: api.TifIOC,
		ReduceOnly: true, IsMarket: true, TriggerPx: "96000", Tpsl: api.TpslStopLoss, Grouping: "position"}
	tp := limit(1, api.SideSell, "98990", "0.1")
	tp.TriggerPx, tp.Tpsl, tp.ReduceOnly = "99000", api.TpslTakeProfit, true
	r := place(t, bob, sl, tp)
	ids, _ := r.OrderIDs()
	if len(ids) != 2 {
		t.Fatalf("ids %v (%s)", ids, r.Data)
	}
	open, _ := bob.OpenOrders(ctx(), "", api.PageParams{})
	if len(open.Data) != 2 || !open.Data[0].TriggerPx.Valid {
		t.Fatalf("untriggered orders should be open: %+v", open.Data)
	}
	eqDec(t, "trigger px", findOrder(t, bob, ids[0]).TriggerPx.Decimal, "96000")

	place(t, alice, limit(1, api.SideBuy, "95800", "0.1")) // liquidity for the stop
	if err := e.sim.SetIndexPrice("BTC-PERP", dec("95900")); err != nil {
		t.Fatal(err)
	}
	if o := findOrder(t, bob, ids[0]); o.State != api.StateTriggered {
		t.Errorf("stop loss state %s, want triggered", o.State)
	}
	h := history(t, bob)
	child := h[0]
	if child.State != api.StateFilled || child.Tpsl != api.TpslStopLoss || child.TriggerPx.Valid {
		t.Errorf("stop's child order %+v", child)
	}
	if ps := positions(t, bob); len(ps) != 0 {
		t.Errorf("position after stop: %+v", ps)
	}
	fs := fills(t, bob)
	if len(fs) != 2 {
		t.Fatalf("bob's fills after the stop: %+v", fs)
	}
	eqDec(t, "stop fill price", fs[0].Price, "95800")
	eqDec(t, "closed pnl", fs[0].ClosedPnl, "-150") // (95800-97300)*0.1
	if fs[0].Direction != api.DirCloseLong {
		t.Errorf("direction %s", fs[0].Direction)
	}

	// The take-profit fires too, but reduce-only with no position left: its child is cancelled.
	if err := e.sim.SetIndexPrice("BTC-PERP", dec("99500")); err != nil {
		t.Fatal(err)
	}
	if o := findOrder(t, bob, ids[1]); o.State != api.StateTriggered {
		t.Errorf("take profit state %s", o.State)
	}
	if h := history(t, bob); h[0].State != api.StateCancelled {
		t.Errorf("take profit child %+v", h[0])
	}
}

func TestSpotTrade(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	if err := e.sim.Deposit(bob.Address(), collWETH, dec("2"), false); err != nil {
		t.Fatal(err)
	}
	place(t, bob, limit(101, api.SideSell, "3400", "1"))
	place(t, alice, limit(101, api.SideBuy, "3410", "1"))
	as, _ := alice.AccountSummary(ctx(), "")
	eqDec(t, "alice USDC", as.SpotCollateral["USDC"].Balance, "96598.64")
	eqDec(t, "alice WETH", as.SpotCollateral["WETH"].Balance, "1")
	eqDec(t, "alice spot volume", as.SpotVolume, "3400")
	bs, _ := bob.AccountSummary(ctx(), "")
	eqDec(t, "bob USDC", bs.SpotCollateral["USDC"].Balance, "103400.34")
	eqDec(t, "bob WETH", bs.SpotCollateral["WETH"].Balance, "1")
	if msg := placeErr(t, alice, limit(101, api.SideSell, "3400", "5")); !strings.Contains(msg, "insufficient WETH in the spot account") {
		t.Errorf("spot error %q", msg)
	}
	// A resting buy holds its USDC: a transfer of that USDC then fails.
	place(t, alice, limit(101, api.SideBuy, "3000", "30"))
	if _, err := alice.InternalTransfer(ctx(), 1, "10000", true); err == nil || !strings.Contains(err.Error(), "insufficient spot USDC") {
		t.Errorf("transfer of held funds: %v", err)
	}
}
