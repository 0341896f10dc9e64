package ui

import (
	"net/http"
	"strings"
	"testing"
)

// TestBracketAgainstThePositionSignsNothing (#13 QA, brackets 1), against the simulator over
// HTTP: with a short of 1.5 ETH open, `buy 0.5 eth mkt tp 3% sl 3%` (a bracket whose entry only
// reduces the short, whose legs the exchange would cancel the moment it fills) is refused on the
// command line, saying to set TP/SL on the position, and nothing is signed; a bracket that adds
// to the short passes to its confirmation. Guards the command line bypassing state.CheckBracket's
// refusal, and a refusal that reaches the exchange first.
func TestBracketAgainstThePositionSignsNothing(t *testing.T) {
	sc := &signedCounter{}
	c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler { sc.next = h; return sc })
	pump(t, c.m, c.m.Init())
	c.commandConfirmed(t, "sell 1.5 eth mkt")
	if p := c.position(t, "ETH-PERP"); !p.Size.Equal(d("-1.5")) {
		t.Fatalf("position %s, want a short of 1.5", p.Size)
	}
	signed := sc.n.Load()
	c.command(t, "buy 0.5 eth mkt tp 3% sl 3%")
	if !c.m.cmdline.Active() || c.m.dialog != nil || !strings.Contains(c.m.cmdline.Err(), "this buy reduces your 1.500 ETH-PERP short") ||
		!strings.Contains(c.m.cmdline.Err(), "set TP/SL on the position (t on it, or :tpsl eth tp .. sl ..)") {
		t.Fatalf("line open %v, dialog %v, error %q", c.m.cmdline.Active(), c.m.dialog != nil, c.m.cmdline.Err())
	}
	c.key(t, "esc")
	if n := sc.n.Load(); n != signed {
		t.Fatalf("%d signed requests reached the exchange for a refused bracket", n-signed)
	}
	c.command(t, "sell 0.5 eth mkt tp 3% sl 3%")
	if c.m.dialog == nil {
		t.Fatalf("a bracket that adds to the short was refused: %q", c.m.cmdline.Err())
	}
}
