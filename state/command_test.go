package state

import (
	"errors"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// TestParseCommandExamples reads every example of the grammar into the typed command it means.
// It guards the parser's slots: a size read as a price, a USD notional read as base units, a
// market word or a tp/sl dropped would each change a field checked here.
func TestParseCommandExamples(t *testing.T) {
	cases := []struct {
		line string
		want Command
	}{
		{"buy 0.1 btc 97000", Command{Verb: VerbBuy, Instrument: "btc", InstrumentWord: 3, Size: d("0.1"), SizeWord: 2, Price: d("97000"), PriceWord: 4}},
		{"sell 2 eth mkt", Command{Verb: VerbSell, Instrument: "eth", InstrumentWord: 3, Size: d("2"), SizeWord: 2, Market: true, PriceWord: 4}},
		{"buy 500usd sol 185 tp 200 sl 180", Command{Verb: VerbBuy, Instrument: "sol", InstrumentWord: 3, NotionalUSD: d("500"), SizeWord: 2,
			Price: d("185"), PriceWord: 4, TakeProfit: d("200"), TPWord: 6, StopLoss: d("180"), SLWord: 8}},
		{"B $250 ETH-PERP @3400.5 post ioc reduce", Command{Verb: VerbBuy, Instrument: "ETH-PERP", InstrumentWord: 3, NotionalUSD: d("250"), SizeWord: 2,
			Price: d("3400.5"), PriceWord: 4, PostOnly: true, Tif: "IOC", TifWord: 6, ReduceOnly: true}},
		{"b 1 sol 185 tp 2% sl 40t", Command{Verb: VerbBuy, Instrument: "sol", InstrumentWord: 3, Size: d("1"), SizeWord: 2, Price: d("185"), PriceWord: 4,
			TakeProfit: d("2"), TPUnit: "%", TPWord: 6, StopLoss: d("40"), SLUnit: "t", SLWord: 8}},
		{"s 0.5 97000", Command{Verb: VerbSell, Size: d("0.5"), SizeWord: 2, Price: d("97000"), PriceWord: 3}},
		{"close btc", Command{Verb: VerbClose, Instrument: "btc", InstrumentWord: 2}},
		{"c", Command{Verb: VerbClose}},
		{"cancel all eth", Command{Verb: VerbCancel, All: true, Instrument: "eth", InstrumentWord: 3}},
		{"cancel all", Command{Verb: VerbCancel, All: true}},
		{"x 1234", Command{Verb: VerbCancel, OrderID: 1234, IDWord: 2}},
		{"cancel sol", Command{Verb: VerbCancel, Instrument: "sol", InstrumentWord: 2}},
		{"lev btc 5", Command{Verb: VerbLeverage, Instrument: "btc", InstrumentWord: 2, Leverage: 5, LeverageWord: 3}},
		{"leverage 20x", Command{Verb: VerbLeverage, Leverage: 20, LeverageWord: 2}},
		{"tpsl btc tp 99000 sl 2%", Command{Verb: VerbTpsl, Instrument: "btc", InstrumentWord: 2, TakeProfit: d("99000"), TPWord: 4, StopLoss: d("2"), SLUnit: "%", SLWord: 6}},
		{"tpsl sl 40t", Command{Verb: VerbTpsl, StopLoss: d("40"), SLUnit: "t", SLWord: 3}},
	}
	for _, tc := range cases {
		got, err := ParseCommand(tc.line)
		if err != nil {
			t.Errorf("%q: %v", tc.line, err)
			continue
		}
		tc.want.Words = strings.Fields(tc.line)
		if !sameCommand(got, tc.want) {
			t.Errorf("%q:\n got %+v\nwant %+v", tc.line, got, tc.want)
		}
	}
}

func sameCommand(a, b Command) bool {
	return a.Verb == b.Verb && strings.Join(a.Words, " ") == strings.Join(b.Words, " ") &&
		a.Instrument == b.Instrument && a.InstrumentWord == b.InstrumentWord &&
		a.Size.Equal(b.Size) && a.NotionalUSD.Equal(b.NotionalUSD) && a.SizeWord == b.SizeWord &&
		a.Market == b.Market && a.Price.Equal(b.Price) && a.PriceWord == b.PriceWord &&
		a.TakeProfit.Equal(b.TakeProfit) && a.TPWord == b.TPWord && a.StopLoss.Equal(b.StopLoss) && a.SLWord == b.SLWord &&
		a.TPUnit == b.TPUnit && a.SLUnit == b.SLUnit &&
		a.Tif == b.Tif && a.TifWord == b.TifWord && a.PostOnly == b.PostOnly && a.ReduceOnly == b.ReduceOnly &&
		a.All == b.All && a.OrderID == b.OrderID && a.IDWord == b.IDWord &&
		a.Leverage == b.Leverage && a.LeverageWord == b.LeverageWord
}

// TestParseCommandNamesTheWrongWord: every malformed line is refused with the position and text
// of the word that is wrong (or, for what is missing, no word). It guards the word index against
// an off-by-one and the refusals against being dropped.
func TestParseCommandNamesTheWrongWord(t *testing.T) {
	cases := []struct {
		line  string
		word  int
		token string
		msg   string
	}{
		{"", 0, "", "type a command"},
		{"purchase 1 btc 5", 1, "purchase", "not a command"},
		{"buy abc btc 97000", 2, "abc", "the size is not a number"},
		{"buy -1 btc 97000", 2, "-1", "must be more than zero"},
		{"buy 0 btc 97000", 2, "0", "must be more than zero"},
		{"buy 0.1 btc", 0, "", "give a price, or mkt"},
		{"buy 0.1 btc 97k", 4, "97k", "the price is not a number"},
		{"sell 2 eth mkt now", 5, "now", "unexpected word"},
		{"buy 1 btc 5 tp", 5, "tp", "tp needs a trigger price"},
		{"buy 1 btc 5 sl x", 6, "x", "the sl is not a number"},
		{"buy 1 btc 5 sl 2%%", 6, "2%%", "the sl is not a number"},
		{"buy 1 btc 5 tp 6 tp 7", 7, "tp", "tp is given twice"},
		{"buy 1 btc 5 ioc fok", 6, "fok", "time in force is given twice"},
		{"buy 1 all 5", 3, "all", "not a keyword"},
		{"cancel", 0, "", "cancel what?"},
		{"cancel 0", 2, "0", "whole number from 1"},
		{"cancel 1.5", 2, "1.5", "whole number from 1"},
		{"cancel all eth now", 4, "now", "unexpected word"},
		{"lev btc", 0, "", "lev needs a leverage after the instrument"},
		{"lev btc 0", 3, "0", "whole number from 1"},
		{"lev btc 2.5", 3, "2.5", "whole number from 1"},
		{"close btc eth", 3, "eth", "unexpected word"},
		{"tpsl btc", 0, "", "tpsl needs a take-profit, a stop-loss or both"},
		{"tpsl btc post", 3, "post", "unexpected word"},
		{"buy 0.1 btc mkt post", 5, "post", "a market order cannot be post-only"}, // #13 QA: the word named
		{"sell 1 eth m alo", 5, "alo", "drop alo"},
		{"buy 1 btc 5 \x1b[2J", 0, "", "control characters"},
		{strings.Repeat("b ", 101), 0, "", "too long"},
		{strings.Repeat("b ", 20), 0, "", "too many words"},
	}
	for _, tc := range cases {
		_, err := ParseCommand(tc.line)
		var ce *CommandError
		if !errors.As(err, &ce) {
			t.Errorf("%q: error %v is not a CommandError", tc.line, err)
			continue
		}
		if ce.Word != tc.word || ce.Token != tc.token || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: word %d %q, %q; want word %d %q, containing %q", tc.line, ce.Word, ce.Token, err, tc.word, tc.token, tc.msg)
		}
	}
}

