package state

import (
	"github.com/shopspring/decimal"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestParsePositionCommands: the close's share, size and price, reverse, flatten and be read as
// typed, and their canonical words parse back to the same command.
func TestParsePositionCommands(t *testing.T) {
	for _, c := range []struct {
		line, canon string
		want        Command
	}{
		{"close btc 25%", "close btc 25%", Command{Verb: VerbClose, Instrument: "btc", InstrumentWord: 2, SharePercent: d("25"), SizeWord: 3}},
		{"close btc 0.05 @ 97000", "close btc 0.05 @97000", Command{Verb: VerbClose, Instrument: "btc", InstrumentWord: 2, Size: d("0.05"), SizeWord: 3,
			ClosePricing: CloseAtPrice, Price: d("97000"), PriceWord: 5}},
		{"c 50% mid", "close 50% mid", Command{Verb: VerbClose, SharePercent: d("50"), SizeWord: 2, ClosePricing: CloseAtMid, PriceWord: 3}},
		{"close eth best", "close eth best", Command{Verb: VerbClose, Instrument: "eth", InstrumentWord: 2, ClosePricing: CloseAtBest, PriceWord: 3}},
		{"reverse btc", "reverse btc", Command{Verb: VerbReverse, Instrument: "btc", InstrumentWord: 2}},
		{"flatten", "flatten", Command{Verb: VerbFlatten}},
		{"flatten cancel", "flatten cancel", Command{Verb: VerbFlatten, All: true}},
		{"be btc", "be btc", Command{Verb: VerbBreakeven, Instrument: "btc", InstrumentWord: 2}},
	} {
		got, err := ParseCommand(c.line)
		c.want.Words = strings.Fields(c.line)
		if err != nil || !sameCommand(got, c.want) || !got.SharePercent.Equal(c.want.SharePercent) || got.ClosePricing != c.want.ClosePricing || got.String() != c.canon {
			t.Errorf("%q: %+v %v (canonical %q)", c.line, got, err, got.String())
		}
	}
	for line, want := range map[string]string{
		"close btc 150%":  "at most 100%",
		"close btc 0.1 x": "unexpected word",
		"flatten btc":     "flatten reads flatten [cancel]",
		"close btc @abc":  "not a number",
	} {
		if _, err := ParseCommand(line); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", line, err, want)
		}
	}
}

