package state

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// A bracket on a limit buy at 49000 (BTC-PERP, tick 0.5): legs as a price, a percent and ticks,
// measured from the entry; the orders are the entry (grouping normal) and its two children; the
// reward and risk are the distances times the size. Guards a percent measured the wrong way
// (the sign), a reward/risk upside down, and children without their worst price.
func TestCheckBracket(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	for _, tc := range []struct{ tp, sl, wantTP, wantSL, rr string }{
		{"51000", "48000", "51000", "48000", "2"},
		{"2%", "1%", "49980", "48510", "2"},
		{"100t", "50t", "49050", "48975", "2"},
		{"", "48500", "0", "48500", "0"},
	} {
		cb, errs := s.CheckBracket(BracketIntent{Entry: limitBuy("BTC-PERP", "49000", "0.01"), TakeProfit: tc.tp, StopLoss: tc.sl}, DefaultGuard())
		if len(errs) != 0 {
			t.Fatalf("%s/%s: %v", tc.tp, tc.sl, errs)
		}
		checkDec(t, "tp", cb.TP, tc.wantTP)
		checkDec(t, "sl", cb.SL, tc.wantSL)
		checkDec(t, "reward/risk", cb.RewardRisk(), tc.rr)
		legs := 1
		if tc.tp != "" {
			legs = 2
		}
		if len(cb.Wires) != 1+legs || cb.Wires[0].Grouping != api.GroupingNormal || cb.Entry.Wire.Grouping != api.GroupingNormal {
			t.Fatalf("wires %+v", cb.Wires)
		}
		for _, w := range cb.Wires[1:] {
			if w.Side != api.SideSell || !w.ReduceOnly || w.Size != "0.01" || w.Price == "" || !ValidCloid(w.Cloid) {
				t.Errorf("child %+v", w)
			}
			if trig, px := d(w.TriggerPx), d(w.Price); !px.Equal(FloorToStep(trig.Mul(d("0.95")), d("0.5"))) {
				t.Errorf("child bound %s for trigger %s, want 5%% below", px, trig)
			}
		}
	}
	cb, _ := s.CheckBracket(BracketIntent{Entry: limitBuy("BTC-PERP", "49000", "0.01"), TakeProfit: "51000", StopLoss: "48000"}, DefaultGuard())
	checkDec(t, "reward", cb.Reward, "20")
	checkDec(t, "risk", cb.Risk, "10")
}

// Legs on the wrong side of the entry, off the tick, or unreadable are refused with the field
// and the rule; a sell's legs mirror a buy's. Guards the flipped side comparison.
func TestCheckBracketRefusals(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	sell := limitBuy("BTC-PERP", "49000", "0.01")
	sell.Side = "s"
	for _, tc := range []struct {
		entry      OrderIntent
		tp, sl     string
		field, msg string
	}{
		{limitBuy("BTC-PERP", "49000", "0.01"), "48000", "", FieldTakeProfit, "take-profit 48,000.0 must be above the entry price 49,000.0"},
		{limitBuy("BTC-PERP", "49000", "0.01"), "", "49500", FieldStopLoss, "stop-loss 49,500.0 must be below"},
		{sell, "50000", "", FieldTakeProfit, "must be below the entry price"},
		{sell, "", "48000", FieldStopLoss, "must be above the entry price"},
		{limitBuy("BTC-PERP", "49000", "0.01"), "50000.2", "", FieldTakeProfit, "not a multiple of the tick size 0.5"},
		{limitBuy("BTC-PERP", "49000", "0.01"), "abc", "", FieldTakeProfit, "not a number"},
		{limitBuy("BTC-PERP", "49000", "0.01"), "1.5t", "", FieldTakeProfit, "ticks are a whole number"},
		{limitBuy("BTC-PERP", "49000", "0.01"), "", "", FieldTakeProfit, "needs a take-profit, a stop-loss or both"},
	} {
		_, errs := s.CheckBracket(BracketIntent{Entry: tc.entry, TakeProfit: tc.tp, StopLoss: tc.sl}, DefaultGuard())
		if len(errs) == 0 || errs[0].Field != tc.field || !strings.Contains(errs[0].Msg, tc.msg) {
			t.Errorf("%s/%s: %v, want %s: %q", tc.tp, tc.sl, errs, tc.field, tc.msg)
		}
	}
	sell.Price = "51000"
	cb, errs := s.CheckBracket(BracketIntent{Entry: sell, TakeProfit: "1%", StopLoss: "2%"}, DefaultGuard())
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	checkDec(t, "sell tp", cb.TP, "50490")
	checkDec(t, "sell sl", cb.SL, "52020")
	if cb.Wires[1].Side != api.SideBuy || !d(cb.Wires[1].Price).GreaterThan(cb.TP) {
		t.Errorf("a sell's take-profit buys with a bound above its trigger: %+v", cb.Wires[1])
	}
}

