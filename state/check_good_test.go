package state

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

func mustCheck(t *testing.T, s *Store, in OrderIntent, g Guard) CheckedOrder {
	t.Helper()
	co, errs := s.CheckOrder(in, g)
	if len(errs) != 0 {
		t.Fatalf("rejected a good order %+v: %v", in, errs)
	}
	if !ValidCloid(co.Wire.Cloid) {
		t.Fatalf("cloid %q is not a UUID", co.Wire.Cloid)
	}
	return co
}

func TestCheckOrderAcceptsLimit(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	co := mustCheck(t, s, limitBuy("btc-perp", " 49000 ", "0.010"), DefaultGuard())
	w := co.Wire
	w.Cloid = ""
	want := api.OrderWire{InstrumentID: 1, Side: "b", PositionSide: "BOTH", Price: "49000", Size: "0.01", Tif: "GTC"}
	if w != want {
		t.Fatalf("wire %+v, want %+v", w, want)
	}
	p := co.Preview
	checkDec(t, "notional", p.Notional, "490")
	checkDec(t, "fee", p.Fee, "0.0735")
	if p.Taker {
		t.Fatal("a resting bid is a maker")
	}
	checkDec(t, "margin", p.MarginRequired, "50") // valued at the mark 50000, above the bid's 49000
	checkDec(t, "fee reserve", p.FeeReserve, "0.225")
	checkDec(t, "leverage", p.Leverage, "10")
	checkDec(t, "utilization", p.UtilizationAfter.Round(4), "5.4167")
	checkDec(t, "liquidation", p.LiquidationEstimate, "0")
	if co.NeedsTypedConfirm || len(co.Warnings) != 0 {
		t.Fatalf("guard fired on a normal order: %v", co.Warnings)
	}
}

func TestCheckOrderAcceptsMarket(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	co := mustCheck(t, s, OrderIntent{Instrument: "1", Side: "b", Type: Market, Size: "0.01"}, DefaultGuard())
	if co.Wire.Price != "50500" || !co.Wire.IsMarket || co.Wire.Tif != "IOC" {
		t.Fatalf("market buy wire %+v: want worst price 50500 (mid + 1%%), isMarket, IOC", co.Wire)
	}
	checkDec(t, "notional", co.Preview.Notional, "500")
	checkDec(t, "fee", co.Preview.Fee, "0.225")
	co = mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "sell", Type: Market, Size: "0.01", Slippage: d("0.02")}, DefaultGuard())
	if co.Wire.Price != "49000" || co.Wire.Side != "s" {
		t.Fatalf("market sell wire %+v: want worst price 49000", co.Wire)
	}
	// Tiny slippage still leaves the worst price at least one tick through the mid.
	co = mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: Market, Size: "0.01", Slippage: d("0.000001")}, DefaultGuard())
	if co.Wire.Price != "50000" {
		t.Fatalf("worst price %s, want 50000 (mid on tick)", co.Wire.Price)
	}
}

func TestCheckOrderNotionalToSize(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	in := limitBuy("BTC-PERP", "50000", "")
	in.NotionalUSD = "1000"
	co := mustCheck(t, s, in, DefaultGuard())
	if co.Wire.Size != "0.02" {
		t.Fatalf("size %s, want 0.02", co.Wire.Size)
	}
	in.NotionalUSD = "1049.99" // rounds down to the lot: 0.020999.. -> 0.02
	co = mustCheck(t, s, in, DefaultGuard())
	if co.Wire.Size != "0.02" {
		t.Fatalf("size %s, want 0.02", co.Wire.Size)
	}
}

func TestCheckOrderTrigger(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	co := mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "s", Type: Trigger, TriggerPx: "45000", Tpsl: "SL", Size: "0.01"}, Guard{})
	w := co.Wire
	if w.TriggerPx != "45000" || w.Tpsl != "sl" || !w.IsMarket || w.Price != "44550" {
		t.Fatalf("trigger market wire %+v", w)
	}
	co = mustCheck(t, s, OrderIntent{Instrument: "BTC-PERP", Side: "s", Type: Trigger, TriggerPx: "55000", Price: "54900", Tpsl: "tp", Size: "0.01"}, Guard{})
	w = co.Wire
	if w.TriggerPx != "55000" || w.Tpsl != "tp" || w.IsMarket || w.Price != "54900" {
		t.Fatalf("trigger limit wire %+v", w)
	}
}

