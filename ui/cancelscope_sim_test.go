package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/state"
)

// TestMassCancelsNameThePositionsStops (#31 point 10): X on an order, C, the kill switch and the
// command line's cancel all say, in their confirmation, that they take the position's stop-loss
// and take-profit ("including the stop-loss and take-profit on your 0.100 ETH long"); Esc sends
// nothing.
func TestMassCancelsNameThePositionsStops(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 80, 24, false)
	pump(t, c.m, c.m.Init())
	c.commandConfirmed(t, "buy 0.1 eth mkt")
	tk, _ := c.m.store.Ticker("ETH-PERP")
	in, _ := c.m.store.Instrument("ETH-PERP")
	tp := state.RoundToStep(tk.MarkPrice.Mul(d("1.1")), in.TickSize)
	sl := state.RoundToStep(tk.MarkPrice.Mul(d("0.9")), in.TickSize)
	c.commandConfirmed(t, "tpsl eth tp "+tp.String()+" sl "+sl.String())
	moreOrders(t, c, "ETH-PERP")
	pos := c.position(t, "ETH-PERP")
	takes := "the stop-loss and take-profit on your " + in.SizeText(pos.Size) + " ETH long"
	open := len(openIDs(t, c))

	says := func(what string) {
		t.Helper()
		if c.m.confirmation() == nil {
			t.Fatalf("%s asked nothing (notice %q)", what, c.m.shownNotice())
		}
		flat := func(s string) string { return strings.Join(strings.Fields(strings.ReplaceAll(s, "│", "")), "") }
		if !strings.Contains(flat(ansi.Strip(c.m.confirmation().View())), flat(takes)) {
			t.Errorf("%s does not say it takes %q:\n%s", what, takes, c.m.confirmation().View())
		}
		c.key(t, "esc")
		if n := len(openIDs(t, c)); n != open {
			t.Fatalf("Esc on %s: %d orders open, want %d", what, n, open)
		}
	}
	c.key(t, "3", "X")
	says("X")
	c.key(t, "C")
	says("C")
	c.press(t, ctrlK)
	says("the kill switch")
	c.command(t, "cancel all eth")
	says("cancel all eth")
}
