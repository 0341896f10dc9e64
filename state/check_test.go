package state

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

func limitBuy(inst, price, size string) OrderIntent {
	return OrderIntent{Instrument: inst, Side: "buy", Type: Limit, Price: price, Size: size}
}

func TestCheckOrderRejects(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	g := DefaultGuard()
	mod := func(in OrderIntent, f func(*OrderIntent)) OrderIntent { f(&in); return in }
	base := limitBuy("BTC-PERP", "49000", "0.01")
	cases := []struct {
		name    string
		in      OrderIntent
		field   string
		msg     string
		suggest string
	}{
		{"no instrument", mod(base, func(o *OrderIntent) { o.Instrument = " " }), "instrument", "choose an instrument", ""},
		{"unknown instrument", mod(base, func(o *OrderIntent) { o.Instrument = "BT" }), "instrument", `unknown instrument "BT"; pick a name from the instrument list`, "BTC-PERP"},
		{"delisted", mod(base, func(o *OrderIntent) { o.Instrument = "OLD-PERP" }), "instrument", "OLD-PERP is delisted and takes no new orders", ""},
		{"bad side", mod(base, func(o *OrderIntent) { o.Side = "up" }), "side", `side "up" is not buy or sell`, ""},
		{"price empty", mod(base, func(o *OrderIntent) { o.Price = "" }), "price", "enter a price", ""},
		{"price not a number", mod(base, func(o *OrderIntent) { o.Price = "50k" }), "price", `price "50k" is not a number: type digits with an optional decimal point, e.g. 0.25`, ""},
		{"price exponent", mod(base, func(o *OrderIntent) { o.Price = "5e4" }), "price", `price "5e4" is not a number: type digits with an optional decimal point, e.g. 0.25`, ""},
		{"price negative", mod(base, func(o *OrderIntent) { o.Price = "-49000" }), "price", "price must be positive, not -49000", ""},
		{"price zero", mod(base, func(o *OrderIntent) { o.Price = "0.0" }), "price", "price must be more than zero", ""},
		{"price too long", mod(base, func(o *OrderIntent) { o.Price = strings.Repeat("1", 41) }), "price", "price is too long (at most 40 characters)", ""},
		{"price off tick", mod(base, func(o *OrderIntent) { o.Price = "49000.3" }), "price", "price 49000.3 is not a multiple of the tick size 0.5 on BTC-PERP; use 49000", "49000"},
		{"size empty", mod(base, func(o *OrderIntent) { o.Size = "" }), "size", "enter a size", ""},
		{"size not a number", mod(base, func(o *OrderIntent) { o.Size = "1,5" }), "size", `size "1,5" is not a number: type digits with an optional decimal point, e.g. 0.25`, ""},
		{"size zero", mod(base, func(o *OrderIntent) { o.Size = "0" }), "size", "size must be more than zero", ""},
		{"size negative", mod(base, func(o *OrderIntent) { o.Size = "-1" }), "size", "size must be positive, not -1", ""},
		{"size off lot", mod(base, func(o *OrderIntent) { o.Size = "0.0105" }), "size", "size 0.0105 is not a multiple of the lot size 0.001 on BTC-PERP; use 0.01", "0.01"},
		{"size below one lot", mod(base, func(o *OrderIntent) { o.Size = "0.0004" }), "size", "size 0.0004 is not a multiple of the lot size 0.001 on BTC-PERP; use 0.001", "0.001"},
		{"under min notional", limitBuy("ETH-PERP", "900", "0.01"), "size", "order value 9.00 is under the 10 minimum on ETH-PERP; use a size of at least 0.02", "0.02"},
		{"notional under a lot", mod(base, func(o *OrderIntent) { o.Size = ""; o.NotionalUSD = "20" }), "notional", "20 USD is less than one lot (0.001) at 49000; use at least 49 USD", "49"},
		{"notional not a number", mod(base, func(o *OrderIntent) { o.Size = ""; o.NotionalUSD = "lots" }), "notional", `notional "lots" is not a number: type digits with an optional decimal point, e.g. 0.25`, ""},
		{"bad tif", mod(base, func(o *OrderIntent) { o.Tif = "day" }), "tif", `time in force "DAY" is not GTC, IOC or FOK`, "GTC"},
		{"post-only ioc", mod(base, func(o *OrderIntent) { o.PostOnly = true; o.Tif = "IOC" }), "tif", "post-only orders rest on the book, so they need GTC, not IOC", "GTC"},
		{"post-only crosses ask", mod(base, func(o *OrderIntent) { o.PostOnly = true; o.Price = "50001" }), "price", "post-only buy at 50,001.0 would cross the best ask 50,000.5 and be rejected; use a price below 50,000.5", "50000"},
		{"post-only crosses bid", OrderIntent{Instrument: "BTC-PERP", Side: "s", Price: "49999.5", Size: "0.01", PostOnly: true}, "price", "post-only sell at 49,999.5 would cross the best bid 49,999.5 and be rejected; use a price above 49,999.5", "50000"},
		{"market with tif", OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: Market, Size: "0.01", Tif: "GTC"}, "tif", "a market order is IOC, not GTC; leave time in force empty", "IOC"},
		{"market post-only", OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: Market, Size: "0.01", PostOnly: true}, "order", "a market order cannot be post-only; choose limit or clear post-only", ""},
		{"bad type", mod(base, func(o *OrderIntent) { o.Type = OrderType(9) }), "type", "order type 9 is not limit, market or trigger", ""},
		{"cloid too long", mod(base, func(o *OrderIntent) { o.Cloid = strings.Repeat("x", 129) }), "cloid", "the client order id is 129 bytes long; the exchange takes at most 128; leave it empty to get one", ""},
		{"cloid with a control character", mod(base, func(o *OrderIntent) { o.Cloid = "bot\x1b[2J-1" }), "cloid", "the client order id has a control character (U+001B) at byte 3; leave it empty to get one", ""},
		{"bad slippage", OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: Market, Size: "0.01", Slippage: d("0.9")}, "slippage", "slippage 0.9 is not between 0 and 0.5 (a fraction: 0.01 is 1%)", "0.01"},
		{"trigger without tpsl", OrderIntent{Instrument: "BTC-PERP", Side: "s", Type: Trigger, TriggerPx: "45000", Size: "0.01"}, "tpsl", "a trigger order needs tp (take profit) or sl (stop loss)", ""},
		{"trigger bad tpsl", OrderIntent{Instrument: "BTC-PERP", Side: "s", Type: Trigger, TriggerPx: "45000", Size: "0.01", Tpsl: "stop"}, "tpsl", `"stop" is not tp (take profit) or sl (stop loss)`, ""},
		{"trigger missing price", OrderIntent{Instrument: "BTC-PERP", Side: "s", Type: Trigger, Size: "0.01", Tpsl: "sl"}, "trigger", "enter a trigger price", ""},
		{"trigger off tick", OrderIntent{Instrument: "BTC-PERP", Side: "s", Type: Trigger, TriggerPx: "45000.2", Size: "0.01", Tpsl: "sl"}, "trigger", "trigger price 45000.2 is not a multiple of the tick size 0.5 on BTC-PERP; use 45000", "45000"},
		{"over available margin", limitBuy("BTC-PERP", "49000", "2.5"), "size", "needs 12,556.25 USD of margin and fees at 10x (valued at 50,000.0) but only 10,000.00 USD is available; use a size of at most 1.991", "1.991"},
		{"reduce-only no position", mod(base, func(o *OrderIntent) { o.ReduceOnly = true }), "order", "reduce-only: there is no position on BTC-PERP to reduce; clear reduce-only", ""},
		{"reduce-only same side", limitBuyRO("ETH-PERP", "2900", "1"), "side", "reduce-only buy would not reduce: the position is long 2; a reduce-only order must sell", "sell"},
		{"reduce-only too big", OrderIntent{Instrument: "ETH-PERP", Side: "s", Price: "3000", Size: "3", ReduceOnly: true}, "size", "reduce-only size 3 is larger than the 2 position; use 2", "2"},
		{"reduce-only spot", OrderIntent{Instrument: "HYPE/USDC", Side: "s", Price: "20", Size: "1", ReduceOnly: true}, "order", "reduce-only applies to perpetual positions, not to spot HYPE/USDC; clear reduce-only", ""},
		{"only isolated in cross", limitBuy("ISO-PERP", "0.1234", "100"), "order", "ISO-PERP allows isolated margin only and the account trades it in cross; switch ISO-PERP to isolated margin first", ""},
		{"spot over balance", limitBuy("HYPE/USDC", "20", "30"), "size", "needs 600.27 USDC but the spot balance has 500 USDC; use a size of at most 24.9", "24.9"},
		{"spot sell over balance", OrderIntent{Instrument: "HYPE/USDC", Side: "s", Price: "20", Size: "5"}, "size", "needs 5 HYPE but the spot balance has 3 HYPE; use a size of at most 3", "3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := s.CheckOrder(tc.in, g)
			if len(errs) == 0 {
				t.Fatalf("accepted an invalid order")
			}
			for _, e := range errs {
				if e.Field == tc.field && e.Msg == tc.msg && e.Suggest == tc.suggest {
					return
				}
			}
			t.Fatalf("want %s: %q (suggest %q); got %#v", tc.field, tc.msg, tc.suggest, errs)
		})
	}
}

