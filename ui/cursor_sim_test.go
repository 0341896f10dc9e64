package ui

import (
	"context"
	"github.com/tradedesk/tradedesk/ui/components/orders"
	"github.com/tradedesk/tradedesk/ui/components/positions"
	"slices"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// The cursor cases of #31 point 8: a list moves under the cursor between two keys (an order
// arrives, the selected one goes), against the simulator over HTTP, and the action key acts on the
// row the trader chose or on none.

// ordersPaneOf is the console's Open orders pane.
func ordersPaneOf(t *testing.T, c *simConsole) *orders.Pane {
	t.Helper()
	for _, s := range c.m.slots {
		if p, ok := s.pane.(*orders.Pane); ok {
			return p
		}
	}
	t.Fatal("no Open orders pane")
	return nil
}

// selectedOrder is the order under the orders pane's cursor (0 when none is selected).
func selectedOrder(t *testing.T, c *simConsole) api.OrderID {
	t.Helper()
	o, ok := ordersPaneOf(t, c).Selected()
	if !ok {
		return 0
	}
	return o.OrderID
}

// openIDs are the ids of the orders open at the exchange.
func openIDs(t *testing.T, c *simConsole) []api.OrderID {
	t.Helper()
	var ids []api.OrderID
	for _, o := range c.openOrders(t) {
		ids = append(ids, o.OrderID)
	}
	return ids
}

// cancelAtExchange cancels oid behind the console's back (another session, a fill), and the
// console's next poll brings the news.
func cancelAtExchange(t *testing.T, c *simConsole, oid api.OrderID) {
	t.Helper()
	for _, o := range c.m.store.Orders() {
		if o.OrderID == oid {
			if _, err := c.m.ex.CancelByOid(context.Background(), []api.CancelOid{{Oid: oid, InstrumentID: o.InstrumentID}}); err != nil {
				t.Fatal(err)
			}
			pump(t, c.m, c.m.refreshNow(state.KindOrders))
			return
		}
	}
	t.Fatalf("order %d is not open", oid)
}

// TestOrdersCursorFollowsTheOrderWhenOneArrives: the cursor is on an order; a new order arrives on
// top (the list shifts down a row) before x; x cancels the order the trader chose, not the one that
// slid under its old row.
func TestOrdersCursorFollowsTheOrderWhenOneArrives(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	restingOrders(t, c, "BTC-PERP", "ETH-PERP")
	c.key(t, "3", "down")
	chosen := selectedOrder(t, c)
	if chosen == 0 {
		t.Fatal("no order under the cursor")
	}
	moreOrders(t, c, "SOL-PERP") // arrives between the move and x
	if c.m.store.Orders()[1].OrderID == chosen {
		t.Fatal("the new order did not move the chosen one's row: the test shows nothing")
	}
	c.key(t, "x")
	if slices.Contains(openIDs(t, c), chosen) || len(openIDs(t, c)) != 2 {
		t.Fatalf("x did not cancel the order chosen (%d) alone: open %v, notice %q", chosen, openIDs(t, c), c.m.shownNotice())
	}
}

// TestOrdersCursorSelectsNothingWhenItsOrderGoes: the chosen order goes (filled, cancelled
// elsewhere) between the move and x: x cancels nothing and says why; the trader moves, and x acts
// on the row they moved to.
func TestOrdersCursorSelectsNothingWhenItsOrderGoes(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	restingOrders(t, c, "BTC-PERP", "ETH-PERP", "SOL-PERP")
	c.key(t, "3", "down")
	chosen := selectedOrder(t, c)
	cancelAtExchange(t, c, chosen)
	c.key(t, "x")
	if n := len(openIDs(t, c)); n != 2 {
		t.Fatalf("x with the chosen order gone cancelled another: %d open, notice %q", n, c.m.shownNotice())
	}
	if !strings.Contains(c.m.shownNotice(), "gone") {
		t.Errorf("x with nothing selected says %q, not why", c.m.shownNotice())
	}
	if v := c.m.View(); strings.Contains(v, "│▶") {
		t.Errorf("a row is marked selected with nothing selected:\n%s", v)
	}
	c.key(t, "down")
	next := selectedOrder(t, c)
	if next == 0 {
		t.Fatal("down selected nothing")
	}
	c.key(t, "x")
	if ids := openIDs(t, c); len(ids) != 1 || slices.Contains(ids, next) {
		t.Fatalf("x after moving: open %v, wanted %d cancelled", ids, next)
	}
}

// TestDoubleXCancelsOneOrder: x twice in a row (a 50 ms double press) cancels one order: the
// first took the selection with it.
func TestDoubleXCancelsOneOrder(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	restingOrders(t, c, "BTC-PERP", "ETH-PERP")
	c.key(t, "3", "x", "x")
	if n := len(openIDs(t, c)); n != 1 {
		t.Fatalf("x x left %d orders open, want 1 (notice %q)", n, c.m.shownNotice())
	}
	c.key(t, "1", "3", "x") // coming back to the pane selects the row where the cancelled one was
	if n := len(openIDs(t, c)); n != 0 {
		t.Fatalf("x after coming back left %d orders open (notice %q)", n, c.m.shownNotice())
	}
}

// moreOrders places a resting buy on each symbol at the exchange and polls the orders, as
// restingOrders does, with orders open already.
func moreOrders(t *testing.T, c *simConsole, symbols ...string) {
	t.Helper()
	before := len(c.m.store.Orders())
	var wires []api.OrderWire
	for _, sym := range symbols {
		tk, _ := c.m.store.Ticker(sym)
		in, _ := c.m.store.Instrument(sym)
		px := state.RoundToStep(tk.MarkPrice.Mul(decimal.RequireFromString("0.97")), in.TickSize)
		co, errs := c.m.store.CheckOrder(state.OrderIntent{Instrument: sym, Side: api.SideBuy, Type: state.Limit,
			Price: px.String(), NotionalUSD: "50", Tif: api.TifGTC}, state.DefaultGuard())
		if len(errs) > 0 {
			t.Fatalf("%s: %v", sym, errs)
		}
		wires = append(wires, co.Wire)
	}
	if _, err := c.m.ex.PlaceOrders(context.Background(), wires); err != nil {
		t.Fatal(err)
	}
	pump(t, c.m, c.m.refreshNow(state.KindOrders))
	if n := len(c.m.store.Orders()); n != before+len(symbols) {
		t.Fatalf("%d open orders, want %d", n, before+len(symbols))
	}
}

// openPositions opens a small long on each symbol at the exchange with a market order.
func openPositions(t *testing.T, c *simConsole, symbols ...string) {
	t.Helper()
	for _, sym := range symbols {
		co, errs := c.m.store.CheckOrder(state.OrderIntent{Instrument: sym, Side: api.SideBuy, Type: state.Market,
			NotionalUSD: "200"}, state.DefaultGuard())
		if len(errs) > 0 {
			t.Fatalf("%s: %v", sym, errs)
		}
		if _, err := c.m.ex.PlaceOrders(context.Background(), []api.OrderWire{co.Wire}); err != nil {
			t.Fatal(err)
		}
	}
	pump(t, c.m, c.m.refreshNow(state.KindPositions, state.KindOrders))
}

// TestPositionsCursorFollowsThePosition: the cursor is on a position; the position above it is
// closed elsewhere before the close key; the close asks about the position chosen.
func TestPositionsCursorFollowsThePosition(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	openPositions(t, c, "BTC-PERP", "ETH-PERP", "SOL-PERP")
	c.key(t, "2", "down")
	var pp *positions.Pane
	for _, s := range c.m.slots {
		if p, ok := s.pane.(*positions.Pane); ok {
			pp = p
		}
	}
	chosen, ok := pp.Selected()
	if !ok {
		t.Fatal("no position under the cursor")
	}
	first := pp.Positions()[0]
	co, errs := c.m.store.CheckOrder(state.ClosePositionIntent(first), state.DefaultGuard())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, err := c.m.ex.PlaceOrders(context.Background(), []api.OrderWire{co.Wire}); err != nil {
		t.Fatal(err)
	}
	pump(t, c.m, c.m.refreshNow(state.KindPositions))
	c.key(t, "x", "x")
	if c.m.confirmation() == nil {
		t.Fatalf("close asked nothing: %q", c.m.shownNotice())
	}
	if d := c.m.confirmation().View(); !strings.Contains(d, chosen.Instrument) {
		t.Fatalf("close of %s asks about another position:\n%s", chosen.Instrument, d)
	}
	c.key(t, "enter")
	if !c.position(t, chosen.Instrument).Size.IsZero() {
		t.Errorf("%s still open after its close", chosen.Instrument)
	}
	for _, sym := range []string{"BTC-PERP", "ETH-PERP", "SOL-PERP"} {
		if sym != chosen.Instrument && sym != first.Instrument && c.position(t, sym).Size.IsZero() {
			t.Errorf("%s was closed: the close went to the row under the cursor", sym)
		}
	}
}

// TestBrokersCursorFollowsTheApproval: the cursor is on an approval; the one above it is revoked
// elsewhere before x; x asks to revoke the one chosen.
func TestBrokersCursorFollowsTheApproval(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	ctl := c.m.ex.(api.Control)
	for _, b := range []string{"0x9908658A316D743159F001026F1ef08aa8F0b55B", "0x1111111111111111111111111111111111111111",
		"0x2222222222222222222222222222222222222222"} {
		if _, err := ctl.ApproveBrokerFee(context.Background(), b, "0.001"); err != nil {
			t.Fatal(err)
		}
	}
	bp := brokersView(t, c)
	pump(t, c.m, c.m.refreshNow(state.KindBrokers))
	if len(bp.Rows()) < 3 {
		t.Fatalf("%d approvals listed", len(bp.Rows()))
	}
	c.key(t, "down")
	chosen := bp.Rows()[1].Broker
	if _, err := ctl.ApproveBrokerFee(context.Background(), bp.Rows()[0].Broker, "0"); err != nil {
		t.Fatal(err)
	}
	pump(t, c.m, c.m.refreshNow(state.KindBrokers))
	c.key(t, "x")
	if c.m.confirmation() == nil || !strings.Contains(c.m.confirmation().View(), chosen) {
		t.Fatalf("x does not ask about %s (notice %q)", chosen, c.m.shownNotice())
	}
	c.key(t, "esc")
}

// TestOrdersCursorFollowsAnAmend: an order moved from the pane (a cancel and a new order, with a
// new id) stays selected as its replacement, so the next key acts on the order the trader moved.
func TestOrdersCursorFollowsAnAmend(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	restingOrders(t, c, "BTC-PERP", "ETH-PERP", "SOL-PERP")
	c.key(t, "3", "down")
	p := ordersPaneOf(t, c)
	old, _ := p.Selected()
	c.key(t, "a")
	for range len(p.AmendValue()) {
		c.key(t, "backspace")
	}
	newPx := old.LimitPrice.Sub(old.LimitPrice.Div(decimal.NewFromInt(100)).Round(0))
	c.typeText(t, newPx.String())
	c.key(t, "enter")
	pump(t, c.m, c.m.refreshNow(state.KindOrders))
	got, ok := p.Selected()
	if !ok || got.OrderID == old.OrderID || got.Instrument != old.Instrument || !got.LimitPrice.Equal(newPx) {
		t.Fatalf("after moving %d to %s the cursor is on %+v (selected %v); notice %q", old.OrderID, newPx, got, ok, c.m.shownNotice())
	}
}

// TestLadderReachesAFarOrder (#31 point 9): against the simulator, an order of the trader's far
// below the bids the ladder shows is reached with one key (n), not by grouping; x then cancels
// that order and no other.
func TestLadderReachesAFarOrder(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	_, cmd := c.m.Update(common.InstrumentMsg{Symbol: "BTC-PERP"})
	pump(t, c.m, cmd)
	moreOrders(t, c, "BTC-PERP", "ETH-PERP") // 3% under the mark: beyond the levels that fit
	var far api.OrderRecord
	for _, o := range c.m.store.Orders() {
		if o.Instrument == "BTC-PERP" {
			far = o
		}
	}
	lad := c.m.depth.Ladder
	c.key(t, "9", "n")
	if side, px, ok := lad.Cursor(); !ok || side != api.SideBuy || !px.Equal(far.LimitPrice) {
		t.Fatalf("n: cursor on %s %s (ok %v), want the order at %s:\n%s", side, px, ok, far.LimitPrice, c.m.View())
	}
	c.key(t, "x")
	if ids := openIDs(t, c); len(ids) != 1 || slices.Contains(ids, far.OrderID) {
		t.Fatalf("x on the far order: open %v, want %d cancelled alone (notice %q)", ids, far.OrderID, c.m.shownNotice())
	}
}
