package ui

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/state"
)

func TestConsoleLoadsFromSimulator(t *testing.T) {
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	if n := len(c.m.store.Tickers()); n == 0 {
		t.Fatal("no tickers after the first polls")
	}
	v := c.m.View()
	t.Log("\n" + v)
	for _, want := range []string{"DEMO", "BTC-PERP", "Equity", "Order entry", "Open orders", "Positions"} {
		if !strings.Contains(v, want) {
			t.Errorf("screen lacks %q", want)
		}
	}
	if f := c.m.store.Freshness(state.KindAccount); !f.Loaded() || f.Stale {
		t.Errorf("account freshness %+v", f)
	}
}
