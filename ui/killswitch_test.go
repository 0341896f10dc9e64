package ui

import (
	"context"
	"github.com/tradedesk/tradedesk/ui/components/orders"
	"net/http"
	"strconv"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

var ctrlK = tea.KeyMsg{Type: tea.KeyCtrlK}

// restingOrders places one small limit buy 2% under the mark on each instrument, straight through
// the client, and refreshes the console's open orders.
func restingOrders(t *testing.T, c *simConsole, symbols ...string) {
	t.Helper()
	var wires []api.OrderWire
	for _, sym := range symbols {
		tk, ok := c.m.store.Ticker(sym)
		if !ok {
			t.Fatalf("no ticker for %s", sym)
		}
		in, _ := c.m.store.Instrument(sym)
		px := state.RoundToStep(tk.MarkPrice.Mul(decimal.RequireFromString("0.98")), in.TickSize)
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
	if n := len(c.m.store.Orders()); n != len(symbols) {
		t.Fatalf("%d open orders after placing %d", n, len(symbols))
	}
}

func exchangeOpen(t *testing.T, c *simConsole) int {
	t.Helper()
	os, err := api.AllPages(context.Background(), func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return c.m.ex.OpenOrders(ctx, c.m.ex.Address(), p)
	}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return len(os)
}

func (c *simConsole) press(t *testing.T, k tea.KeyMsg) {
	t.Helper()
	_, cmd := c.m.Update(k)
	pump(t, c.m, cmd)
}

// TestKillSwitch: the key works from any pane, even while typing in the order form; it asks first
// (Esc backs out with nothing sent), then cancels every order on every instrument; pressing it
// again is harmless.
func TestKillSwitch(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	restingOrders(t, c, "BTC-PERP", "ETH-PERP", "SOL-PERP")

	c.key(t, "4")
	c.m.form.Focus(orderentry.FieldInstrument)
	if !c.m.form.Capturing() {
		t.Fatal("the form's instrument field does not take keys")
	}
	before := c.m.form.Value(orderentry.FieldInstrument)
	c.press(t, ctrlK)
	if c.m.confirmation() == nil || c.m.confirmation().Action().Kind != action.KindCancelAll {
		t.Fatal("ctrl+k while typing in the form does not open the kill switch's confirmation")
	}
	if got := c.m.form.Value(orderentry.FieldInstrument); got != before {
		t.Errorf("ctrl+k was typed into the form: %q -> %q", before, got)
	}
	box := c.m.View()
	for _, want := range []string{"KILL SWITCH", "every instrument (3 shown)", "Positions stay open"} {
		if !strings.Contains(box, want) {
			t.Errorf("the confirmation does not say %q:\n%s", want, box)
		}
	}
	c.key(t, "esc")
	if c.m.confirmation() != nil || exchangeOpen(t, c) != 3 || !strings.Contains(c.m.shownNotice(), "not sent") {
		t.Fatalf("Esc: dialog %v, %d open at the exchange, notice %q", c.m.confirmation() != nil, exchangeOpen(t, c), c.m.shownNotice())
	}

	c.key(t, "1") // from another pane
	c.press(t, ctrlK)
	c.key(t, "enter")
	if n := exchangeOpen(t, c); n != 0 {
		t.Fatalf("%d orders still open at the exchange after the kill switch", n)
	}
	if c.m.shownNotice() != "cancelled 3 orders" || len(c.m.store.Orders()) != 0 {
		t.Errorf("after the kill switch: notice %q, %d orders shown", c.m.shownNotice(), len(c.m.store.Orders()))
	}

	c.press(t, ctrlK)
	c.key(t, "enter")
	if c.m.shownNotice() != "cancelled 0 orders" || c.m.shownLevel() != common.LevelInfo {
		t.Errorf("the kill switch again: notice %q (level %d), want a harmless count", c.m.shownNotice(), c.m.shownLevel())
	}
}

// TestKillSwitchReadOnly: a read-only console says why the kill switch does nothing.
func TestKillSwitchReadOnly(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, true)
	pump(t, c.m, c.m.Init())
	c.press(t, ctrlK)
	if c.m.confirmation() != nil {
		t.Fatal("a read-only console asks to confirm a kill switch it cannot send")
	}
	if !strings.Contains(c.m.shownNotice(), "kill switch: nothing cancelled: this console is read-only (") || !strings.Contains(c.m.shownNotice(), "--keystore") {
		t.Errorf("notice %q does not explain why", c.m.shownNotice())
	}
}

// cancelOf is the orders pane's cancel action for its selected order.
func cancelOf(t *testing.T, c *simConsole) action.RequestMsg {
	t.Helper()
	var op *orders.Pane
	for _, s := range c.m.slots {
		if p, ok := s.pane.(*orders.Pane); ok {
			op = p
		}
	}
	msg, ok := op.Update(keyMsg(op.Keys.Cancel.Keys()[0]))().(action.RequestMsg)
	if !ok {
		t.Fatal("the orders pane has no order to cancel")
	}
	return msg
}

// TestRepeatCancelIsHarmless: cancelling an order already cancelled (a second x, a stale list,
// a lost answer) says it is already gone, as information, not as an error.
func TestRepeatCancelIsHarmless(t *testing.T) {
	t.Parallel()
	l := &lossy{}
	c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler { l.h = h; return l })
	c.m.reviewEveryOrder() // about the confirmation and what follows it, not which orders ask
	pump(t, c.m, c.m.Init())
	restingOrders(t, c, "BTC-PERP", "ETH-PERP")
	c.key(t, "3")
	msg := cancelOf(t, c)
	oid := msg.Act.Cancel.Oid

	c.key(t, "x", "enter")
	if !strings.HasPrefix(c.m.shownNotice(), "cancelled: ") || exchangeOpen(t, c) != 1 {
		t.Fatalf("first cancel: notice %q, %d open", c.m.shownNotice(), exchangeOpen(t, c))
	}
	for range 2 {
		_, cmd := c.m.Update(msg) // the same cancel again, as from a list not yet refreshed
		pump(t, c.m, cmd)
		c.key(t, "enter") // x asks which row (#24)
		want := "order " + strconv.Itoa(int(oid)) + " is already cancelled at the exchange: nothing left to cancel"
		if c.m.shownNotice() != want || c.m.shownLevel() != common.LevelInfo {
			t.Errorf("repeated cancel: notice %q (level %d), want %q as info", c.m.shownNotice(), c.m.shownLevel(), want)
		}
	}
	if exchangeOpen(t, c) != 1 {
		t.Error("a repeated cancel touched another order")
	}

	// The answer of a cancel that worked is lost: the check finds the order gone.
	l.act = true
	l.drop.Store(true)
	c.key(t, "up", "x", "enter") // the cancelled order took the selection with it: pick the other
	if !strings.Contains(c.m.shownNotice(), "is already cancelled at the exchange: nothing left to cancel") || exchangeOpen(t, c) != 0 {
		t.Errorf("cancel with its answer lost: notice %q, %d open", c.m.shownNotice(), exchangeOpen(t, c))
	}

	// The kill switch's answer is lost before it arrives: the order stays, and the console says so.
	restingOrders(t, c, "SOL-PERP")
	l.act = false
	l.drop.Store(true)
	c.press(t, ctrlK)
	c.key(t, "enter")
	if !strings.Contains(c.m.shownNotice(), "1 order still open; cancelling again is safe") || c.m.shownLevel() != common.LevelError {
		t.Errorf("kill switch lost: notice %q (level %d)", c.m.shownNotice(), c.m.shownLevel())
	}
	c.press(t, ctrlK)
	c.key(t, "enter")
	if c.m.shownNotice() != "cancelled 1 order" || exchangeOpen(t, c) != 0 {
		t.Errorf("kill switch again: notice %q, %d open", c.m.shownNotice(), exchangeOpen(t, c))
	}
}
