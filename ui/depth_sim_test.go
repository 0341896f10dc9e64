package ui

import (
	"context"
	"github.com/tradedesk/tradedesk/ui/components/orders"
	"net/http"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

// exchangeOrders is the account's open orders as the exchange (the simulator) lists them.
func exchangeOrders(t *testing.T, c *simConsole) []api.OrderRecord {
	t.Helper()
	os, err := api.AllPages(context.Background(), func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return c.m.ex.OpenOrders(ctx, c.m.ex.Address(), p)
	}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return os
}

// oneOrderAt checks that the exchange holds exactly one open order, a buy at px, and returns it.
func oneOrderAt(t *testing.T, c *simConsole, step string, px decimal.Decimal) api.OrderRecord {
	t.Helper()
	os := exchangeOrders(t, c)
	if len(os) != 1 {
		t.Fatalf("%s: %d open orders at the exchange, want exactly 1 (notice %q)", step, len(os), c.m.shownNotice())
	}
	if !os[0].LimitPrice.Equal(px) || os[0].Side != api.SideBuy {
		t.Fatalf("%s: the open order is %s @ %s, want a buy @ %s (notice %q)", step, os[0].Side, os[0].LimitPrice, px, c.m.shownNotice())
	}
	return os[0]
}

// TestTradeFromTheLadder places, amends and cancels an order from the ladder against the
// simulator over HTTP, reading the exchange's open orders after each step: b on a bid level opens
// the form at that price with the configured size (Enter reviews, Enter confirms), the order shows
// on its level, K (shift+up) moves it a tick as one confirmed cancel-and-replace with a new
// client id, even when the cancel's answer is lost (the old order is looked up, never two live
// orders), and stops with nothing placed when the cancel never arrived; p moves it to a typed
// price; x cancels it.
func TestTradeFromTheLadder(t *testing.T) {
	t.Parallel()
	l := &lossy{}
	c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler { l.h = h; return l })
	c.m.reviewEveryOrder() // about the confirmation and what follows it, not which orders ask
	pump(t, c.m, c.m.Init())
	c.m.sizes = map[string]string{"BTC-PERP": "0.01"}
	_, cmd := c.m.Update(common.InstrumentMsg{Symbol: "BTC-PERP"})
	pump(t, c.m, cmd)
	lad := c.m.depth.Ladder
	c.key(t, "9")
	c.key(t, "down", "down", "down")
	side, px, ok := lad.Cursor()
	if !ok || side != api.SideBuy {
		t.Fatalf("cursor on %q %s (ok %v), want a bid level:\n%s", side, px, ok, lad.View())
	}

	c.key(t, "b")
	if c.m.form.Value(orderentry.FieldPrice) != px.String() || c.m.form.Side() != api.SideBuy || c.m.form.Value(orderentry.FieldSize) != "0.01" {
		t.Fatalf("form: price %q side %q size %q, want %s buy 0.01", c.m.form.Value(orderentry.FieldPrice), c.m.form.Side(), c.m.form.Value(orderentry.FieldSize), px)
	}
	c.key(t, "enter")
	if c.m.confirmation() == nil {
		t.Fatalf("Enter did not open the confirmation (notice %q)", c.m.shownNotice())
	}
	c.key(t, "enter")
	first := oneOrderAt(t, c, "placed", px)

	c.key(t, "9")
	if !lad.MoveToPrice(api.SideBuy, px) || !strings.Contains(lad.View(), "◆0.0100") {
		t.Fatalf("the own order is not marked on its level:\n%s", lad.View())
	}
	tick := decimal.RequireFromString("0.1")
	if in, ok := c.m.store.Instrument("BTC-PERP"); ok {
		tick = in.TickSize
	}

	c.key(t, "K")
	if c.m.confirmation() == nil {
		t.Fatalf("K did not ask to confirm the move (notice %q)", c.m.shownNotice())
	}
	c.key(t, "enter")
	second := oneOrderAt(t, c, "amended", px.Add(tick))
	if second.OrderID == first.OrderID || second.Cloid == first.Cloid || second.Cloid == "" {
		t.Errorf("the amend kept the order id or client id: %d %q -> %d %q", first.OrderID, first.Cloid, second.OrderID, second.Cloid)
	}

	// The cancel's answer is lost after the exchange acted on it: the old order is looked up,
	// found cancelled, and only then is the new one placed.
	if !lad.MoveToPrice(api.SideBuy, px.Add(tick)) {
		t.Fatalf("the moved order's level is not on the ladder:\n%s", lad.View())
	}
	l.act = true
	l.drop.Store(true)
	c.key(t, "K", "enter")
	third := oneOrderAt(t, c, "amended with the cancel's answer lost", px.Add(tick.Mul(decimal.NewFromInt(2))))
	if third.OrderID == second.OrderID {
		t.Error("the order was not replaced")
	}

	// The cancel never reaches the exchange: the old order is found still open and nothing is
	// placed.
	if !lad.MoveToPrice(api.SideBuy, third.LimitPrice) {
		t.Fatalf("the moved order's level is not on the ladder:\n%s", lad.View())
	}
	l.act = false
	l.drop.Store(true)
	c.key(t, "K", "enter")
	if got := oneOrderAt(t, c, "amend whose cancel was lost before the exchange", third.LimitPrice); got.OrderID != third.OrderID {
		t.Errorf("order %d replaced by %d though its cancel never arrived", third.OrderID, got.OrderID)
	}
	if !strings.Contains(c.m.shownNotice(), "still open") || !strings.Contains(c.m.shownNotice(), "nothing placed") {
		t.Errorf("notice %q, want that the order is still open and nothing was placed", c.m.shownNotice())
	}

	// p moves it to a typed price, through the same confirmed cancel-and-replace.
	typed := third.LimitPrice.Sub(tick.Mul(decimal.NewFromInt(3)))
	c.key(t, "p")
	c.typeText(t, typed.String())
	c.key(t, "enter", "enter")
	fourth := oneOrderAt(t, c, "moved to a typed price", typed)
	if fourth.OrderID == third.OrderID {
		t.Error("the typed move did not replace the order")
	}
	if !lad.MoveToPrice(api.SideBuy, typed) {
		t.Fatalf("the moved order's level is not on the ladder:\n%s", lad.View())
	}

	// x asks as x in Open orders does (QA 13), then cancels.
	c.key(t, "x")
	if c.m.confirmation() == nil || !strings.Contains(strings.Join(c.m.confirmation().Action().Lines, "\n"), "Cancel this order?") {
		t.Fatalf("x on the ladder did not ask to confirm the cancel (notice %q)", c.m.shownNotice())
	}
	if os := exchangeOrders(t, c); len(os) != 1 {
		t.Fatalf("x cancelled before the confirmation: %d open orders", len(os))
	}
	c.key(t, "enter")
	if os := exchangeOrders(t, c); len(os) != 0 {
		t.Fatalf("%d open orders after x on the ladder (notice %q)", len(os), c.m.shownNotice())
	}
	pump(t, c.m, c.m.refreshNow(state.KindOrders))
	if strings.Contains(lad.View(), "◆") {
		t.Errorf("a cancelled order is still marked:\n%s", lad.View())
	}
}

