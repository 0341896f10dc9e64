package ui

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
)

// countMessages counts the messages view's lines that hold s.
func (c *simConsole) countMessages(s string) int {
	n := 0
	for _, e := range c.m.messageEntries() {
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
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	c.command(t, "alert eth fills")
	if !strings.Contains(c.m.shownNotice(), "set: ETH fill") {
		t.Fatalf("notice %q", c.m.shownNotice())
	}
	c.command(t, "alert margin > 0.01%")
	c.command(t, "alert eth liq > 5%")
	if !strings.Contains(c.m.shownNotice(), "liq alerts take <") {
		t.Fatalf("a bad rule: notice %q", c.m.shownNotice())
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
		t.Fatalf("the fill alerted %d times; messages %+v", n, c.m.messageEntries())
	}
	if n := c.countMessages("alert: margin utilisation"); n != 1 {
		t.Fatalf("the margin alert fired %d times; messages %+v", n, c.m.messageEntries())
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

// TestConsoleAlertsNeedNoViewAndNoStream (issue #37): a console with no stream, the Activity
// group on its fills and never on Funding or Order history, fires a funding payment alert for
// the payment the simulator settles an hour on and a cancel alert for an order cancelled at the
// exchange, each once, from the polls' answers the root applies: the engine sees them, not a pane.
func TestConsoleAlertsNeedNoViewAndNoStream(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newHourlySimConsole(t, 120, 40)
	pump(t, c.m, c.m.Init())
	if c.m.feed.Conn().HasStream {
		t.Fatal("the test console has a stream: this test is about polls")
	}
	c.command(t, "alert btc funding payment > 0.0001")
	c.command(t, "alert btc cancel")
	c.commandConfirmed(t, "buy 0.5 btc mkt")
	c.commandConfirmed(t, "buy 0.01 btc 90000")
	c.step(t, 3*time.Second)
	open := c.openOrders(t)
	if len(open) != 1 {
		t.Fatalf("open orders %+v", open)
	}
	if _, err := c.m.ex.(*api.Client).CancelByOid(t.Context(), []api.CancelOid{{Oid: open[0].OrderID, InstrumentID: open[0].InstrumentID}}); err != nil {
		t.Fatal(err)
	}
	c.sim.Advance(61 * time.Minute)
	for range 6 {
		c.step(t, 5*time.Second)
	}
	for _, s := range c.m.slots {
		if g, ok := s.pane.(*common.Group); ok && g.Name() == "Activity" && !strings.HasPrefix(g.Active().Title(), "Fills") {
			t.Fatalf("the Activity group shows %q", g.Active().Title())
		}
	}
	if n := c.countMessages("BTC-PERP order cancelled"); n != 1 {
		t.Fatalf("the cancel alerted %d times; messages %+v", n, c.m.messageEntries())
	}
	if n := c.countMessages("BTC-PERP funding payment"); n != 1 {
		t.Fatalf("the payment alerted %d times; payments %+v, messages %+v", n, c.m.store.Funding(), c.m.messageEntries())
	}
	c.key(t, "2", "A") // A on the position
	if !c.m.cmdline.Active() || c.m.cmdline.Value() != "alert BTC-PERP liq < 5%" {
		t.Fatalf("A on a position: line open %v, %q", c.m.cmdline.Active(), c.m.cmdline.Value())
	}
	c.key(t, "esc")
	c.command(t, "alert btc > 100000")
	c.command(t, "alert eth liq < 5%")
	if st := c.m.alerts.Rules(); len(st) != 4 || st[2].Canon() != "BTC mark > 100000" || st[3].Canon() != "ETH liq < 5%" {
		t.Fatalf("rules %+v", st)
	}
}

// TestConsoleExchangeDownAlert (issue #37): `exchange down > 10s` fires once while the
// simulator answers 503 for 40 s (the heartbeat retrying; the test steps both clocks), and not
// again once it answers.
func TestConsoleExchangeDownAlert(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	var down atomic.Bool
	wrap := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if down.Load() {
				http.Error(w, "maintenance", http.StatusServiceUnavailable)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	c := newSimConsoleVia(t, 120, 40, false, wrap)
	pump(t, c.m, c.m.Init())
	c.command(t, "alert exchange down > 10s")
	wait := func(d time.Duration) {
		for range int(d / (5 * time.Second)) {
			c.clock.Add(5 * time.Second)
			c.step(t, 5*time.Second)
		}
	}
	wait(15 * time.Second)
	down.Store(true)
	wait(40 * time.Second)
	if n := c.countMessages("alert: exchange down"); n != 1 {
		t.Fatalf("40 s down alerted %d times; messages %+v", n, c.m.messageEntries())
	}
	down.Store(false)
	wait(40 * time.Second)
	if n := c.countMessages("alert: exchange down"); n != 1 || c.m.feed.Conn().State != feed.Connected {
		t.Fatalf("after: %d alerts, connection %v", n, c.m.feed.Conn().State)
	}
}
