package ui

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/equity"
	"github.com/tradedesk/tradedesk/ui/components/funding"
	"github.com/tradedesk/tradedesk/ui/components/transfers"
)

// activityViews finds the Activity group's funding, transfers and equity views.
func activityViews(t *testing.T, m *Model) (*common.Group, *funding.Pane, *transfers.Pane, *equity.Pane) {
	t.Helper()
	g, _, _ := activityGroup(t, m)
	var f *funding.Pane
	var tr *transfers.Pane
	var e *equity.Pane
	for _, p := range g.Panes() {
		switch v := p.(type) {
		case *funding.Pane:
			f = v
		case *transfers.Pane:
			tr = v
		case *common.Fed:
			if v, ok := v.Pane.(*equity.Pane); ok {
				e = v
			}
		}
	}
	if f == nil || tr == nil || e == nil {
		t.Fatal("the Activity group lacks a funding, transfers or equity view")
	}
	return g, f, tr, e
}

// showView makes the Activity group show view v (by its title's start) and returns the screen.
func showView(t *testing.T, c *simConsole, g *common.Group, title string) string {
	t.Helper()
	c.key(t, "7")
	for range g.Panes() {
		if strings.HasPrefix(g.Active().Title(), title) {
			return c.m.View()
		}
		c.key(t, "]")
	}
	t.Fatalf("no view %q in the Activity group", title)
	return ""
}

// TestFundingAndTransferAppear (issue #15): against the simulator over HTTP, the console holds a
// long position through a funding settlement and moves collateral from spot to perp; at the
// views' next poll the funding view shows the simulator's payment (its size, rate and amount as
// funding_history answers them, net in the status line) and the transfers view the move, and the
// equity curve has the account's value. Guards the route of each kind (feed task in ui ->
// state.Apply -> store -> view) and their wording.
func TestFundingAndTransferAppear(t *testing.T) {
	t.Parallel()
	c := newHourlySimConsole(t, 200, 60)
	pump(t, c.m, c.m.Init())
	g, fv, tv, ev := activityViews(t, c.m)
	if n := len(c.m.store.Funding()); n != 0 || !c.m.store.Freshness(state.KindFunding).Loaded() {
		t.Fatalf("a new account: %d funding payments (loaded %v)", n, c.m.store.Freshness(state.KindFunding).Loaded())
	}
	deposits := len(c.m.store.Transfers())

	trade(t, c, 20) // long 0.02 BTC-PERP
	c.sim.Advance(time.Hour)
	ctx := context.Background()
	if _, err := c.m.ex.InternalTransfer(ctx, 1, "25", true); err != nil {
		t.Fatal(err)
	}
	c.step(t, DefaultIntervals().Funding)
	c.step(t, DefaultIntervals().Equity)

	want, err := c.m.ex.FundingHistory(ctx, c.m.ex.Address(), api.PageParams{Limit: 10})
	if err != nil || len(want.Data) == 0 {
		t.Fatalf("the simulator paid no funding: %v", err)
	}
	got := c.m.store.Funding()
	if len(got) != len(want.Data) || !got[0].Payment.Equal(want.Data[0].Payment) || !got[0].Size.Equal(d("0.02")) {
		t.Fatalf("funding held %+v, the simulator has %+v", got, want.Data)
	}
	screen := showView(t, c, g, "Funding")
	pay := want.Data[0].Payment
	row := "BTC-PERP"
	for _, s := range []string{"Funding (1)", row, "+0.0200", state.FormatFunding(want.Data[0].Rate, state.FundingPeriod),
		state.FormatPayment(pay, 2), "net " + state.FormatPayment(pay, 2) + " USDC"} {
		if !strings.Contains(screen, s) {
			t.Errorf("the funding view lacks %q:\n%s", s, screen)
		}
	}
	if fv.Title() != "Funding (1)" {
		t.Errorf("funding title %q", fv.Title())
	}

	if n := len(c.m.store.Transfers()); n != deposits+1 {
		t.Fatalf("%d transfers held, want the %d deposits and the move", n, deposits)
	}
	screen = showView(t, c, g, "Transfers")
	if !strings.Contains(screen, "spot ⇄ perp") || !regexp.MustCompile(`\+25\.00 +— USDC`).MatchString(screen) { // no fee on a move of its own
		t.Errorf("the transfers view lacks the move:\n%s", screen)
	}
	if tv.Title() != "Transfers (3)" {
		t.Errorf("transfers title %q", tv.Title())
	}

	if len(ev.Points()) < 2 {
		t.Fatalf("the equity curve has %d points", len(ev.Points()))
	}
	screen = showView(t, c, g, "Equity")
	last := ev.Points()[len(ev.Points())-1]
	if !strings.Contains(screen, "Spot + perp value "+state.FormatPrice(last.AccountValue, 2)+" USD") {
		t.Errorf("the equity view lacks the value now:\n%s", screen)
	}
}

// TestActivityViewsFitEverySize (#24's rule for the new views): every Activity view, with a
// funding payment, a transfer and an hour of account values on screen, at 80x24, 120x40 and
// 200x60: no line wider than the screen, every box whole.
func TestActivityViewsFitEverySize(t *testing.T) {
	t.Parallel()
	// One simulator for every size (each console only reads it), TestActivityGoldens's: the hour
	// of market is run once.
	s, clock := activityHour(t)
	for _, sz := range screenSizes {
		c := consoleOn(t, sz[0], sz[1], false, nil, s, clock)
		pump(t, c.m, c.m.Init())
		g, _, _ := activityGroup(t, c.m)
		c.key(t, "7")
		for range g.Panes() {
			v := c.m.View()
			what := g.Title()
			checkScreen(t, what, v, sz[0], sz[1])
			checkBoxes(t, what, v, sz[0], sz[1])
			c.key(t, "]")
		}
	}
}
