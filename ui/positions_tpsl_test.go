package ui

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// The positions pane's TP/SL column writes prices short enough for its 13 columns. Guards a
// price shown in thousands without its k, and one cut to fewer digits than it needs.
func TestShortPx(t *testing.T) {
	for in, want := range map[string]string{"99282.5": "99.28k", "10000": "10k", "3547.12": "3547.1", "189.052": "189.05",
		"0.38": "0.38", "0.000123": "0.00012", "0": "-", "120000": "120k"} {
		if got := shortPx(d(in)); got != want {
			t.Errorf("shortPx(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestPositionTpslFromThePane: t on a position opens the command line on "tpsl SYM tp "; the legs
// typed and confirmed put the position's take-profit and stop-loss (grouping position) on the
// simulator over HTTP, through the same confirmation, and the pane shows them. Guards the key
// starting the line on another instrument, and a pane that does not show what it set.
func TestPositionTpslFromThePane(t *testing.T) {
	c := newSimConsole(t, 200, 60, false)
	placeFixtureOrders(t, c.m.ex) // a long of 0.5 ETH-PERP
	pump(t, c.m, c.m.Init())
	c.key(t, "2", "t")
	if !c.m.cmdline.Active() || c.m.cmdline.Value() != "tpsl eth-perp tp " {
		t.Fatalf("t on the position: line open %v %q", c.m.cmdline.Active(), c.m.cmdline.Value())
	}
	c.typeText(t, "3600 sl 3300")
	c.key(t, "enter")
	if c.m.dialog == nil {
		t.Fatalf("no confirmation; line error %q, notice %q", c.m.cmdline.Err(), c.m.notice)
	}
	c.key(t, "enter")
	var legs []string
	for _, o := range ordersOn(c.openOrders(t), "ETH-PERP") {
		if o.Grouping == api.GroupingPosition {
			legs = append(legs, o.Tpsl+" "+o.TriggerPx.Decimal.String())
		}
	}
	if len(legs) != 2 {
		t.Fatalf("position legs %v (notice %q)", legs, c.m.notice)
	}
	if v := c.m.View(); !strings.Contains(v, "3600/3300") {
		t.Errorf("the positions pane does not show the TP/SL:\n%s", v)
	}
}
