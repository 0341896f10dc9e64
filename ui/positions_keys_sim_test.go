package ui

import (
	"context"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// openLong opens a market long of size on symbol at the simulator and loads it into the console.
func openLong(t *testing.T, c *simConsole, symbol, size string) {
	t.Helper()
	co, errs := c.m.store.CheckOrder(state.OrderIntent{Instrument: symbol, Side: "b", Type: state.Market, Size: size}, state.Guard{})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if out := placeWire(t, c, co); out.Kind != state.OutcomeFilled {
		t.Fatalf("opening the long: %+v", out)
	}
	pump(t, c.m, c.m.refreshNow(state.KindPositions, state.KindAccount, state.KindTickers, state.KindOrders, state.KindFills))
}

// confirm presses Enter on the open confirmation (typing its word first when it asks one).
func (c *simConsole) confirm(t *testing.T, what string) {
	t.Helper()
	if c.m.confirmation() == nil {
		t.Fatalf("%s: no confirmation (notice %q)", what, c.m.shownNotice())
	}
	if w := c.m.confirmation().Action().Typed; w != "" {
		c.typeText(t, w)
	}
	c.key(t, "enter")
	pump(t, c.m, c.m.refreshNow(state.KindPositions, state.KindAccount, state.KindOrders))
}

// TestPositionKeysAgainstTheSimulator (issue #35): in the positions pane, x 2 Enter (three keys)
// closes half of the position, its confirmation saying the PnL it realises; x 4 the rest; R
// reverses a long into a short of the same size; ctrl+x, typing "flatten", leaves no position
// and says one line per order and their sum with the PnL they realise ("flatten: 2 sent, 2
// filled; the filled realise -1.20 USD, fee 0.40 USD (est.)").
func TestPositionKeysAgainstTheSimulator(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	openLong(t, c, "BTC-PERP", "0.0123")
	c.key(t, "2", "x", "2")
	if v := c.m.View(); !strings.Contains(v, "Realises") || !strings.Contains(v, "SELL 0.0061 BTC-PERP") {
		t.Fatalf("x 2: the confirmation does not close half and say its PnL:\n%s", v)
	}
	c.confirm(t, "x 2")
	if got := c.position(t, "BTC-PERP").Size; !got.Equal(d("0.0062")) {
		t.Fatalf("after x 2 the position is %s, want 0.0062 (notice %q)", got, c.m.shownNotice())
	}
	c.key(t, "x", "4")
	c.confirm(t, "x 4")
	if got := c.position(t, "BTC-PERP").Size; !got.IsZero() {
		t.Fatalf("after x 4 the position is %s", got)
	}

	openLong(t, c, "BTC-PERP", "0.01")
	c.key(t, "g", "R") // the closed row was the one chosen: pick the new one
	if v := c.m.View(); !strings.Contains(v, "to SHORT 0.0100") {
		t.Fatalf("R: the confirmation does not say the reverse:\n%s", v)
	}
	c.confirm(t, "R")
	if got := c.position(t, "BTC-PERP").Size; !got.Equal(d("-0.01")) {
		t.Fatalf("after R the position is %s, want -0.01 (notice %q)", got, c.m.shownNotice())
	}

	openLong(t, c, "ETH-PERP", "0.1")
	c.key(t, "ctrl+x")
	if c.m.confirmation() == nil || c.m.confirmation().Action().Typed != "flatten" || !strings.Contains(c.m.View(), "2 orders to send") {
		t.Fatalf("ctrl+x: no typed confirmation listing both closes (notice %q):\n%s", c.m.shownNotice(), c.m.View())
	}
	c.confirm(t, "ctrl+x")
	for _, sym := range []string{"BTC-PERP", "ETH-PERP"} {
		if got := c.position(t, sym).Size; !got.IsZero() {
			t.Fatalf("after flatten %s is %s (notice %q)", sym, got, c.m.shownNotice())
		}
		// The result: one line per order in the messages view, and their sum.
		if c.countMessages("flatten: "+sym+": filled") != 1 {
			t.Errorf("no result line for the flatten's %s order: %+v", sym, c.m.messageEntries())
		}
	}
	if c.countMessages("flatten: 2 sent, 2 filled; the filled realise ") != 1 {
		t.Fatalf("the flatten's result is not summed: %+v", c.m.messageEntries())
	}
}

// TestCloseMenuTakesDigitsAndEscLeavesIt: while the close menu is open a digit is a share, not a
// pane; any other key closes it, nothing sent.
func TestCloseMenuTakesDigitsAndEscLeavesIt(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	openLong(t, c, "BTC-PERP", "0.01")
	c.key(t, "2", "x")
	if !strings.Contains(c.m.shownNotice(), "1 25%") {
		t.Fatalf("x: the menu's keys are not said: %q", c.m.shownNotice())
	}
	c.key(t, "esc")
	if c.m.confirmation() != nil || !strings.Contains(c.m.shownNotice(), "nothing sent") {
		t.Fatalf("esc: dialog %v, notice %q", c.m.confirmation() != nil, c.m.shownNotice())
	}
	c.key(t, "x", "1")
	if c.m.confirmation() == nil || !strings.Contains(c.m.View(), "SELL 0.0025 BTC-PERP") {
		t.Fatalf("x 1: not a 25%% close:\n%s", c.m.View())
	}
}

// TestBreakevenKeyUnderWaterSaysWhy: B on a position not yet past its fees is refused with the
// breakeven price and why; nothing is asked of the pipeline.
func TestBreakevenKeyUnderWaterSaysWhy(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	openLong(t, c, "BTC-PERP", "0.01")
	c.key(t, "2", "B")
	if c.m.confirmation() != nil || !strings.Contains(c.m.shownNotice(), "breakeven") || !strings.Contains(c.m.shownNotice(), "in profit past its fees") {
		t.Fatalf("B under water: dialog %v, notice %q", c.m.confirmation() != nil, c.m.shownNotice())
	}
}

// TestPositionCommandsOnTheLine: :close btc 25%, :reverse btc and :flatten do on the command line
// what the keys do.
func TestPositionCommandsOnTheLine(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	openLong(t, c, "BTC-PERP", "0.02")
	c.commandConfirmed(t, "close btc 25%")
	if got := c.position(t, "BTC-PERP").Size; !got.Equal(d("0.015")) {
		t.Fatalf("after :close btc 25%% the position is %s", got)
	}
	pump(t, c.m, c.m.refreshNow(state.KindPositions, state.KindAccount, state.KindOrders))
	c.commandConfirmed(t, "reverse btc")
	if got := c.position(t, "BTC-PERP").Size; !got.Equal(d("-0.015")) {
		t.Fatalf("after :reverse btc the position is %s", got)
	}
	pump(t, c.m, c.m.refreshNow(state.KindPositions, state.KindAccount, state.KindOrders))
	c.commandConfirmed(t, "flatten")
	if got := c.position(t, "BTC-PERP").Size; !got.IsZero() {
		t.Fatalf("after :flatten the position is %s", got)
	}
}

// TestReverseCancelsTheTPSLAndOffersThemOnTheNewSide (issue #35): R on a long with a take-profit
// and a stop says they will be cancelled and offered again; once the short is open they are
// gone from the exchange and the command line is open with them at the same distances from the
// entry ("tpsl BTC-PERP tp 5% sl 5%"), for Enter to set on the new side.
func TestReverseCancelsTheTPSLAndOffersThemOnTheNewSide(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	openLong(t, c, "BTC-PERP", "0.01")
	c.commandConfirmed(t, "tpsl btc tp 5% sl 5%")
	pump(t, c.m, c.m.refreshNow(state.KindOrders, state.KindPositions))
	if n := len(c.openOrders(t)); n != 2 {
		t.Fatalf("the TP/SL: %d open orders", n)
	}
	c.key(t, "2", "R")
	if v := c.m.View(); !strings.Contains(v, "will be cancelled, and offered again on the new side: tpsl BTC-PERP tp 5% sl 5%") {
		t.Fatalf("R: the confirmation does not say what becomes of the TP/SL:\n%s", v)
	}
	c.confirm(t, "R")
	if got := c.position(t, "BTC-PERP").Size; !got.Equal(d("-0.01")) {
		t.Fatalf("after R the position is %s (notice %q)", got, c.m.shownNotice())
	}
	if oo := c.openOrders(t); len(oo) != 0 {
		t.Fatalf("the old side's TP/SL rest: %+v", oo)
	}
	if !c.m.cmdline.Active() || c.m.cmdline.Value() != "tpsl BTC-PERP tp 5% sl 5%" {
		t.Fatalf("the TP/SL are not offered on the command line: open %v, %q", c.m.cmdline.Active(), c.m.cmdline.Value())
	}
}

// TestFlattenCancelCancelsEveryOrderFirst (issue #35: flatten "optionally with cancel-all
// first"): `:flatten cancel` lists the cancel first in its confirmation, and once the typed word
// confirms it leaves no open order and no position.
func TestFlattenCancelCancelsEveryOrderFirst(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	openLong(t, c, "BTC-PERP", "0.01")
	c.m.reviewEveryOrder() // the resting order through its confirmation, as restingByCommand confirms it
	c.restingByCommand(t, "sol")
	if len(c.openOrders(t)) != 1 {
		t.Fatalf("no resting order: %+v", c.openOrders(t))
	}
	c.command(t, "flatten cancel")
	if c.m.confirmation() == nil || !strings.Contains(strings.Join(c.m.confirmation().Action().Lines, "\n"), "first: cancel every open order") {
		t.Fatalf(":flatten cancel: the confirmation does not say the cancel first (notice %q)", c.m.shownNotice())
	}
	c.confirm(t, ":flatten cancel")
	if oo := c.openOrders(t); len(oo) != 0 {
		t.Fatalf("after :flatten cancel orders rest: %+v", oo)
	}
	if got := c.position(t, "BTC-PERP").Size; !got.IsZero() {
		t.Fatalf("after :flatten cancel the position is %s (notice %q)", got, c.m.shownNotice())
	}
}

// TestBreakevenKeyPlacesTheStopAtEntryPlusFees (issue #35): B on a long past its fees asks to
// move its stop-loss to the entry plus the fees (the plan state.PlanBreakeven makes, as :be and
// tradedesk breakeven do); confirmed, the exchange holds a stop-loss on the position at that
// trigger, above the entry.
func TestBreakevenKeyPlacesTheStopAtEntryPlusFees(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	openLong(t, c, "BTC-PERP", "0.01")
	entry := c.position(t, "BTC-PERP").EntryPrice
	px := entry.Mul(d("1.02")).Round(0)
	if _, err := takerOn(t, c).PlaceOrders(context.Background(), []api.OrderWire{{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth,
		Price: px.String(), Size: "3", Tif: api.TifIOC, Cloid: state.NewCloid()}}); err != nil {
		t.Fatal(err)
	}
	if err := c.sim.SetIndexPrice("BTC-PERP", px); err != nil {
		t.Fatal(err)
	}
	pump(t, c.m, c.m.refreshNow(state.KindTickers, state.KindPositions, state.KindAccount, state.KindFills))
	plan, errs := c.m.store.PlanBreakeven("BTC-PERP")
	if len(errs) > 0 || !plan.Stop.GreaterThan(entry) {
		t.Fatalf("the breakeven plan: %+v %v", plan, errs)
	}
	c.key(t, "2", "B")
	c.confirm(t, "B")
	var stops []api.OrderRecord
	for _, o := range c.openOrders(t) {
		if o.Tpsl == api.TpslStopLoss {
			stops = append(stops, o)
		}
	}
	if len(stops) != 1 || !stops[0].TriggerPx.Decimal.Equal(plan.Stop) {
		t.Fatalf("after B: stops %+v, want one at %s (entry %s plus fees; notice %q)", stops, plan.Stop, entry, c.m.shownNotice())
	}
}