// A position take-profit and stop on the ETH-PERP long (2 at 2900, mark 3000): distances from
// the entry price (as the README and help say), grouping position, for the position's size,
// closing it, with the PnL at each leg. A leg on the wrong side of the mark is refused (it would
// fire at once, and the exchange refuses it), saying what a distance was measured from; a stop
// between the entry and the mark (locking in profit) is allowed. Guards distances measured from
// the mark again (tp 5% would be 3150), the mark check dropped or flipped, the PnL's sign (a
// long's stop under the entry is a loss) and a stop refused for lying above the entry.
func TestCheckPositionTpsl(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	pt, errs := s.CheckPositionTpsl("ETH-PERP", "5%", "1%")
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	checkDec(t, "tp", pt.TP, "3045")
	checkDec(t, "sl", pt.SL, "2871")
	checkDec(t, "pnl at tp", pt.TPPnL, "290")
	checkDec(t, "pnl at sl", pt.SLPnL, "-58")
	checkDec(t, "mark", pt.Mark, "3000")
	if len(pt.Wires) != 2 || pt.Wires[0].Grouping != api.GroupingPosition || pt.Wires[0].Side != api.SideSell || pt.Wires[0].Size != "2" {
		t.Fatalf("wires %+v", pt.Wires)
	}
	if pt, errs := s.CheckPositionTpsl("ETH-PERP", "", "2950"); len(errs) != 0 || !pt.SLPnL.Equal(d("100")) {
		t.Errorf("a stop above the entry, below the mark: %v, pnl %s", errs, pt.SLPnL)
	}
	for _, tc := range []struct{ tp, sl, want string }{
		{"", "3100", "stop-loss 3,100.00 must be below the mark 3,000.00, or it would fire at once"},
		{"2%", "", "take-profit 2,958.00 (2% from the entry price 2,900.00) must be above the mark 3,000.00, or it would fire at once"},
		{"", "100t", ""},
	} {
		_, errs := s.CheckPositionTpsl("ETH-PERP", tc.tp, tc.sl)
		if tc.want == "" {
			if len(errs) != 0 {
				t.Errorf("%s/%s: %v", tc.tp, tc.sl, errs)
			}
			continue
		}
		if len(errs) == 0 || !strings.Contains(errs[0].Msg, tc.want) {
			t.Errorf("%s/%s: %v, want %q", tc.tp, tc.sl, errs, tc.want)
		}
	}
	if _, errs := s.CheckPositionTpsl("BTC-PERP", "60000", ""); len(errs) == 0 || !strings.Contains(errs[0].Msg, "no open position") {
		t.Errorf("no position: %v", errs)
	}
}

// The position's own take-profit and stop (grouping position) are shown before a bracket's, and
// only orders that close the position count. Guards an order on the position's own side shown
// as its stop.
func TestAttachedTpsl(t *testing.T) {
	trig := func(v string) api.OptDecimal { return api.OptDecimal{Decimal: d(v), Valid: true} }
	long := api.Position{Instrument: "ETH-PERP", Size: d("2")}
	os := []api.OrderRecord{
		{Instrument: "ETH-PERP", Side: "s", ReduceOnly: true, State: "open", Tpsl: "tp", TriggerPx: trig("3300"), Grouping: "normal"},
		{Instrument: "ETH-PERP", Side: "b", ReduceOnly: true, State: "open", Tpsl: "sl", TriggerPx: trig("3100")},
		{Instrument: "ETH-PERP", Side: "s", ReduceOnly: true, State: "open", Tpsl: "tp", TriggerPx: trig("3200"), Grouping: "position"},
		{Instrument: "BTC-PERP", Side: "s", ReduceOnly: true, State: "open", Tpsl: "sl", TriggerPx: trig("90000"), Grouping: "position"},
	}
	tp, sl := AttachedTpsl(os, long)
	checkDec(t, "tp", tp, "3200")
	checkDec(t, "sl", sl, "0")
}

