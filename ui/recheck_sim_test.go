package ui

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
)

// TestEnterChecksTheConfirmationAgain (issue #31 #6), against the simulator: a confirmation left
// open 11 s (the test's clock, stepped) is not sent on Enter but shown again, saying why; Enter
// on the refreshed one sends. One whose market moved against the buyer while it was open says
// the worst price moved and sends nothing until confirmed again. A close whose position grew
// while it was open is asked again for the new size, and closes all of it. Guards the dialog
// built on open and sent on Enter however much later.
func TestEnterChecksTheConfirmationAgain(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	sc := &signedCounter{}
	c := newSimConsoleVia(t, 120, 40, false, func(h http.Handler) http.Handler { sc.next = h; return sc })
	pump(t, c.m, c.m.Init())
	refresh := func() {
		pump(t, c.m, c.m.refreshNow(state.KindTickers, state.KindMids, state.KindBook, state.KindPositions))
	}
	askedAgain := func(what, why string) {
		t.Helper()
		if c.m.confirmation() == nil {
			t.Fatalf("%s: no confirmation after Enter (notice %q)", what, c.m.shownNotice())
		}
		if v := strings.Join(strings.Fields(ansi.Strip(c.m.View())), " "); !strings.Contains(v, "↻ not sent, checked again: ") || !strings.Contains(v, why) {
			t.Fatalf("%s: the dialog does not say why it asks again (%q):\n%s", what, why, c.m.View())
		}
	}

	c.command(t, "buy 0.01 btc mkt")
	c.clock.Add(11 * time.Second)
	refresh()
	c.key(t, "enter")
	if n := sc.n.Load(); n != 0 {
		t.Fatalf("%d signed requests after Enter on an 11s old confirmation", n)
	}
	askedAgain("open 11s", "it was open 11s, over 10s")
	c.key(t, "enter")
	if c.m.confirmation() != nil || sc.n.Load() != 1 {
		t.Fatalf("the refreshed confirmation was not sent (dialog %v, %d signed, notice %q)", c.m.confirmation() != nil, sc.n.Load(), c.m.shownNotice())
	}
	pump(t, c.m, nil)

	c.command(t, "buy 0.01 btc mkt")
	tk, _ := c.m.store.Ticker("BTC-PERP")
	if err := c.sim.SetIndexPrice("BTC-PERP", tk.MarkPrice.Mul(decimal.RequireFromString("1.01")).Round(0)); err != nil {
		t.Fatal(err)
	}
	c.sim.Advance(time.Second) // the makers quote around the new index
	refresh()
	c.key(t, "enter")
	if sc.n.Load() != 1 {
		t.Fatal("a confirmation whose worst price moved against the buyer was sent")
	}
	askedAgain("the market up 1%", "the worst price moved from ")
	if a := c.m.confirmation().Action(); a.Typed != "" {
		c.typeText(t, a.Typed)
	}
	c.key(t, "enter")
	if sc.n.Load() != 2 {
		t.Fatalf("the refreshed confirmation was not sent (notice %q)", c.m.shownNotice())
	}
	pump(t, c.m, nil)

	refresh()
	c.command(t, "close btc")
	if c.m.confirmation() == nil {
		t.Fatalf("close asked nothing (notice %q)", c.m.shownNotice())
	}
	co, errs := c.m.store.CheckOrder(state.OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: state.Market, Size: "0.01", Cloid: state.NewCloid()}, state.Guard{})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if out := placeWire(t, c, co); out.Kind != state.OutcomeFilled {
		t.Fatalf("the buy behind the dialog: %+v", out)
	}
	refresh()
	signed := sc.n.Load()
	c.key(t, "enter")
	if sc.n.Load() != signed {
		t.Fatal("a close of a position that grew was sent for the old size")
	}
	askedAgain("the position grew", "the size is now 0.0300, not 0.0200")
	c.key(t, "enter")
	if p := c.position(t, "BTC-PERP"); !p.Size.IsZero() {
		t.Fatalf("the refreshed close left %s BTC (notice %q)", p.Size, c.m.shownNotice())
	}
}