// TestPlanPositionCommands: the plans take the share rounded to the lot, a limit reduce-only,
// the reverse twice the size, flatten every position but a delisted one, be the entry plus fees.
func TestPlanPositionCommands(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	if p := mustPlan(t, s, "close eth 25%", ""); p.Order.Wire.Size != "0.5" || !p.Order.Wire.ReduceOnly || !p.Order.Wire.IsMarket || !p.Close.Remaining.Equal(d("1.5")) {
		t.Errorf("close eth 25%%: %+v", p.Order.Wire)
	}
	if p := mustPlan(t, s, "close eth 0.5 @ 3100", ""); p.Order.Wire.Size != "0.5" || p.Order.Wire.Price != "3100" || p.Order.Wire.IsMarket || !p.Order.Wire.ReduceOnly ||
		!p.Close.PnL.Equal(d("100")) || !strings.Contains(p.Close.Words(), "realises +100.00 USD") {
		t.Errorf("close eth 0.5 @ 3100: %+v %s", p.Order.Wire, p.Close.Words())
	}
	if p := mustPlan(t, s, "close eth 33% mid", ""); p.Order.Wire.Size != "0.66" || p.Order.Wire.Price != "3000.01" {
		t.Errorf("close eth 33%% mid: %+v", p.Order.Wire)
	}
	// The long's close at the best price joins the best ask, reduce-only: it rests, never crosses.
	s.Apply(BookMsg{Gen: 1, At: now, Book: api.OrderBook{Symbol: "ETH-PERP", Bids: []api.BookLevel{lv("2999.5", "1")}, Asks: []api.BookLevel{lv("3000.5", "1")}}})
	if p, ask := mustPlan(t, s, "close eth 50% best", ""), s.BookWindow("ETH-PERP", decimal.Zero, 1).BestAsk; !ask.IsPositive() ||
		p.Order.Wire.Price != ask.String() || p.Order.Wire.Size != "1" || !p.Order.Wire.ReduceOnly || p.Order.Wire.IsMarket {
		t.Errorf("close eth 50%% best (best ask %s): %+v", ask, p.Order.Wire)
	}
	if _, err := s.PlanCommand(mustParse(t, "close eth 3"), "", DefaultGuard()); err == nil || !strings.Contains(err.Error(), "give at most 2") {
		t.Errorf("close over the position: %v", err)
	}
	if p := mustPlan(t, s, "reverse eth", ""); p.Order.Wire.Side != api.SideSell || p.Order.Wire.Size != "4" || p.Order.Wire.ReduceOnly {
		t.Errorf("reverse eth: %+v", p.Order.Wire)
	}
	p := mustPlan(t, s, "be eth", "")
	// entry 2900 + (opening 2 x 2900 x 0.00045 + closing the same) / 2 = 2902.61
	if !p.Breakeven.Stop.Equal(d("2902.61")) || len(p.PositionTpsl.Wires) != 1 || p.PositionTpsl.Wires[0].Tpsl != api.TpslStopLoss {
		t.Errorf("be eth: %+v", p.Breakeven)
	}
	s.Apply(PositionsMsg{Positions: append(testPositions(), api.Position{Instrument: "OLD-PERP", InstrumentID: 3, Size: d("-3"), EntryPrice: d("10")})})
	f := mustPlan(t, s, "flatten", "").Flatten
	if len(f.Closes) != 1 || len(f.Skipped) != 1 || f.Skipped[0].Instrument != "OLD-PERP" || !strings.HasSuffix(f.Closes[0].Order.Wire.Cloid, "-1") {
		t.Errorf("flatten: %+v", f)
	}
	now = now.Add(time.Minute)
	if _, err := s.PlanCommand(mustParse(t, "flatten"), "", DefaultGuard()); err == nil || !strings.Contains(err.Error(), "flatten refused") {
		t.Errorf("flatten on old positions: %v", err)
	}
}

func mustParse(t *testing.T, line string) Command {
	t.Helper()
	c, err := ParseCommand(line)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestSizeAsAShareOfTheOfferedMaximum: "25%" in a buy's size is a quarter of the most the
// account can afford on that order (the size the check offers when one exceeds it), rounded down
// to the lot; 100% passes the check and one lot more does not.
func TestSizeAsAShareOfTheOfferedMaximum(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	in := OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: Market}
	max, err := s.OfferedMax(in, DefaultGuard())
	if err != nil || !max.IsPositive() {
		t.Fatalf("offered max %s %v", max, err)
	}
	full := mustPlan(t, s, "buy 100% btc mkt", "")
	if !full.Order.Size.Equal(max) {
		t.Fatalf("100%%: %s, want the offered max %s", full.Order.Size, max)
	}
	over := in
	over.Size = max.Add(d("0.001")).String()
	if _, errs := s.CheckOrder(over, DefaultGuard()); len(errs) == 0 {
		t.Fatalf("one lot over the offered max %s passes the check", max)
	}
	q := mustPlan(t, s, "buy 25% btc mkt", "")
	if want := FloorToStep(max.Div(d("4")), d("0.001")); !q.Order.Size.Equal(want) {
		t.Fatalf("25%%: %s, want %s", q.Order.Size, want)
	}
	if c := mustParse(t, "b 25% btc 50000"); c.String() != "buy 25% btc 50000" {
		t.Fatalf("canonical %q", c.String())
	}
	if _, err := ParseCommand("buy 120% btc mkt"); err == nil || !strings.Contains(err.Error(), "at most 100%") {
		t.Fatalf("120%%: %v", err)
	}
}