// A bracket whose entry reduces or flips the opposite position is refused by the one check path,
// saying what to do instead (the exchange would cancel the legs of a reducing entry the moment
// it fills: TestBracketEntryThatReducesLosesItsLegsAndSaysWhy in api/sim); a bracket that adds to
// the position passes. The fixture holds an ETH-PERP long of 2. Guards the side comparison
// flipped (an adding bracket refused, a reducing one passed), the flip branch dropped (a sell of 3
// called a reduction) and a refusal without its way out.
func TestCheckBracketRefusesAnEntryAgainstThePosition(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	sell := func(size string) OrderIntent {
		in := limitBuy("ETH-PERP", "3100", size)
		in.Side = "s"
		return in
	}
	for _, tc := range []struct {
		entry OrderIntent
		want  string
	}{
		{sell("1"), "this sell reduces your 2.00 ETH-PERP long: a bracket opens or adds to a position; set TP/SL on the position (t on it, or :tpsl eth tp .. sl ..) or close it first (the exchange would cancel its take-profit and stop-loss as soon as the entry fills)"},
		{sell("3"), "this sell of 3.00 closes your 2.00 ETH-PERP long and opens a 1.00 short: a bracket opens or adds to a position; set TP/SL on the position (t on it, or :tpsl eth tp .. sl ..) or close it first (its take-profit and stop-loss would be sized for 3.00, not for the 1.00 short)"},
	} {
		_, errs := s.CheckBracket(BracketIntent{Entry: tc.entry, TakeProfit: "3000", StopLoss: "3200"}, DefaultGuard())
		if len(errs) != 1 || errs[0].Field != FieldOrder || !strings.Contains(errs[0].Msg, tc.want) ||
			!strings.Contains(errs[0].Msg, "set TP/SL on the position (t on it, or :tpsl eth tp .. sl ..) or close it first") {
			t.Errorf("%s %s: %v", tc.entry.Side, tc.entry.Size, errs)
		}
	}
	if _, errs := s.CheckBracket(BracketIntent{Entry: limitBuy("ETH-PERP", "2990", "1"), TakeProfit: "3100", StopLoss: "2900"}, DefaultGuard()); len(errs) != 0 {
		t.Errorf("a buy that adds to the long: %v", errs)
	}
}

// A market bracket is measured from the price the trader will get: the book walk's average fill
// (walkStore: a buy of 0.3 BTC takes 0.1 at 50000.5 and 0.2 at 50010, avg 50006.8333, mark
// 50000), and each leg must lie on its side of that average (else the "reward" is a loss) and of
// the mark (what the exchange judges a market entry's legs against, api/sim checkBracket).
// Guards the reference put back on the mark (tp 10t would be 50005, below the fill), the check
// against the average dropped (a take-profit under the fill passes as a gain), the check
// against the mark dropped (the exchange would refuse what the console signed), and reward and
// risk on the whole size when only part of a market entry fills.
func TestMarketBracketMeasuredFromTheFill(t *testing.T) {
	s := walkStore(t)
	buy := func(size string) OrderIntent {
		return OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: Market, Size: size}
	}
	avg := d("50000.5").Mul(d("0.1")).Add(d("50010").Mul(d("0.2"))).Div(d("0.3"))
	cb, errs := s.CheckBracket(BracketIntent{Entry: buy("0.3"), TakeProfit: "10t", StopLoss: "20t"}, DefaultGuard())
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if !cb.Ref.Equal(avg) || cb.RefWhat != "the expected average fill" || !cb.Judge.Equal(d("50000")) {
		t.Fatalf("ref %s (%s), judge %s", cb.Ref, cb.RefWhat, cb.Judge)
	}
	checkDec(t, "tp", cb.TP, "50012")
	checkDec(t, "sl", cb.SL, "49997")
	checkDec(t, "reward", cb.Reward, d("50012").Sub(avg).Mul(d("0.3")).String())
	checkDec(t, "risk", cb.Risk, avg.Sub(d("49997")).Mul(d("0.3")).String())

	for _, tc := range []struct{ tp, sl, field, want string }{
		{"50005", "", FieldTakeProfit, "take-profit 50,005.0 must be above the expected average fill 50,006.8"},
		{"", "10t", FieldStopLoss, "stop-loss 50,002.0 (10t from the expected average fill 50,006.8) must be below the mark 50,000.0: the exchange judges a market entry's take-profit and stop-loss against the mark"},
	} {
		_, errs := s.CheckBracket(BracketIntent{Entry: buy("0.3"), TakeProfit: tc.tp, StopLoss: tc.sl}, DefaultGuard())
		if len(errs) != 1 || errs[0].Field != tc.field || !strings.Contains(errs[0].Msg, tc.want) {
			t.Errorf("%s/%s: %v, want %q", tc.tp, tc.sl, errs, tc.want)
		}
	}

	// Half of a 0.6 buy cannot fill within its bound: the legs cover the 0.3 that fills.
	cb, errs = s.CheckBracket(BracketIntent{Entry: buy("0.6"), TakeProfit: "50100", StopLoss: "49900"}, DefaultGuard())
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	checkDec(t, "covered size", cb.Size, "0.3")
	checkDec(t, "reward on what fills", cb.Reward, d("50100").Sub(avg).Mul(d("0.3")).String())
}