func TestClosePositionIntent(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	in := ClosePositionIntent(testPositions()[0])
	if in.Side != "s" || in.Type != Market || in.Size != "2" || !in.ReduceOnly {
		t.Fatalf("close intent %+v", in)
	}
	co := mustCheck(t, s, in, DefaultGuard())
	if co.Wire.Price != "2970" || !co.Wire.ReduceOnly || !co.Wire.IsMarket {
		t.Fatalf("close wire %+v", co.Wire)
	}
	checkDec(t, "margin", co.Preview.MarginRequired, "0")
	short := api.Position{Instrument: "BTC-PERP", Size: d("-0.5")}
	if in := ClosePositionIntent(short); in.Side != "b" || in.Size != "0.5" {
		t.Fatalf("close short intent %+v", in)
	}
}

func TestCheckOrderReducingNeedsNoMargin(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	acct := testAccount()
	acct.AvailableBalance = d("0")
	s.Apply(AccountMsg{Summary: acct})
	co := mustCheck(t, s, OrderIntent{Instrument: "ETH-PERP", Side: "s", Price: "3000", Size: "1.5"}, Guard{})
	checkDec(t, "margin", co.Preview.MarginRequired, "0")
	// Flipping to short 1 leaves the worst position at 2 (the long): the exchange asks nothing.
	co = mustCheck(t, s, OrderIntent{Instrument: "ETH-PERP", Side: "s", Price: "3000", Size: "3"}, Guard{})
	checkDec(t, "margin of a flip to a smaller short", co.Preview.MarginRequired, "0")
	_, errs := s.CheckOrder(OrderIntent{Instrument: "ETH-PERP", Side: "s", Price: "3000", Size: "5"}, Guard{})
	if len(errs) != 1 || errs[0].Field != "size" || errs[0].Msg != "needs 306.75 USD of margin and fees at 10x (valued at 3,000.00) but only 0.00 USD is available; use a size of at most 4" {
		t.Fatalf("flipping past the position needs margin for the excess: %v", errs)
	}
}

// TestCheckOrderLiquidationEstimate: 1,000 of equity, 0.19 BTC bought at 50,000 (resting: the
// maker fee 1.425), 1% maintenance: 998.575 + 0.19 (p - 50000) = 0.01 x 0.19 p: p = 45,196.31.
func TestCheckOrderLiquidationEstimate(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	s.Apply(PositionsMsg{Gen: 2, Positions: nil})
	s.Apply(AccountMsg{Summary: api.AccountSummary{MarginMode: "cross", MarginBalance: d("1000"), AvailableBalance: d("1000")}})
	co := mustCheck(t, s, limitBuy("BTC-PERP", "50000", "0.19"), Guard{})
	checkDec(t, "liquidation", co.Preview.LiquidationEstimate.Round(2), "45196.31")
	checkDec(t, "utilization", co.Preview.UtilizationAfter, "95")
	_, errs := s.CheckOrder(limitBuy("BTC-PERP", "50000", "0.2"), Guard{})
	if len(errs) != 1 || errs[0].Suggest != "0.199" {
		t.Fatalf("0.2 BTC needs 1,001.50 with the fee: %v", errs)
	}
}

func TestCheckOrderDefaultLeverage(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	co := mustCheck(t, s, limitBuy("ETH-PERP", "2990", "1"), Guard{})
	checkDec(t, "position leverage", co.Preview.Leverage, "10")
	s.Apply(PositionsMsg{Gen: 9})
	co = mustCheck(t, s, limitBuy("ETH-PERP", "2990", "1"), Guard{})
	checkDec(t, "default leverage", co.Preview.Leverage, "10")
	checkDec(t, "margin at default", co.Preview.MarginRequired, "300") // at the mark 3000
}

