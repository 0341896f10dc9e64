package ui

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/risk"
	"github.com/tradedesk/tradedesk/ui/common"
)

// TestEveryConsoleOrderPathIsRefusedOverALimit (issue #35): with max_order_notional = 1 USD,
// each way the console places an order (the form, the command line, the ladder, an amend from
// the ladder, a bracket, a position's take-profit and stop, a close, the positions pane's close
// menu, reverse and flatten all) is confirmed as the trader would (the typed word included) and
// sends nothing to the exchange: the one gate below them refuses it, and the status line names
// the limit. The algorithms are TestConsoleAlgorithmRefusedByALimitSaysWhich's.
func TestEveryConsoleOrderPathIsRefusedOverALimit(t *testing.T) {
	t.Parallel()
	signed := &signedCounter{}
	c, client := riskConsoleVia(t, risk.Limits{risk.OrderNotional: decimal.NewFromInt(1)}, func(h http.Handler) http.Handler { signed.next = h; return signed })
	c.m.reviewEveryOrder()
	// A position and a resting order to act on, placed around the console.
	mid, _ := c.m.store.Mid("BTC-PERP")
	bid := mid.Mul(d("0.98")).Round(0)
	for _, w := range []api.OrderWire{
		{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: mid.Mul(d("1.05")).Round(0).String(), Size: "0.01", Tif: api.TifIOC, Cloid: state.NewCloid()},
		{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: bid.String(), Size: "0.01", Tif: api.TifGTC, Cloid: state.NewCloid()},
	} {
		if _, err := client.PlaceOrders(context.Background(), []api.OrderWire{w}); err != nil {
			t.Fatal(err)
		}
	}
	pump(t, c.m, c.m.refreshNow(state.KindPositions, state.KindAccount, state.KindOrders, state.KindTickers))
	c.m.sizes = map[string]string{"BTC-PERP": "0.01"}
	tk, _ := c.m.store.Ticker("BTC-PERP")
	paths := []struct {
		name string
		do   func()
	}{
		{"form order", func() { c.typeLimitBuy(t); c.key(t, "enter") }},
		{"command line order", func() { c.command(t, "buy 0.01 btc 94000") }},
		{"ladder order", func() {
			_, cmd := c.m.Update(common.InstrumentMsg{Symbol: "BTC-PERP"})
			pump(t, c.m, cmd)
			c.key(t, "9", "down", "down", "down", "b", "enter")
		}},
		{"amend from the ladder", func() {
			if !c.m.depth.Ladder.MoveToPrice(api.SideBuy, bid) {
				t.Fatalf("no own order at %s on the ladder", bid)
			}
			c.key(t, "9", "K")
		}},
		{"bracket", func() { c.command(t, "buy 0.01 btc mkt tp 3% sl 3%") }},
		{"position take-profit and stop", func() {
			c.command(t, "tpsl btc tp "+tk.MarkPrice.Mul(d("1.1")).Round(0).String()+" sl "+tk.MarkPrice.Mul(d("0.9")).Round(0).String())
		}},
		{"close on the command line", func() { c.command(t, "close btc") }},
		{"close menu: x 2", func() { c.key(t, "2", "x", "2") }},
		{"reverse: R", func() { c.key(t, "2", "R") }},
		{"flatten all: ctrl+x", func() { c.key(t, "2", "ctrl+x") }},
	}
	for _, p := range paths {
		before := signed.n.Load()
		c.m.clearNotice()
		p.do()
		confirmAny(t, c)
		if n := signed.n.Load() - before; n != 0 || !strings.Contains(c.m.shownNotice(), "max_order_notional") {
			t.Errorf("%s over max_order_notional: %d signed requests, notice %q", p.name, n, c.m.shownNotice())
		}
		if c.m.confirmation() != nil {
			c.key(t, "esc")
		}
	}
	if ps := c.position(t, "BTC-PERP"); !ps.Size.Equal(d("0.01")) {
		t.Fatalf("the position moved: %s", ps.Size)
	}
	if oo := c.openOrders(t); len(oo) != 1 || !oo[0].LimitPrice.Equal(bid) {
		t.Fatalf("the amended order must rest as it was: %+v", oo)
	}
}

