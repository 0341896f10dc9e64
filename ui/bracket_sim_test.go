package ui

import (
	"net/http"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// bracketKeys are the README's keystrokes for a bracket entry on the selected instrument: b,
// the price, Tab, the size, Tab Tab, the take-profit, Tab, the stop-loss, Enter, Enter.
var bracketKeys = []string{"b", "3", "4", "0", "0", "tab", "0", ".", "5", "tab", "tab", "2", "%", "tab", "1", "%", "enter", "enter"}

// TestBracketFromTheForm: the keystrokes above, typed into the console against the simulator
// over HTTP, leave a resting ETH-PERP bid with its take-profit and stop-loss (grouping normal,
// waiting for the entry) in one placeOrder; the README counts them. Guards a form that sends the
// entry without its legs, or the legs as separate requests.
func TestBracketFromTheForm(t *testing.T) {
	t.Parallel()
	counter := &signedCounter{}
	c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler { counter.next = h; return counter })
	pump(t, c.m, c.m.Init())
	for _, k := range bracketKeys {
		if len(k) == 1 && k != "b" {
			c.typeText(t, k)
			continue
		}
		c.key(t, k)
	}
	os := ordersOn(c.openOrders(t), "ETH-PERP")
	if len(os) != 3 {
		t.Fatalf("open ETH-PERP orders %+v (notice %q), want the entry and its two legs", os, c.m.shownNotice())
	}
	legs := map[string]api.OrderRecord{}
	for _, o := range os {
		legs[o.Tpsl] = o
	}
	e, tp, sl := legs[""], legs[api.TpslTakeProfit], legs[api.TpslStopLoss]
	if e.Grouping != api.GroupingNormal || !e.LimitPrice.Equal(d("3400")) || !e.Size.Equal(d("0.5")) || e.Side != api.SideBuy {
		t.Errorf("entry %+v", e)
	}
	if !tp.TriggerPx.Decimal.Equal(d("3468")) || !sl.TriggerPx.Decimal.Equal(d("3366")) || !tp.ReduceOnly || sl.Side != api.SideSell {
		t.Errorf("legs tp %+v sl %+v", tp, sl)
	}
	if n := counter.n.Load(); n != 1 {
		t.Errorf("%d signed requests, want the bracket in one", n)
	}
	t.Logf("bracket entry: %d keystrokes", len(bracketKeys))
}

// TestBracketAgainstThePositionSignsNothing (#13 QA, brackets 1), against the simulator over
// HTTP: with a short of 1.5 ETH open, `buy 0.5 eth mkt tp 3% sl 3%` (a bracket whose entry only
// reduces the short, whose legs the exchange would cancel the moment it fills) is refused on the
// command line, saying to set TP/SL on the position, and nothing is signed; a bracket that adds
// to the short passes to its confirmation. Guards the command line bypassing state.CheckBracket's
// refusal, and a refusal that reaches the exchange first.
func TestBracketAgainstThePositionSignsNothing(t *testing.T) {
	t.Parallel()
	sc := &signedCounter{}
	c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler { sc.next = h; return sc })
	pump(t, c.m, c.m.Init())
	c.commandConfirmed(t, "sell 1.5 eth mkt")
	if p := c.position(t, "ETH-PERP"); !p.Size.Equal(d("-1.5")) {
		t.Fatalf("position %s, want a short of 1.5", p.Size)
	}
	signed := sc.n.Load()
	c.command(t, "buy 0.5 eth mkt tp 3% sl 3%")
	if c.m.cmdline.Active() || c.m.confirmation() != nil || !strings.Contains(c.m.cmdline.Err(), "this buy reduces your 1.500 ETH-PERP short") ||
		!strings.Contains(c.m.cmdline.Err(), "set TP/SL on the position (t on it, or :tpsl eth tp .. sl ..)") {
		t.Fatalf("line open %v, dialog %v, error %q", c.m.cmdline.Active(), c.m.confirmation() != nil, c.m.cmdline.Err())
	}
	if n := sc.n.Load(); n != signed {
		t.Fatalf("%d signed requests reached the exchange for a refused bracket", n-signed)
	}
	c.command(t, "sell 0.5 eth mkt tp 3% sl 3%")
	if c.m.confirmation() == nil {
		t.Fatalf("a bracket that adds to the short was refused: %q", c.m.cmdline.Err())
	}
}
