package ui

import (
	"strings"
	"testing"
	"time"
)

// countMessages counts the messages view's lines that hold s.
func (c *simConsole) countMessages(s string) int {
	n := 0
	for _, e := range c.m.msgs.Entries() {
		if strings.Contains(e.Text, s) {
			n += e.Count
		}
	}
	return n
}

// TestConsoleAlerts (issue #37): `:alert` sets alerts in the executor's journal, `:alerts` shows
// them, and the root's check after each change applied to the store fires a fill alert once for
// the fill (however many polls see it) and the margin alert once; A on a ticker opens the command
// line on an alert at its mark.
func TestConsoleAlerts(t *testing.T) {
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	c.command(t, "alert eth fills")
	if !strings.Contains(c.m.notice, "set: ETH fill") {
		t.Fatalf("notice %q", c.m.notice)
	}
	c.command(t, "alert margin > 0.01%")
	c.command(t, "alert eth liq > 5%")
	if !strings.Contains(c.m.notice, "liq alerts take <") {
		t.Fatalf("a bad rule: notice %q", c.m.notice)
	}
	c.command(t, "alerts")
	if !c.m.alerts.Active() {
		t.Fatal(":alerts did not open the view")
	}
	if v := c.m.View(); !strings.Contains(v, "ETH fill") || !strings.Contains(v, "margin > 0.01%") {
		t.Fatalf("the Alerts view:\n%s", v)
	}
	c.key(t, "esc")
	c.commandConfirmed(t, "buy 1 eth mkt")
	for range 4 {
		c.step(t, 3*time.Second)
	}
	if n := c.countMessages("ETH-PERP order filled"); n != 1 {
		t.Fatalf("the fill alerted %d times; messages %+v", n, c.m.msgs.Entries())
	}
	if n := c.countMessages("alert: margin utilisation"); n != 1 {
		t.Fatalf("the margin alert fired %d times; messages %+v", n, c.m.msgs.Entries())
	}
	st := c.m.alerts.Rules()
	if len(st) != 2 || st[0].Fired != 1 || st[1].Fired != 1 {
		t.Fatalf("rules %+v", st)
	}
	c.key(t, "A")
	if !c.m.cmdline.Active() || !strings.HasPrefix(c.m.cmdline.Value(), "alert ") || !strings.Contains(c.m.cmdline.Value(), " mark > ") {
		t.Fatalf("A on a ticker: line open %v, %q", c.m.cmdline.Active(), c.m.cmdline.Value())
	}
}