// TestResolveInstrument: a coin is its perpetual, a coin with no perpetual its USDC spot pair, a
// full name itself in any case; an unknown word offers the name it starts. It guards the order of
// the rule (perpetual before spot) and the spot fallback.
func TestResolveInstrument(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	for word, want := range map[string]string{"btc": "BTC-PERP", "ETH": "ETH-PERP", "eth-perp": "ETH-PERP", "hype": "HYPE/USDC", "hype/usdc": "HYPE/USDC"} {
		in, err := s.ResolveInstrument(word)
		if err != nil || in.Name != want {
			t.Errorf("%s: %s, %v; want %s", word, in.Name, err, want)
		}
	}
	if _, err := s.ResolveInstrument("bt"); err == nil || !strings.Contains(err.Error(), "did you mean BTC-PERP") {
		t.Errorf("bt: %v", err)
	}
	if _, err := New(fixedClock(&now)).ResolveInstrument("btc"); err == nil || !strings.Contains(err.Error(), "not loaded") {
		t.Errorf("empty store: %v", err)
	}
}

// TestPlanCommandOrders: a command's order is the one the form's intent gives, checked by
// CheckOrder: the same wire order (side, price, size, flags), the USD notional converted at the
// price, and the current instrument used when none is typed. It guards a flipped side and a
// notional taken as a size.
func TestPlanCommandOrders(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	g := DefaultGuard()
	plan := mustPlan(t, s, "buy 0.1 btc 49000", "")
	w := plan.Order.Wire
	if w.Side != api.SideBuy || w.Price != "49000" || w.Size != "0.1" || w.IsMarket || w.Tif != api.TifGTC {
		t.Errorf("buy: %+v", w)
	}
	form, errs := s.CheckOrder(OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: Limit, Price: "49000", Size: "0.1"}, g)
	if len(errs) > 0 || !form.Preview.Fee.Equal(plan.Order.Preview.Fee) || !form.Preview.MarginRequired.Equal(plan.Order.Preview.MarginRequired) {
		t.Errorf("the form's check of the same order differs: %+v vs %+v (%v)", form.Preview, plan.Order.Preview, errs)
	}
	plan = mustPlan(t, s, "sell $1500 3010 post", "ETH-PERP")
	w = plan.Order.Wire
	if w.Side != api.SideSell || w.Size != "0.49" || !w.PostOnly || plan.Instrument.Name != "ETH-PERP" {
		t.Errorf("sell by notional on the current instrument: %+v", w)
	}
	plan = mustPlan(t, s, "buy 500usd btc 49000 tp 52000 sl 2%", "")
	b := plan.Bracket
	if len(b.Wires) != 3 || !b.TP.Equal(d("52000")) || !b.SL.Equal(d("48020")) || plan.Order.Wire.Size != "0.01" || b.Wires[0].Grouping != api.GroupingNormal {
		t.Errorf("bracket: tp %s sl %s, %d wires, entry %+v", b.TP, b.SL, len(b.Wires), plan.Order.Wire)
	}
	plan = mustPlan(t, s, "s 1 eth mkt", "")
	if !plan.Order.Wire.IsMarket || plan.Order.Wire.Tif != api.TifIOC || plan.Order.Wire.Side != api.SideSell {
		t.Errorf("market sell: %+v", plan.Order.Wire)
	}
}

