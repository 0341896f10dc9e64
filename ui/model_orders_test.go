package ui

import (
	"regexp"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

func TestStopLossTriggerOrderThroughTheUI(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	placeFixtureOrders(t, c.m.ex) // long 0.5 ETH-PERP
	pump(t, c.m, c.m.Init())
	c.key(t, "4")
	c.m.form.SetValue(orderentry.FieldInstrument, "ETH-PERP")
	c.key(t, "down", " ", "down", "right", "right", "right") // side: sell; type: limit, market, tp, sl
	if c.m.form.OrderType() != "sl" || c.m.form.Side() != api.SideSell {
		t.Fatalf("type %q side %q", c.m.form.OrderType(), c.m.form.Side())
	}
	c.key(t, "down", "down") // price (empty: executes at market), trigger
	if c.m.form.Field() != orderentry.FieldTrigger {
		t.Fatalf("field %d, want the trigger", c.m.form.Field())
	}
	c.typeText(t, "3300")
	c.key(t, "down")
	c.typeText(t, "0.5")
	c.key(t, "down", "down", "down", " ") // usd, tif, reduce-only: on
	if !c.m.form.ReduceOnly() {
		t.Fatalf("reduce-only not set (field %d)", c.m.form.Field())
	}
	c.key(t, "enter")
	if c.m.confirmation() == nil {
		t.Fatalf("no confirmation: %q %v", c.m.shownNotice(), c.m.form.Errors())
	}
	if v := c.m.View(); !strings.Contains(v, "stop loss") || !strings.Contains(v, "trigger 3,300") {
		t.Errorf("confirmation does not show the trigger:\n%s", v)
	}
	c.key(t, "enter")
	var sl *api.OrderRecord
	for _, o := range c.m.store.Orders() {
		if o.Tpsl == api.TpslStopLoss {
			sl = &o
		}
	}
	if sl == nil || !sl.ReduceOnly || sl.Side != api.SideSell {
		t.Fatalf("no reduce-only stop loss among open orders %+v (notice %q)", c.m.store.Orders(), c.m.shownNotice())
	}
	if v := c.m.View(); !strings.Contains(v, "sl @3,300.00") {
		t.Errorf("open orders do not show the trigger:\n%s", v)
	}
}

func TestOffTickPriceOffersRoundedValueNeverAppliesIt(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.key(t, "4")
	c.m.form.SetValue(orderentry.FieldInstrument, "BTC-PERP")
	c.key(t, "down", "down", "down")
	c.typeText(t, "95000.05")
	c.key(t, "down")
	c.typeText(t, "0.01")
	c.key(t, "enter")
	if c.m.confirmation() != nil {
		t.Fatal("an off-tick price reached the confirmation")
	}
	if got := c.m.form.Value(orderentry.FieldPrice); got != "95000.05" {
		t.Fatalf("the price was changed to %q without asking", got)
	}
	// A buy's price rounds down, to the passive side (issue #23, case 8).
	if v := c.m.View(); !regexp.MustCompile(`= uses 95000[^.0-9]`).MatchString(v) {
		t.Errorf("the rounded value is not offered:\n%s", v)
	}
	if c.m.form.Field() != orderentry.FieldPrice {
		t.Fatalf("submit did not move to the field in error (field %d)", c.m.form.Field())
	}
	c.typeText(t, "=")
	if got := c.m.form.Value(orderentry.FieldPrice); got != "95000" {
		t.Fatalf("price %q after taking the suggestion", got)
	}
	c.key(t, "enter", "enter")
	if n := len(c.m.store.Orders()); n != 1 {
		t.Fatalf("%d orders after fixing the price (notice %q)", n, c.m.shownNotice())
	}
}

// TestQuitWhileSendingAsksTwice confirms the kill switch and presses q before its answer is back:
// the console asks twice.
func TestQuitWhileSendingAsksTwice(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.key(t, "ctrl+k")
	send := confirmOpenDialog(t, c.m)
	if c.m.pipe.open != 1 {
		t.Fatalf("the kill switch was not sent: %d actions out, notice %q", c.m.pipe.open, c.m.shownNotice())
	}
	quitTwice(t, c.m)
	pump(t, c.m, send)
	if c.m.pipe.open != 0 {
		t.Fatalf("%d actions still out after the answer", c.m.pipe.open)
	}
}

// confirmOpenDialog presses Enter in the open dialog and hands its answer to the model; it returns
// the command that sends the action, not yet run (the action is out until its answer is handled).
func confirmOpenDialog(t *testing.T, m *Model) tea.Cmd {
	t.Helper()
	if m.confirmation() == nil {
		t.Fatalf("no dialog to confirm; notice %q", m.shownNotice())
	}
	_, answer := m.Update(keyMsg("enter"))
	_, send := m.Update(answer())
	if send == nil {
		t.Fatalf("confirming sent nothing; notice %q", m.shownNotice())
	}
	return send
}

// quitTwice presses q twice: the first only warns that an action is out, the second quits.
func quitTwice(t *testing.T, m *Model) {
	t.Helper()
	if _, cmd := m.Update(keyMsg("q")); cmd != nil {
		t.Fatal("q quit at once while an action was out")
	}
	if !strings.Contains(m.shownNotice(), "still out") {
		t.Errorf("notice %q", m.shownNotice())
	}
	_, cmd := m.Update(keyMsg("q"))
	if cmd == nil {
		t.Fatal("a second q did not quit")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Fatal("a second q did not quit")
	}
}