// A stop-loss at or beyond the liquidation price the entry leaves (ISO-PERP, isolated 3x, 1/6
// maintenance: a buy of 1000 at 0.1230 holds 41 of margin and is liquidated where
// 41 + 1000 (p - 0.1230) = 1000 p / 6, at 0.0984; a sell at 0.1240 at 0.14171...) is said as a guard
// warning that asks for a typed confirmation, even under the "warned" policy, and the risk is
// the loss at the liquidation price; one tick inside, nothing is said. Guards the comparison
// flipped or moved off its boundary (a stop at the liquidation price never fires either), the
// short's side dropped, the risk left at the stop, and the warning that does not ask.
func TestBracketStopBeyondLiquidationWarns(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	s.Apply(LeverageMsg{Leverage: api.InstrumentLeverage{Instrument: "ISO-PERP", MarginType: "isolated", Leverage: d("3")}})
	g := DefaultGuard()
	g.Confirm = ConfirmWarned
	entry := func(side, price string) OrderIntent {
		in := limitBuy("ISO-PERP", price, "1000")
		in.Side = side
		return in
	}
	for _, tc := range []struct {
		side, price, sl string
		warn            bool
		risk            string
	}{
		{"buy", "0.1230", "0.0984", true, "24.6"},
		{"buy", "0.1230", "0.0985", false, "24.5"},
		{"sell", "0.1240", "0.1418", true, "17.71429"},
		{"sell", "0.1240", "0.1417", false, "17.7"},
	} {
		cb, errs := s.CheckBracket(BracketIntent{Entry: entry(tc.side, tc.price), StopLoss: tc.sl}, g)
		if len(errs) != 0 {
			t.Fatalf("%s sl %s: %v", tc.side, tc.sl, errs)
		}
		said := strings.Join(cb.Entry.Warnings, "\n")
		warned := strings.Contains(said, "stop-loss "+tc.sl+" lies beyond the estimated liquidation price") &&
			strings.Contains(said, "the position would be liquidated first")
		if warned != tc.warn || cb.StopPastLiq != tc.warn || cb.Entry.NeedsTypedConfirm != tc.warn || cb.NeedsConfirm != tc.warn {
			t.Errorf("%s sl %s: warned %v (%q), past liq %v, typed %v, confirm %v; want %v", tc.side, tc.sl, warned, said,
				cb.StopPastLiq, cb.Entry.NeedsTypedConfirm, cb.NeedsConfirm, tc.warn)
		}
		checkDec(t, tc.side+" risk at sl "+tc.sl, cb.Risk, tc.risk)
	}
}

// A position stop at or beyond the position's liquidation price (the ETH-PERP long's, 2000 as the
// exchange reports it) is said, and the PnL shown is the loss at liquidation; one tick inside,
// nothing is said. Guards the comparison flipped or off its boundary and the PnL left at the stop.
func TestPositionStopBeyondLiquidationWarns(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	for _, tc := range []struct {
		sl   string
		warn bool
		pnl  string
	}{{"2000", true, "-1800"}, {"1990", true, "-1800"}, {"2000.01", false, "-1799.98"}} {
		pt, errs := s.CheckPositionTpsl("ETH-PERP", "", tc.sl)
		if len(errs) != 0 {
			t.Fatalf("sl %s: %v", tc.sl, errs)
		}
		warned := len(pt.Warnings) == 1 && strings.Contains(pt.Warnings[0], "lies beyond the position's liquidation price 2,000.00")
		if warned != tc.warn || pt.StopPastLiq != tc.warn {
			t.Errorf("sl %s: warnings %q, want warned %v", tc.sl, pt.Warnings, tc.warn)
		}
		checkDec(t, "pnl at sl "+tc.sl, pt.SLPnL, tc.pnl)
	}
}