// TestAConsoleInReducingRefusesOpeningOrders (issue #35): once a losing round (made around the
// console) has put the account in REDUCING, each console path's opening order (the form, the
// command line, the ladder, an amend, a bracket, a reverse) is refused with the reason and sends
// nothing; a close from the positions pane still goes.
func TestAConsoleInReducingRefusesOpeningOrders(t *testing.T) {
	t.Parallel()
	signed := &signedCounter{}
	c, client := riskConsoleVia(t, risk.Limits{risk.DailyLoss: d("0.01")}, func(h http.Handler) http.Handler { signed.next = h; return signed })
	c.m.reviewEveryOrder()
	pump(t, c.m, c.m.refreshNow(state.KindAccount, state.KindPositions))
	c.m.forgetRiskRead()
	pump(t, c.m, c.m.readRisk()) // the day's marks
	mid, _ := c.m.store.Mid("BTC-PERP")
	bid := mid.Mul(d("0.98")).Round(0)
	for _, w := range []api.OrderWire{ // the round: 0.02 bought 5 % over the mid, 0.01 sold 5 % under it
		{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: mid.Mul(d("1.05")).Round(0).String(), Size: "0.02", Tif: api.TifIOC, Cloid: state.NewCloid()},
		{InstrumentID: 1, Side: api.SideSell, PositionSide: api.PositionSideBoth, Price: mid.Mul(d("0.95")).Round(0).String(), Size: "0.01", Tif: api.TifIOC, Cloid: state.NewCloid()},
		{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: bid.String(), Size: "0.01", Tif: api.TifGTC, Cloid: state.NewCloid()},
	} {
		if _, err := client.PlaceOrders(context.Background(), []api.OrderWire{w}); err != nil {
			t.Fatal(err)
		}
	}
	pump(t, c.m, c.m.refreshNow(state.KindPositions, state.KindAccount, state.KindOrders, state.KindTickers, state.KindFills))
	c.step(t, riskKeptBack)
	if !strings.Contains(c.m.View(), "RISK REDUCING") {
		t.Fatalf("no REDUCING after the losing round:\n%s", c.m.View())
	}
	c.m.sizes = map[string]string{"BTC-PERP": "0.01"}
	paths := []struct {
		name string
		do   func()
	}{
		{"form order", func() { c.typeLimitBuy(t); c.key(t, "enter") }},
		{"command line order", func() { c.command(t, "buy 0.01 btc 94000") }},
		{"ladder order", func() {
			_, cmd := c.m.Update(common.InstrumentMsg{Symbol: "BTC-PERP"})
			pump(t, c.m, cmd)
			c.key(t, "9", "down", "down", "down", "b", "enter")
		}},
		{"amend from the ladder", func() {
			if !c.m.depth.Ladder.MoveToPrice(api.SideBuy, bid) {
				t.Fatalf("no own order at %s on the ladder", bid)
			}
			c.key(t, "9", "K")
		}},
		{"bracket", func() { c.command(t, "buy 0.01 btc mkt tp 3% sl 3%") }},
		{"reverse: R", func() { c.key(t, "2", "R") }},
	}
	for _, p := range paths {
		before := signed.n.Load()
		c.m.clearNotice()
		p.do()
		confirmAny(t, c)
		if n := signed.n.Load() - before; n != 0 || !strings.Contains(c.m.shownNotice(), "REDUCING") || !strings.Contains(c.m.shownNotice(), "max_daily_loss") {
			t.Errorf("%s while REDUCING: %d signed requests, notice %q", p.name, n, c.m.shownNotice())
		}
		if c.m.confirmation() != nil {
			c.key(t, "esc")
		}
	}
	c.key(t, "2", "x", "2") // half the position closed: it goes
	confirmAny(t, c)
	if ps := c.position(t, "BTC-PERP"); !ps.Size.Equal(d("0.005")) {
		t.Fatalf("a close while REDUCING: the position is %s (notice %q)", ps.Size, c.m.shownNotice())
	}
}

// confirmAny confirms the open confirmation as the trader would (its typed word included).
func confirmAny(t *testing.T, c *simConsole) {
	t.Helper()
	if c.m.confirmation() == nil {
		return
	}
	if w := c.m.confirmation().Action().Typed; w != "" {
		c.typeText(t, w)
	}
	c.key(t, "enter")
}
