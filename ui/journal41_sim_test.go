package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/report"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/daily"
	"github.com/tradedesk/tradedesk/ui/components/history"
	"github.com/tradedesk/tradedesk/ui/components/reportcard"
	"github.com/tradedesk/tradedesk/ui/components/trades"
)

// journalViews finds the Activity group and its Trades and Daily views.
func journalViews(t *testing.T, m *Model) (*common.Group, *trades.Pane, *daily.Pane) {
	t.Helper()
	g, _, _ := activityGroup(t, m)
	var tp *trades.Pane
	var dp *daily.Pane
	for _, p := range g.Panes() {
		switch p := p.(type) {
		case *trades.Pane:
			tp = p
		case *daily.Pane:
			dp = p
		}
	}
	if tp == nil || dp == nil {
		t.Fatal("the Activity group has no Trades or Daily view")
	}
	return g, tp, dp
}

// TestTradesDailyAndReportCard (issue #41): on the simulator, a long opened, added to, partly
// closed, reversed into a short and closed through the command line shows in the Activity
// group's Trades view as the round trips the exchange's fills make (long then short, newest
// first, each with its open + adds + closes, realised PnL the fills' closed_pnl) and in the Daily
// view as today's realised PnL and fees, drawn as bars; Enter on the newest order in the Order
// history view opens its report card: the volume-weighted average of its fills, its fees, the
// arrival the journal kept at send. Guards: the views not in the group, the trips oldest first,
// the card of another order than the one selected, the arrival not read from the journal.
func TestTradesDailyAndReportCard(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	for _, line := range []string{"buy 0.003 btc mkt", "buy 0.002 btc mkt", "sell 0.002 btc mkt", "sell 0.005 btc mkt", "buy 0.002 btc mkt"} {
		c.commandConfirmed(t, line)
	}
	g, fl, hist := activityGroup(t, c.m)
	pump(t, c.m, teaCmd(fl.Task().Poll()))
	pump(t, c.m, teaCmd(hist.Task().Poll()))
	pump(t, c.m, teaCmd(c.m.feed.Task(state.KindFunding).Poll()))
	ctx := context.Background()
	fills, err := report.Fills(ctx, c.m.ex, c.m.ex.Address(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	funding, err := report.Funding(ctx, c.m.ex, c.m.ex.Address(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	want := report.Trips(fills, funding)
	_, tp, dp := journalViews(t, c.m)
	got := tp.Trips()
	if len(want) != 2 || len(got) != 2 || !got[0].Opened.Equal(want[1].Opened) || got[1].Long != want[0].Long || !got[1].Long || got[0].Long {
		t.Fatalf("trades view %+v, the fills' round trips %+v", got, want)
	}
	pnl, fee := decimal.Zero, decimal.Zero
	for _, f := range fills {
		pnl, fee = pnl.Add(f.ClosedPnl), fee.Add(f.Fee)
	}
	if sum := got[0].Realised.Add(got[1].Realised); !sum.Equal(pnl) || got[1].Adds != want[0].Adds || got[1].Closes != want[0].Closes || got[0].Open {
		t.Errorf("realised %s (closed_pnl %s), long %d adds %d closes", sum, pnl, got[1].Adds, got[1].Closes)
	}
	c.key(t, "7")
	for g.Active() != tp {
		c.key(t, "]")
	}
	screen := c.m.View()
	if !strings.Contains(screen, "Trades (2)") || !strings.Contains(screen, "short") || !strings.Contains(screen, "long") {
		t.Errorf("Trades view:\n%s", screen)
	}
	c.key(t, "]")
	days := dp.Days()
	if g.Active() != dp || len(days) != daily.Days || !days[len(days)-1].Realised.Equal(pnl) || !days[len(days)-1].Fees.Equal(fee) {
		t.Fatalf("Daily view (active %v): today %+v, closed_pnl %s fees %s", g.Active() == dp, days[len(days)-1], pnl, fee)
	}
	if screen := c.m.View(); !strings.Contains(screen, days[len(days)-1].Date+" UTC") || !strings.Contains(screen, "realised") {
		t.Errorf("Daily view:\n%s", screen)
	}
	reportCardOfNewest(t, c, g, hist, fills)
}

// reportCardOfNewest opens the newest order's report card from the Order history view and checks
// it against that order's fills.
func reportCardOfNewest(t *testing.T, c *simConsole, g *common.Group, hist *history.Pane, fills []api.Fill) {
	t.Helper()
	for g.Active() != hist {
		c.key(t, "]")
	}
	c.key(t, "home")
	newest := hist.Records()[0]
	c.key(t, "enter")
	v, ok := c.m.openSheet().(*reportcard.View)
	if !ok {
		t.Fatalf("Enter in the history opened %T", c.m.openSheet())
	}
	card, loaded := v.Card()
	cost, size, fee := decimal.Zero, decimal.Zero, decimal.Zero
	for _, f := range fills {
		if f.OrderID == newest.OrderID {
			cost, size, fee = cost.Add(f.Price.Mul(f.Size)), size.Add(f.Size), fee.Add(f.Fee)
		}
	}
	if !loaded || card.OrderID != newest.OrderID || !size.IsPositive() || !card.AvgPrice.Equal(cost.Div(size)) || !card.Fee.Equal(fee) ||
		!card.VsArrival.Known || card.Arrival.At.IsZero() {
		t.Fatalf("card %+v (loaded %v) of order %d: fills' VWAP %s of %s, fee %s", card, loaded, newest.OrderID, cost.Div(size), size, fee)
	}
	if screen := c.m.View(); !strings.Contains(screen, "REPORT CARD") || !strings.Contains(screen, "vs arrival mid") {
		t.Errorf("the card is not on screen:\n%s", screen)
	}
	c.key(t, "esc")
	if c.m.openSheet() != nil {
		t.Error("esc did not close the card")
	}
}