func TestCheckOrderSpot(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	co := mustCheck(t, s, limitBuy("HYPE/USDC", "20", "10"), DefaultGuard())
	checkDec(t, "notional", co.Preview.Notional, "200")
	checkDec(t, "spend", co.Preview.MarginRequired, "200.09") // with the taker fee reserve
	if co.Wire.InstrumentID != 1001 {
		t.Fatalf("spot id %d", co.Wire.InstrumentID)
	}
}

func TestCheckOrderGuard(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	acct := testAccount()
	acct.AvailableBalance = d("1000000")
	acct.MarginBalance = d("1000000")
	s.Apply(AccountMsg{Summary: acct})
	g := DefaultGuard()
	cases := []struct {
		in   OrderIntent
		want []string
	}{
		{limitBuy("BTC-PERP", "56000", "0.01"), []string{"price 56,000.0 is 12.00% above the mark 50,000.0"}},
		{OrderIntent{Instrument: "BTC-PERP", Side: "s", Price: "40000", Size: "0.01"}, []string{"price 40,000.0 is 20.00% below the mark 50,000.0"}},
		{limitBuy("BTC-PERP", "49000", "3"), []string{"order value 147,000.00 USD (3.000 BTC-PERP) is over the 100,000 USD large-order limit"}},
		{OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: Market, Size: "0.6"}, []string{"market buy of 30,000.00 USD is over the 25,000 USD market-order limit and may fill as far as 50,500.0"}},
		{limitBuy("BTC-PERP", "52000", "0.01"), nil},
		{OrderIntent{Instrument: "BTC-PERP", Side: "s", Type: Trigger, TriggerPx: "40000", Tpsl: "sl", Size: "0.01"}, nil},
		{OrderIntent{Instrument: "BTC-PERP", Side: "s", Type: Trigger, TriggerPx: "55000", Tpsl: "sl", Size: "0.01"},
			[]string{"the mark 50,000.0 is already at or below the trigger price 55,000.0, so this sl sell would trigger at once"}},
		{OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: Trigger, TriggerPx: "45000", Tpsl: "sl", Size: "0.01"},
			[]string{"the mark 50,000.0 is already at or above the trigger price 45,000.0, so this sl buy would trigger at once"}},
		{OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: Trigger, TriggerPx: "45000", Tpsl: "tp", Size: "0.01"}, nil},
		{OrderIntent{Instrument: "BTC-PERP", Side: "s", Type: Trigger, TriggerPx: "55000", Price: "40000", Tpsl: "tp", Size: "0.01"},
			[]string{"limit price 40,000.0 is 27.27% below the trigger price 55,000.0"}},
		{OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: Market, Size: "0.4"}, nil},
	}
	for _, tc := range cases {
		co := mustCheck(t, s, tc.in, g)
		if co.NeedsTypedConfirm != (len(tc.want) > 0) || strings.Join(co.Warnings, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%+v: confirm=%v warnings %q, want %q", tc.in, co.NeedsTypedConfirm, co.Warnings, tc.want)
		}
	}
	s.Apply(TickersMsg{Gen: 5, Tickers: nil})
	co := mustCheck(t, s, limitBuy("BTC-PERP", "49000", "0.01"), g)
	if !co.NeedsTypedConfirm || co.Warnings[0] != "there is no mark price for BTC-PERP, so how far 49,000.0 is from the market cannot be checked" {
		t.Fatalf("no mark must ask for confirmation: %v", co.Warnings)
	}
}

func TestCheckOrderPartialPreview(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	co, errs := s.CheckOrder(limitBuy("BTC-PERP", "49000", "2.5"), DefaultGuard())
	if len(errs) == 0 || co.Preview.Notional.IsZero() {
		t.Fatalf("a margin failure still previews: errs %v preview %+v", errs, co.Preview)
	}
}

func TestNewCloid(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 100; i++ {
		c := NewCloid()
		if !ValidCloid(c) || c[14] != '4' || !strings.ContainsRune("89ab", rune(c[19])) || seen[c] {
			t.Fatalf("bad or repeated v4 uuid %q", c)
		}
		seen[c] = true
	}
}