func limitBuyRO(inst, price, size string) OrderIntent {
	in := limitBuy(inst, price, size)
	in.ReduceOnly = true
	return in
}

func TestCheckOrderMaxLeverage(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	s.Apply(LeverageMsg{Leverage: api.InstrumentLeverage{Instrument: "BTC-PERP", MarginType: "cross", Leverage: d("40")}})
	acct := testAccount()
	acct.AvailableBalance = d("10000000")
	acct.MarginBalance = d("10000000")
	s.Apply(AccountMsg{Summary: acct})
	_, errs := s.CheckOrder(limitBuy("BTC-PERP", "50000", "25"), Guard{})
	want := FieldError{Field: "order", Msg: "leverage 40x is over the 20x allowed for a 1,250,000.00 USD position on BTC-PERP; lower the leverage or the size"}
	if len(errs) != 1 || errs[0] != want {
		t.Fatalf("got %#v, want %#v", errs, want)
	}
	_, errs = s.CheckOrder(limitBuy("BTC-PERP", "50000", "19"), Guard{})
	if len(errs) != 0 {
		t.Fatalf("950k at 40x is allowed by the first tier: %v", errs)
	}
}

func TestCheckOrderNotLoaded(t *testing.T) {
	now := t0
	s := New(fixedClock(&now))
	_, errs := s.CheckOrder(limitBuy("BTC-PERP", "1", "1"), DefaultGuard())
	if len(errs) != 1 || errs[0].Msg != "instruments are not loaded yet; wait a moment and try again" {
		t.Fatalf("got %v", errs)
	}
	s.Apply(InstrumentsMsg{Instruments: testInstruments()})
	_, errs = s.CheckOrder(limitBuy("BTC-PERP", "50000", "0.01"), DefaultGuard())
	if len(errs) != 1 || errs[0].Msg != "the account is not loaded yet, so margin cannot be checked; wait a moment" {
		t.Fatalf("got %v", errs)
	}
	_, errs = s.CheckOrder(OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: Market, Size: "0.01"}, DefaultGuard())
	if len(errs) != 1 || errs[0].Msg != "no mid price for BTC-PERP yet, so a market order has no worst price; wait for market data or use a limit order" {
		t.Fatalf("got %v", errs)
	}
	_, errs = s.CheckOrder(limitBuyRO("ETH-PERP", "3000", "1"), DefaultGuard())
	if len(errs) != 1 || errs[0].Msg != "positions are not loaded yet, so reduce-only cannot be checked; wait a moment" {
		t.Fatalf("got %v", errs)
	}
}