func mustPlan(t *testing.T, s *Store, line, current string) CommandPlan {
	t.Helper()
	cmd, err := ParseCommand(line)
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	plan, err := s.PlanCommand(cmd, current, DefaultGuard())
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return plan
}

// TestPlanCommandRefusals: a command that parses but fails the checks names the word at fault:
// the instrument, a price off the tick, a size off the lot, a leverage over the tiers, no position
// to close, tp/sl while brackets are not available. It guards the mapping of the check's field to
// the word.
func TestPlanCommandRefusals(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	s.Apply(OrdersMsg{Orders: []api.OrderRecord{
		{OrderID: 7, Instrument: "ETH-PERP", InstrumentID: 2, Side: "b", LimitPrice: d("2900"), Size: d("1"), Unfilled: d("1"), State: api.StateOpen},
		{OrderID: 8, Instrument: "ETH-PERP", InstrumentID: 2, Side: "b", LimitPrice: d("2800"), Size: d("1"), Unfilled: d("1"), State: api.StateOpen},
	}})
	cases := []struct {
		line, current string
		word          int
		msg           string
	}{
		{"buy 0.1 btcx 49000", "", 3, "unknown instrument"},
		{"buy 0.1 btc 49000.3", "", 4, "not a multiple of the tick size 0.5"},
		{"buy 0.0001 btc 49000", "", 2, "lot size"},
		{"buy 0.1 btc 40000", "", 0, ""}, // far from the mark: allowed, the confirmation asks for a typed yes
		{"buy 0.1 49000", "", 0, "which instrument?"},
		{"buy 1 old 5", "", 3, "delisted"},
		{"buy 0.1 btc 49000 tp 48000", "", 6, "take-profit"},
		{"sell 0.1 btc 49000 sl 48000", "", 6, "stop-loss"},
		{"buy 0.1 btc 49000 sl 48000.3", "", 6, "tick"},
		{"close btc", "", 2, "no open position on BTC-PERP"},
		{"cancel 99", "", 2, "no open order has this id"},
		{"cancel eth", "", 2, "2 orders are open on ETH-PERP: cancel all eth"},
		{"cancel btc", "", 2, "no open orders on BTC-PERP"},
		{"lev btc 60", "", 3, "over the 50x"},
		{"lev btc 10", "", 3, "in force already"},
		{"lev hype 2", "", 2, "spot pair"},
		{"tpsl btc tp 60000", "", 2, "no open position"},
		{"tpsl eth tp 2900", "", 4, "take-profit"},
	}
	for _, tc := range cases {
		cmd, err := ParseCommand(tc.line)
		if err != nil {
			t.Fatalf("%q: %v", tc.line, err)
		}
		_, err = s.PlanCommand(cmd, tc.current, DefaultGuard())
		if tc.msg == "" {
			if err != nil {
				t.Errorf("%q: %v", tc.line, err)
			}
			continue
		}
		var ce *CommandError
		if !errors.As(err, &ce) || ce.Word != tc.word || !strings.Contains(ce.Msg, tc.msg) {
			t.Errorf("%q: %v (word %d); want word %d, %q", tc.line, err, wordOf(ce), tc.word, tc.msg)
		}
	}
}

