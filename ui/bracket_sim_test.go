package ui

import (
	"net/http"
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
		t.Fatalf("open ETH-PERP orders %+v (notice %q), want the entry and its two legs", os, c.m.notice)
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
