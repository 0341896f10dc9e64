package ui

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// recheckConsole is a console at 120x40 behind a counter of signed requests, with a BTC-PERP long
// of 0.02 opened behind its back, and a refresh of the kinds a second check reads.
func recheckConsole(t *testing.T) (*simConsole, *signedCounter, func()) {
	t.Helper()
	sc := &signedCounter{}
	c := newSimConsoleVia(t, 120, 40, false, func(h http.Handler) http.Handler { sc.next = h; return sc })
	pump(t, c.m, c.m.Init())
	refresh := func() {
		pump(t, c.m, c.m.refreshNow(state.KindTickers, state.KindMids, state.KindBook, state.KindPositions, state.KindAccount))
	}
	behind(t, c, api.SideBuy, "0.02", false)
	refresh()
	return c, sc, refresh
}

// behind places a market order on BTC-PERP behind the console's back.
func behind(t *testing.T, c *simConsole, side string, size string, reduce bool) {
	t.Helper()
	co, errs := c.m.store.CheckOrder(state.OrderIntent{Instrument: "BTC-PERP", Side: side, Type: state.Market, Size: size, ReduceOnly: reduce, Cloid: state.NewCloid()}, state.Guard{})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if out := placeWire(t, c, co); out.Kind != state.OutcomeFilled {
		t.Fatalf("the %s of %s behind the console: %+v", side, size, out)
	}
}

// screenSays fails unless the console's screen, its words joined by single spaces, holds each of
// want.
func screenSays(t *testing.T, c *simConsole, what string, want ...string) {
	t.Helper()
	v := strings.Join(strings.Fields(ansi.Strip(c.m.View())), " ")
	for _, w := range want {
		if !strings.Contains(v, w) {
			t.Fatalf("%s: the screen does not say %q (notice %q):\n%s", what, w, c.m.shownNotice(), c.m.View())
		}
	}
}

// TestPositionsCloseChecksAgainOnEnter (issue #31 #6, the positions pane's x): a close whose
// position grew while its confirmation was open is asked again for the new size, and closes all
// of it; one whose position was closed meanwhile is refused and signs nothing. Guards the
// positions pane's close sent for the size it was opened with.
func TestPositionsCloseChecksAgainOnEnter(t *testing.T) {
	t.Parallel()
	c, sc, refresh := recheckConsole(t)
	c.key(t, "2", "x", "x")
	if c.m.confirmation() == nil {
		t.Fatalf("x on the position asked nothing (notice %q)", c.m.shownNotice())
	}
	behind(t, c, api.SideBuy, "0.01", false)
	refresh()
	signed := sc.n.Load()
	c.key(t, "enter")
	if n := sc.n.Load() - signed; n != 0 {
		t.Fatalf("%d signed requests: the close of a position that grew was sent for the old size", n)
	}
	screenSays(t, c, "the position grew", "↻ not sent, checked again: ", "the size is now 0.0300, not 0.0200")
	c.key(t, "enter")
	if p := c.position(t, "BTC-PERP"); !p.Size.IsZero() || sc.n.Load() != signed+1 {
		t.Fatalf("the refreshed close left %s BTC, %d signed (notice %q)", p.Size, sc.n.Load(), c.m.shownNotice())
	}
	pump(t, c.m, nil)

	behind(t, c, api.SideBuy, "0.02", false)
	refresh()
	c.key(t, "down", "x", "x")
	if c.m.confirmation() == nil {
		t.Fatalf("x on the new position asked nothing (notice %q)", c.m.shownNotice())
	}
	behind(t, c, api.SideSell, "0.02", true)
	refresh()
	signed = sc.n.Load()
	c.key(t, "enter")
	if sc.n.Load() != signed || c.m.confirmation() != nil || !strings.Contains(c.m.shownNotice(), "the BTC-PERP position is gone") {
		t.Fatalf("the close of a position gone: %d signed, dialog %v, notice %q", sc.n.Load(), c.m.confirmation() != nil, c.m.shownNotice())
	}
}