func wordOf(e *CommandError) int {
	if e == nil {
		return -1
	}
	return e.Word
}

// TestPlanCommandCancelAndClose: cancel takes the one order on an instrument, every order of an
// instrument, or every order; close is the reduce-only market order for the whole position.
// It guards the instrument filter (a cancel on ETH must not take BTC's orders) and the close's side.
func TestPlanCommandCancelAndClose(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	s.Apply(OrdersMsg{Orders: []api.OrderRecord{
		{OrderID: 7, Instrument: "ETH-PERP", InstrumentID: 2, Side: "b", LimitPrice: d("2900"), Size: d("1"), Unfilled: d("1"), State: api.StateOpen},
		{OrderID: 8, Instrument: "ETH-PERP", InstrumentID: 2, Side: "b", LimitPrice: d("2800"), Size: d("1"), Unfilled: d("1"), State: api.StateOpen},
		{OrderID: 9, Instrument: "BTC-PERP", InstrumentID: 1, Side: "s", LimitPrice: d("51000"), Size: d("1"), Unfilled: d("1"), State: api.StateOpen},
	}})
	if p := mustPlan(t, s, "cancel btc", ""); len(p.Cancel) != 1 || p.Cancel[0].OrderID != 9 {
		t.Errorf("cancel btc: %+v", p.Cancel)
	}
	if p := mustPlan(t, s, "cancel all eth", ""); len(p.Cancel) != 2 || p.Cancel[0].OrderID != 7 || p.Cancel[1].OrderID != 8 || p.Instrument.Name != "ETH-PERP" {
		t.Errorf("cancel all eth: %+v", p.Cancel)
	}
	if p := mustPlan(t, s, "cancel all", "BTC-PERP"); len(p.Cancel) != 3 {
		t.Errorf("cancel all: %+v", p.Cancel)
	}
	if p := mustPlan(t, s, "x 8", ""); len(p.Cancel) != 1 || p.Cancel[0].OrderID != 8 || p.Instrument.Name != "ETH-PERP" {
		t.Errorf("x 8: %+v", p.Cancel)
	}
	p := mustPlan(t, s, "close eth", "")
	if w := p.Order.Wire; w.Side != api.SideSell || !w.ReduceOnly || !w.IsMarket || w.Size != "2" {
		t.Errorf("close eth: %+v", w)
	}
	if p := mustPlan(t, s, "tpsl eth tp 3100 sl 1%", ""); len(p.PositionTpsl.Wires) != 2 || !p.PositionTpsl.SL.Equal(d("2871")) ||
		p.PositionTpsl.Wires[0].Grouping != api.GroupingPosition || p.PositionTpsl.Wires[0].Side != api.SideSell {
		t.Errorf("tpsl eth: %+v", p.PositionTpsl)
	}
	if p := mustPlan(t, s, "lev btc 5", ""); !p.Leverage.New.Equal(d("5")) || !p.Leverage.Current.Equal(d("10")) {
		t.Errorf("lev btc 5: %+v", p.Leverage)
	}
}
