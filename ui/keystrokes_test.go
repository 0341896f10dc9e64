package ui

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// keystroke is one key press of a counted path: a key name ("enter", "tab", "shift+tab", "right",
// "esc"), or text typed one character a key (written with a leading ').
type keystroke = string

// countKeys is how many key presses a path takes: one per named key, one per typed character.
func countKeys(keys []keystroke) int {
	n := 0
	for _, k := range keys {
		if t, ok := strings.CutPrefix(k, "'"); ok {
			n += len(t)
		} else {
			n++
		}
	}
	return n
}

func (c *simConsole) pressAll(t *testing.T, keys []keystroke) {
	t.Helper()
	for _, k := range keys {
		if s, ok := strings.CutPrefix(k, "'"); ok {
			c.typeText(t, s)
		} else {
			c.key(t, k)
		}
	}
}

// TestKeystrokeCounts replays, against the simulator over HTTP, every path the README's keystroke
// table counts (the form's and the command line's, for a limit buy at a typed price, a market sell,
// cancelling one order and closing a position, a bracket), each from where the table says it
// starts and under the confirmation policy its column names, counts its key presses and checks
// the exchange did what it says and no dialog is left open. The README's numbers are these; a
// path that needs another key, or does something else, fails here.
func TestKeystrokeCounts(t *testing.T) {
	t.Parallel()
	sc := &signedCounter{}
	c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler { sc.next = h; return sc })
	pump(t, c.m, c.m.Init())
	home := func() { c.key(t, "esc", "1") } // out of any form, on the tickers (ETH-PERP is the first row)
	limitBought := func() bool {
		o := ordersOn(c.openOrders(t), "ETH-PERP")
		return len(o) == 1 && o[0].LimitPrice.Equal(d("3400")) && o[0].Size.Equal(d("0.1"))
	}
	soldHalf := func() bool { return c.position(t, "ETH-PERP").Size.Equal(d("-0.5")) }
	noOrders := func() bool { return len(c.openOrders(t)) == 0 }
	flat := func() bool { return c.position(t, "ETH-PERP").Size.IsZero() }
	halfLeft := func() bool { return c.position(t, "ETH-PERP").Size.Equal(d("-0.25")) }
	onPositions := func() { home(); c.key(t, "2") }
	paths := []struct {
		name   string
		policy state.ConfirmPolicy
		setup  func()
		keys   []keystroke
		want   int
		check  func() bool
	}{
		{"form: limit buy 0.1 ETH at 3400", state.ConfirmRisky, home,
			[]keystroke{"b", "'3400", "tab", "'0.1", "enter"}, 10, limitBought},
		{"form: market sell 0.5 ETH", state.ConfirmRisky, home,
			[]keystroke{"S", "'0.5", "enter", "enter"}, 6, soldHalf},
		{"pane: cancel one order", state.ConfirmRisky, home,
			[]keystroke{"3", "x"}, 2, noOrders},
		{"pane: close half a position", state.ConfirmRisky, onPositions,
			[]keystroke{"x", "2", "enter"}, 3, halfLeft},
		{"pane: close a position", state.ConfirmRisky, home,
			[]keystroke{"2", "x", "x", "enter"}, 4, flat},
		{"form: market sell 0.5 ETH", state.ConfirmWarned, home,
			[]keystroke{"S", "'0.5", "enter"}, 5, soldHalf},
		{"pane: close half a position", state.ConfirmWarned, onPositions,
			[]keystroke{"x", "2"}, 2, halfLeft},
		{"pane: close a position", state.ConfirmWarned, home,
			[]keystroke{"2", "x", "x"}, 3, flat},
		{"command line: limit buy 0.1 ETH at 3400", state.ConfirmRisky, home,
			[]keystroke{":", "'b 0.1 eth 3400", "enter"}, 16, limitBought},
		{"command line: market sell 0.5 ETH", state.ConfirmRisky, home,
			[]keystroke{":", "'s 0.5 eth m", "enter", "enter"}, 14, soldHalf},
		{"command line: cancel the one ETH order", state.ConfirmRisky, home,
			[]keystroke{":", "'x eth", "enter"}, 7, noOrders},
		{"command line: close half of ETH", state.ConfirmRisky, home,
			[]keystroke{":", "'c eth 50%", "enter", "enter"}, 12, halfLeft},
		{"command line: close ETH", state.ConfirmRisky, home,
			[]keystroke{":", "'c eth", "enter", "enter"}, 8, flat},
		{"command line: market sell 0.5 ETH", state.ConfirmWarned, home,
			[]keystroke{":", "'s 0.5 eth m", "enter"}, 13, soldHalf},
		{"command line: close ETH", state.ConfirmWarned, home,
			[]keystroke{":", "'c eth", "enter"}, 7, flat},
		{"command line: bracket buy 2.7 SOL at 185, tp 200, sl 180", state.ConfirmRisky, home,
			[]keystroke{":", "'b 2.7 sol 185 tp 200 sl 180", "enter", "enter"}, 30,
			func() bool { return len(ordersOn(c.openOrders(t), "SOL-PERP")) == 3 }},
		{"command line, current instrument: limit buy 0.1 at 3400", state.ConfirmRisky,
			func() { home(); c.key(t, "enter", "esc") }, // ETH-PERP picked earlier
			[]keystroke{":", "'b 0.1 3400", "enter"}, 12, limitBought},
		{"form: bracket buy 0.5 ETH at 3400, tp 2%, sl 1%", state.ConfirmRisky, home,
			[]keystroke{"b", "'3400", "tab", "'0.5", "tab", "tab", "'2%", "tab", "'1%", "enter", "enter"}, 18,
			func() bool {
				n := 0
				for _, o := range ordersOn(c.openOrders(t), "ETH-PERP") {
					if o.Grouping == api.GroupingNormal {
						n++
					}
				}
				return n == 3
			}},
	}
	for _, p := range paths {
		c.m.c.Guard.Confirm = p.policy
		p.setup()
		before := sc.n.Load()
		c.pressAll(t, p.keys)
		if n := countKeys(p.keys); n != p.want {
			t.Errorf("%s (%s): %d keys, the table says %d", p.name, p.policy, n, p.want)
		}
		if !p.check() || sc.n.Load() == before || c.m.confirmation() != nil {
			t.Fatalf("%s (%s): the exchange did not do it (notice %q, dialog %v)", p.name, p.policy, c.m.shownNotice(), c.m.confirmation() != nil)
		}
		t.Logf("%-55s %-6s %2d keys", p.name, p.policy, countKeys(p.keys))
	}
}