// TestTpslAndLeverageCheckAgainOnEnter (issue #31 #6 for a position's legs and its leverage): a
// stop-loss the mark has passed while its confirmation was open would fire at once, so Enter
// refuses it and signs nothing; one on a position that grew meanwhile is asked again for the new
// size. A leverage change set elsewhere meanwhile is asked again, or refused when it is the one in
// force. Guards `tpsl` and `lev` sent as first shown however the market and account moved.
func TestTpslAndLeverageCheckAgainOnEnter(t *testing.T) {
	t.Parallel()
	c, sc, refresh := recheckConsole(t)
	tk, _ := c.m.store.Ticker("BTC-PERP")
	sl := tk.MarkPrice.Mul(decimal.RequireFromString("0.995")).Round(0)
	c.command(t, "tpsl btc sl "+sl.String())
	if c.m.confirmation() == nil {
		t.Fatalf("tpsl asked nothing (notice %q)", c.m.shownNotice())
	}
	if err := c.sim.SetIndexPrice("BTC-PERP", tk.MarkPrice.Mul(decimal.RequireFromString("0.98")).Round(0)); err != nil {
		t.Fatal(err)
	}
	c.sim.Advance(time.Second)
	refresh()
	if now, _ := c.m.store.Ticker("BTC-PERP"); !now.MarkPrice.LessThan(sl) {
		t.Fatalf("the mark %s did not pass the stop %s", now.MarkPrice, sl)
	}
	signed := sc.n.Load()
	c.key(t, "enter")
	if sc.n.Load() != signed || c.m.confirmation() != nil || !strings.Contains(c.m.shownNotice(), "fire at once") {
		t.Fatalf("a stop the mark passed: %d signed, dialog %v, notice %q", sc.n.Load(), c.m.confirmation() != nil, c.m.shownNotice())
	}

	c.command(t, "tpsl btc sl 10%")
	if c.m.confirmation() == nil {
		t.Fatalf("tpsl asked nothing (notice %q)", c.m.shownNotice())
	}
	behind(t, c, api.SideBuy, "0.01", false)
	refresh()
	signed = sc.n.Load()
	c.key(t, "enter")
	if sc.n.Load() != signed {
		t.Fatal("a stop on a position that grew was sent as first shown")
	}
	screenSays(t, c, "the position grew", "↻ not sent, checked again: ", "the position is now 0.0300, not 0.0200")
	c.key(t, "esc")

	c.command(t, "lev btc 7")
	if c.m.confirmation() == nil {
		t.Fatalf("lev asked nothing (notice %q)", c.m.shownNotice())
	}
	setLeverage(t, c, 4)
	refresh()
	signed = sc.n.Load()
	c.key(t, "enter")
	if sc.n.Load() != signed {
		lc, _ := c.m.store.CheckLeverage("BTC-PERP", 7)
		t.Fatalf("a leverage change over one set elsewhere was sent (in force %s, notice %q)", lc.Current, c.m.shownNotice())
	}
	screenSays(t, c, "leverage set elsewhere", "the leverage in force is now 4x")
	setLeverage(t, c, 7)
	refresh()
	signed = sc.n.Load()
	c.key(t, "enter")
	if sc.n.Load() != signed || c.m.confirmation() != nil || !strings.Contains(c.m.shownNotice(), "in force already") {
		t.Fatalf("a change to the leverage in force: %d signed, dialog %v, notice %q", sc.n.Load(), c.m.confirmation() != nil, c.m.shownNotice())
	}
}

// setLeverage sets BTC-PERP's leverage behind the console's back, and gives the console the
// setting as its instrument pane's poll reads it.
func setLeverage(t *testing.T, c *simConsole, n int) {
	t.Helper()
	ctl, ok := c.m.ex.(api.Control)
	if !ok {
		t.Fatal("the console's exchange client cannot change leverage")
	}
	if _, err := ctl.UpdateLeverage(t.Context(), 1, n); err != nil {
		t.Fatal(err)
	}
	l, err := c.m.ex.InstrumentLeverage(t.Context(), c.m.ex.Address(), "BTC-PERP")
	if err != nil {
		t.Fatal(err)
	}
	// A generation above any of the pane's own polls, which the store would otherwise prefer.
	c.m.store.Apply(state.LeverageMsg{Gen: 1<<32 + uint64(n), At: c.m.clock(), Leverage: l})
}
