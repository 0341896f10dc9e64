package action

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// simClient is a client of a funded account on a still simulator (its clock stopped) served
// over HTTP.
func simClient(t *testing.T) *api.Client {
	t.Helper()
	s := sim.New(sim.WithSeed(11), sim.WithClock(sim.NewTestClock(time.Now())))
	signer, err := api.SignerFromHex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return api.New(srv.URL, api.WithSigner(signer))
}

// simTrader is a funded account on a simulator served over HTTP, and ETH-PERP's terms and mark.
func simTrader(t *testing.T) (*api.Client, state.Instrument, decimal.Decimal) {
	t.Helper()
	c := simClient(t)
	ctx := context.Background()
	ins, err := c.Instruments(ctx, "all")
	if err != nil {
		t.Fatal(err)
	}
	var in state.Instrument
	for _, p := range ins.Perps {
		if p.Name == "ETH-PERP" {
			in = state.InstrumentFromPerp(p)
		}
	}
	tk, err := c.Ticker(ctx, "ETH-PERP")
	if err != nil || len(tk) != 1 {
		t.Fatal(err, tk)
	}
	return c, in, tk[0].MarkPrice
}

// marketWire is a market order on in for size, bounded 5% past mark.
func marketWire(in state.Instrument, side, size string, mark decimal.Decimal) api.OrderWire {
	bound := state.CeilToStep(mark.Mul(decimal.RequireFromString("1.05")), in.TickSize)
	if side == api.SideSell {
		bound = state.FloorToStep(mark.Mul(decimal.RequireFromString("0.95")), in.TickSize)
	}
	return api.OrderWire{InstrumentID: in.ID, Side: side, PositionSide: api.PositionSideBoth, Price: bound.String(), Size: size,
		Tif: api.TifIOC, IsMarket: true, Cloid: state.NewCloid()}
}

// TestBracketLegsCancelledAtOnceAreSaid, against the simulator over HTTP: a bracket whose entry
// only reduces a short (sent past the console's check, as a position changed since it ran) has
// its legs cancelled by the exchange the moment the entry fills; the bracket's outcome says so,
// in words, as a failure, and says what to do. Guards the cancelled-leg branch dropped (the line
// would read "placed (3 orders ...)" as a success while the entry stands unprotected).
func TestBracketLegsCancelledAtOnceAreSaid(t *testing.T) {
	c, in, mark := simTrader(t)
	ctx := context.Background()
	if _, err := c.PlaceOrders(ctx, []api.OrderWire{marketWire(in, api.SideSell, "1.5", mark)}); err != nil {
		t.Fatal(err)
	}
	tp, sl := state.RoundToStep(mark.Mul(decimal.RequireFromString("1.1")), in.TickSize), state.RoundToStep(mark.Mul(decimal.RequireFromString("0.9")), in.TickSize)
	entry := marketWire(in, api.SideBuy, "0.5", mark)
	wires, err := api.Bracket(entry, state.TpslLegAt(api.TpslTakeProfit, tp, in, false), state.TpslLegAt(api.TpslStopLoss, sl, in, false))
	if err != nil {
		t.Fatal(err)
	}
	cb := state.CheckedBracket{Entry: state.CheckedOrder{Wire: wires[0], Instrument: in, Size: decimal.RequireFromString("0.5")},
		TP: tp, SL: sl, Wires: wires}
	a := NewBracket(cb, common.NewStyles(commontest.Theme))
	out, err := a.Run(ctx, testExecutor(t, c, c), exec.Ask{Who: journal.WhoForm})
	if err != nil {
		t.Fatal(err)
	}
	text, level := Words(DoneMsg{Act: a, Out: out})
	if level != common.LevelError || !strings.Contains(text, "the exchange cancelled its take-profit and stop-loss at once: the entry is not protected; set TP/SL on the position") {
		t.Fatalf("outcome %q (level %v)", text, level)
	}
	// The legs' client ids are the entry's children (journal.ChildCloid), not random ones.
	for i, l := range out.Legs {
		if want, _ := journal.ChildCloid(wires[0].Cloid, i+1); l.Cloid != want {
			t.Errorf("leg %d has client id %s, want %s", i+1, l.Cloid, want)
		}
	}
}