// TestAmendFromTheOrdersPane: a on the selected order opens a line holding its price and size;
// a new price and size, Enter and the confirmation replace it with one order at the new price
// and size (a new order id), never two.
func TestAmendFromTheOrdersPane(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	c.m.reviewEveryOrder() // about the confirmation and what follows it, not which orders ask
	pump(t, c.m, c.m.Init())
	restingOrders(t, c, "BTC-PERP")
	old := exchangeOrders(t, c)[0]
	c.key(t, "3", "a")
	if !c.m.slots[2].pane.(*orders.Pane).Capturing() {
		t.Fatal("a did not open the amend line")
	}
	newPx := old.LimitPrice.Sub(decimal.NewFromInt(5))
	for range 40 {
		c.key(t, "backspace")
	}
	c.typeText(t, newPx.String()+" 0.002")
	c.key(t, "enter")
	if c.m.confirmation() == nil {
		t.Fatalf("no confirmation (notice %q)", c.m.shownNotice())
	}
	c.key(t, "enter")
	os := exchangeOrders(t, c)
	if len(os) != 1 || !os[0].LimitPrice.Equal(newPx) || os[0].Size.String() != "0.002" || os[0].OrderID == old.OrderID {
		t.Fatalf("after the amend the exchange holds %+v (notice %q), want one order of 0.002 @ %s", os, c.m.shownNotice(), newPx)
	}
}

// TestBracketEntryIsNotMoved: moving a bracket's entry by cancel-and-replace would cancel its
// take-profit and stop-loss with it (the exchange ties them to the entry) and leave the new order
// unguarded, saying nothing. The orders pane refuses it in words and the exchange keeps all three.
// Guards action.notMovable's bracket branch (dropped: the legs vanish).
func TestBracketEntryIsNotMoved(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	tk, _ := c.m.store.Ticker("BTC-PERP")
	in, _ := c.m.store.Instrument("BTC-PERP")
	at := func(f string) string {
		return state.RoundToStep(tk.MarkPrice.Mul(decimal.RequireFromString(f)), in.TickSize).String()
	}
	entry := api.OrderWire{InstrumentID: in.ID, Side: api.SideBuy, PositionSide: api.PositionSideBoth,
		Price: at("0.98"), Size: "0.002", Tif: api.TifGTC, Cloid: state.NewCloid()}
	wires, err := api.Bracket(entry,
		api.TpslLeg{Tpsl: api.TpslTakeProfit, Trigger: at("1.05"), Price: at("1.04"), Cloid: state.NewCloid()},
		api.TpslLeg{Tpsl: api.TpslStopLoss, Trigger: at("0.95"), Price: at("0.94"), Cloid: state.NewCloid()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.m.ex.PlaceOrders(context.Background(), wires); err != nil {
		t.Fatal(err)
	}
	pump(t, c.m, c.m.refreshNow(state.KindOrders))
	if n := len(exchangeOrders(t, c)); n != 3 {
		t.Fatalf("%d open orders after the bracket, want 3", n)
	}
	c.key(t, "3")
	op := c.m.slots[2].pane.(*orders.Pane)
	for i := range op.Orders() {
		if op.Orders()[i].Grouping == api.GroupingNormal && !op.Orders()[i].TriggerPx.Valid {
			op.Table().Cursor = i
		}
	}
	if o, _ := op.Selected(); o.TriggerPx.Valid || o.Grouping != api.GroupingNormal {
		t.Fatalf("the entry is not selected: %+v", o)
	}
	c.key(t, "a")
	if op.Capturing() {
		for range 40 {
			c.key(t, "backspace")
		}
		c.typeText(t, at("0.97")+" 0.002")
		c.key(t, "enter")
	}
	if c.m.confirmation() != nil {
		t.Fatal("a confirmation to move a bracket's entry")
	}
	if !strings.Contains(c.m.shownNotice(), "bracket's entry") {
		t.Errorf("notice %q does not say why", c.m.shownNotice())
	}
	if os := exchangeOrders(t, c); len(os) != 3 {
		t.Fatalf("%d open orders after the refused move, want the bracket's 3", len(os))
	}
}