// testExecutor is an executor on a journal in a test directory, sending through send and reading
// through c, with the default guard (the console's without a config).
func testExecutor(t *testing.T, send exec.Sender, c *api.Client) *exec.Executor {
	t.Helper()
	g := state.DefaultGuard()
	e, err := exec.Open(exec.Setup{Dir: t.TempDir(), Network: "sim", Config: exec.Config{Send: send, Read: c, Account: c.Address(), Guard: &g,
		LookupWait: 10 * time.Millisecond, SettleEvery: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// TestBracketConfirmationSaysWhatTheLegsAreMeasuredFrom: a market bracket's confirmation says the
// price its legs, gain and loss are measured from (the expected average fill, one digit finer
// than the tick) and the mark the exchange judges them against. Guards the line dropped and the
// two prices swapped.
func TestBracketConfirmationSaysWhatTheLegsAreMeasuredFrom(t *testing.T) {
	d := decimal.RequireFromString
	in := state.Instrument{Name: "BTC-PERP", TickSize: d("0.5"), LotSize: d("0.001")}
	cb := state.CheckedBracket{Ref: d("50006.8333"), RefWhat: "the expected average fill", Judge: d("50000"), JudgeWhat: "the mark",
		TP: d("50012"), SL: d("49997"), Reward: d("1.55"), Risk: d("2.95"), Size: d("0.3"),
		Entry: state.CheckedOrder{Instrument: in, Size: d("0.3"), Wire: api.OrderWire{Side: api.SideBuy, Size: "0.3", Price: "50500", Tif: api.TifIOC, IsMarket: true}}}
	lines := strings.Join(NewBracket(cb, common.NewStyles(commontest.Theme)).Lines, "\n")
	for _, want := range []string{"Measured from 50,006.83 (expected average fill); judged against the mark 50,000.0",
		"Take-profit  50,012.0 (market)   +1.55 USD", "Stop-loss    49,997.0 (market)   -2.95 USD"} {
		if !strings.Contains(lines, want) {
			t.Errorf("confirmation does not say %q:\n%s", want, lines)
		}
	}
}

// TestPositionTpslConfirmationSaysEntryMarkAndPnL: a position's take-profit and stop confirm with
// the entry price their distances were measured from, the mark, and the PnL at each leg with its
// sign. Guards the PnL's sign lost (a stop under a long's entry shown as a gain) and the
// reference price dropped from the confirmation.
func TestPositionTpslConfirmationSaysEntryMarkAndPnL(t *testing.T) {
	d := decimal.RequireFromString
	in := state.Instrument{Name: "ETH-PERP", TickSize: d("0.01"), LotSize: d("0.01")}
	pt := state.PositionTpsl{Instrument: in, Position: api.Position{Instrument: "ETH-PERP", Size: d("2"), EntryPrice: d("2900")},
		Mark: d("3000"), TP: d("3045"), SL: d("2871"), TPPnL: d("290"), SLPnL: d("-58"), Wires: []api.OrderWire{{Tpsl: api.TpslTakeProfit}}}
	lines := strings.Join(NewPositionTpsl(pt, common.NewStyles(commontest.Theme)).Lines, "\n")
	for _, want := range []string{"Position     +2.00 @ 2,900.00 (distances measured from this entry price)", "Mark         3,000.00",
		"Take-profit  3,045.00 (market)   +290.00 USD", "Stop-loss    2,871.00 (market)   -58.00 USD"} {
		if !strings.Contains(lines, want) {
			t.Errorf("confirmation does not say %q:\n%s", want, lines)
		}
	}
}

// TestStopBeyondLiquidationIsSaidInTheConfirmation: a bracket whose stop lies beyond its
// liquidation estimate says on the stop's line that it never fires and shows the loss at
// liquidation, and a position stop beyond its liquidation price shows the warning and asks for a
// typed yes. Guards the stop line that still promises its own loss, and a warned position
// TP/SL confirmed by Enter alone.
func TestStopBeyondLiquidationIsSaidInTheConfirmation(t *testing.T) {
	d := decimal.RequireFromString
	st := common.NewStyles(commontest.Theme)
	in := state.Instrument{Name: "ETH-PERP", TickSize: d("0.01"), LotSize: d("0.01")}
	cb := state.CheckedBracket{Ref: d("3480"), RefWhat: "the entry price", Judge: d("3480"), SL: d("3620.02"), Liq: d("3549.74"), StopPastLiq: true,
		Risk: d("69.74"), Size: d("1"), Entry: state.CheckedOrder{Instrument: in, Size: d("1"), Wire: api.OrderWire{Side: api.SideSell, Size: "1", Price: "3480"}}}
	if lines := strings.Join(NewBracket(cb, st).Lines, "\n"); !strings.Contains(lines, "Stop-loss    3,620.02 (market)   never fires: liquidated first at 3,549.74, -69.74 USD") {
		t.Errorf("bracket confirmation:\n%s", lines)
	}
	pt := state.PositionTpsl{Instrument: in, Position: api.Position{Instrument: "ETH-PERP", Size: d("-1.5"), EntryPrice: d("3417.4")},
		Mark: d("3432"), SL: d("3600"), Liq: d("3546"), StopPastLiq: true, SLPnL: d("-192.9"),
		Warnings: []string{"stop-loss 3,600.00 lies beyond the position's liquidation price 3,546.00"}, Wires: []api.OrderWire{{Tpsl: api.TpslStopLoss}}}
	a := NewPositionTpsl(pt, st)
	lines := strings.Join(a.Lines, "\n")
	if a.Typed != "yes" || !strings.Contains(lines, "! stop-loss 3,600.00 lies beyond") ||
		!strings.Contains(lines, "Stop-loss    3,600.00 (market)   never fires: liquidated first at 3,546.00, -192.90 USD") {
		t.Errorf("position confirmation (typed %q):\n%s", a.Typed, lines)
	}
}

// TestACrossingLimitSaysItFillsAtOnce (QA 13c #1): the confirmation of a limit order priced through
// the book, placed or moved there, says it fills at once as a taker; a limit that rests, and a
// market order, do not get the line. Guards the crossing check dropped or inverted.
func TestACrossingLimitSaysItFillsAtOnce(t *testing.T) {
	st := common.NewStyles(commontest.Theme)
	w := api.OrderWire{Side: api.SideSell, Price: "186", Size: "20", Cloid: "c"}
	cross := state.CheckedOrder{Wire: w, Preview: state.Preview{Taker: true}, Price: decimal.RequireFromString("186"), Size: decimal.RequireFromString("20")}
	rest := cross
	rest.Preview.Taker, rest.Rests = false, true
	market := cross
	market.Wire.IsMarket = true
	const said = "crosses the book: it fills at once as a taker"
	old := api.OrderRecord{OrderID: 5, Instrument: "SOL-PERP", Side: api.SideSell, LimitPrice: decimal.RequireFromString("192.868"), Unfilled: decimal.RequireFromString("20")}
	for _, tc := range []struct {
		name string
		a    *Action
		want bool
	}{
		{"crossing limit", NewOrder(KindPlace, cross, st), true},
		{"crossing move", NewAmend(old, cross, st), true},
		{"resting limit", NewOrder(KindPlace, rest, st), false},
		{"resting move", NewAmend(old, rest, st), false},
		{"market", NewOrder(KindPlace, market, st), false},
	} {
		if got := strings.Contains(strings.Join(tc.a.Lines, "\n"), said); got != tc.want {
			t.Errorf("%s: says it crosses %v, want %v", tc.name, got, tc.want)
		}
	}
}
