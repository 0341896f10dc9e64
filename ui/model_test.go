package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

func TestConsoleLoadsFromSimulator(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	if n := len(c.m.store.Tickers()); n == 0 {
		t.Fatal("no tickers after the first polls")
	}
	v := c.m.View()
	for _, want := range []string{"DEMO", "BTC-PERP", "97,250.0", "Equity", "100,000.00 USD", "Order entry", "Open orders", "Positions", "● connected"} {
		if !strings.Contains(v, want) {
			t.Errorf("screen lacks %q:\n%s", want, v)
		}
	}
	if f := c.m.store.Freshness(state.KindAccount); !f.Loaded() || f.Stale {
		t.Errorf("account freshness %+v", f)
	}
	if got := strings.TrimSpace(c.m.form.Value(orderentry.FieldInstrument)); got == "" {
		t.Error("the order form has no instrument after the tickers loaded")
	}
}

func TestFocusMovesWithTabShiftTabAndNumbers(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	if c.m.focus != 0 {
		t.Fatalf("focus %d at start, want 0", c.m.focus)
	}
	c.key(t, "tab")
	if c.m.focus != 1 {
		t.Errorf("after Tab focus %d, want 1", c.m.focus)
	}
	c.key(t, "shift+tab", "shift+tab")
	if want := len(c.m.slots) - 1; c.m.focus != want {
		t.Errorf("after two shift+Tab focus %d, want %d", c.m.focus, want)
	}
	c.key(t, "3")
	if c.m.focus != 2 {
		t.Errorf("after 3 focus %d, want 2", c.m.focus)
	}
	if v := c.m.View(); !strings.Contains(v, "▶3 Open orders") {
		t.Errorf("the focused pane is not marked:\n%s", v)
	}
}

func TestFocusedFieldTakesKeysBeforeGlobalBindings(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.key(t, "4")
	form := c.m.form
	if c.m.slots[c.m.focus].pane != form || form.Field() != orderentry.FieldInstrument {
		t.Fatalf("focus %d field %d: want the form's instrument field", c.m.focus, form.Field())
	}
	form.SetValue(orderentry.FieldInstrument, "")
	for _, k := range []string{"q", "1", "?"} {
		_, cmd := c.m.Update(keyMsg(k))
		if cmd != nil {
			if _, quit := cmd().(tea.QuitMsg); quit {
				t.Fatalf("typing %q in a field quit the console", k)
			}
		}
	}
	if got := form.Value(orderentry.FieldInstrument); got != "q1?" {
		t.Errorf("field value %q, want %q", got, "q1?")
	}
	if c.m.slots[c.m.focus].pane != form || c.m.helpOpen() {
		t.Error("a key typed into a field acted as a global binding")
	}
	c.key(t, "tab")
	if c.m.slots[c.m.focus].pane != form || form.Field() == orderentry.FieldInstrument {
		t.Error("Tab in the form did not move to the next field")
	}
	c.key(t, "esc", "tab")
	if c.m.slots[c.m.focus].pane == form {
		t.Error("Tab after Esc did not leave the form")
	}
}

// TestPlaceAndCancelOrderThroughTheUI is the end-to-end path: a limit order typed in the form,
// reviewed, confirmed, seen in open orders, then cancelled with its key, against the simulator
// over HTTP.
func TestPlaceAndCancelOrderThroughTheUI(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	c.m.reviewEveryOrder() // about the confirmation and what follows it, not which orders ask
	pump(t, c.m, c.m.Init())
	c.key(t, "4")
	form := c.m.form
	form.SetValue(orderentry.FieldInstrument, "")
	c.typeText(t, "BTC")
	if v := c.m.View(); !strings.Contains(v, "BTC-PERP") {
		t.Fatalf("no completion offered for BTC:\n%s", v)
	}
	c.key(t, "right") // accept the completion
	if got := strings.TrimSpace(form.Value(orderentry.FieldInstrument)); got != "BTC-PERP" {
		t.Fatalf("instrument %q after completion", got)
	}
	c.key(t, "down", "down", "down") // side, type, price
	c.typeText(t, "95000")
	c.key(t, "down")
	c.typeText(t, "0.01")
	if errs := form.Errors(); len(errs) > 0 {
		t.Fatalf("valid order has errors: %v", errs)
	}
	if v := c.m.View(); !strings.Contains(v, "Notional    950.00 USD") {
		t.Errorf("no preview of the notional:\n%s", v)
	}
	c.key(t, "enter")
	if c.m.confirmation() == nil {
		t.Fatalf("submit did not ask for confirmation; notice %q", c.m.shownNotice())
	}
	if v := c.m.View(); !strings.Contains(v, "BUY 0.0100 BTC-PERP @ 95,000.0") {
		t.Errorf("the confirmation does not show the order:\n%s", v)
	}
	c.key(t, "enter")
	if c.m.confirmation() != nil {
		t.Fatal("the dialog stayed open after Enter")
	}
	if !strings.Contains(c.m.shownNotice(), "placed") {
		t.Fatalf("status after sending: %q", c.m.shownNotice())
	}
	orders := c.m.store.Orders()
	if len(orders) != 1 || orders[0].Instrument != "BTC-PERP" || !orders[0].LimitPrice.Equal(d("95000")) {
		t.Fatalf("open orders after placing: %+v", orders)
	}
	if v := c.m.View(); !strings.Contains(v, "Open orders (1)") || !strings.Contains(v, "95,000.0") {
		t.Errorf("the open orders pane does not show the order:\n%s", v)
	}

	c.key(t, "3", "x", "enter")
	if !strings.Contains(c.m.shownNotice(), "cancel") || c.m.shownLevel() == common.LevelError {
		t.Fatalf("status after cancel: %q", c.m.shownNotice())
	}
	if n := len(c.m.store.Orders()); n != 0 {
		t.Fatalf("%d open orders after cancelling", n)
	}
	page, err := c.m.ex.OpenOrders(context.Background(), c.m.ex.Address(), api.PageParams{})
	if err != nil || len(page.Data) != 0 {
		t.Fatalf("the exchange still has open orders: %+v, %v", page.Data, err)
	}
}

func TestMarketOrderOpensPositionAndCloseKeyClosesIt(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.key(t, "4", "down", "down", "right") // type: market
	if c.m.form.OrderType() != "market" {
		t.Fatalf("type %q", c.m.form.OrderType())
	}
	c.key(t, "down") // the price field is hidden: size
	if c.m.form.Field() != orderentry.FieldSize {
		t.Fatalf("field %d after type, want size", c.m.form.Field())
	}
	c.typeText(t, "0.02")
	c.key(t, "enter", "enter")
	if c.m.shownLevel() == common.LevelError {
		t.Fatalf("market order failed: %q", c.m.shownNotice())
	}
	ps := c.m.store.Positions()
	if len(ps) != 1 || !ps[0].Size.Equal(d("0.02")) {
		t.Fatalf("positions after a market buy: %+v (notice %q)", ps, c.m.shownNotice())
	}
	if v := c.m.View(); !strings.Contains(v, "LONG") {
		t.Errorf("positions pane does not show the long:\n%s", v)
	}
	c.key(t, "2", "x", "x")
	if c.m.confirmation() == nil {
		t.Fatalf("close did not ask for confirmation: %q", c.m.shownNotice())
	}
	c.key(t, "enter")
	if n := len(c.m.store.Positions()); n != 0 {
		t.Fatalf("%d positions after closing (notice %q)", n, c.m.shownNotice())
	}
}

// TestConfirmationEscapeSendsNothing: Esc in a confirmation sends nothing, and the status line
// says so with the neutral mark, not the check mark of something done (QA item 15).
func TestConfirmationEscapeSendsNothing(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.key(t, "3", "C")
	if c.m.confirmation() == nil {
		t.Fatal("cancel-all did not ask for confirmation")
	}
	c.key(t, "esc")
	if c.m.confirmation() != nil || !strings.Contains(c.m.shownNotice(), "not sent") {
		t.Errorf("after Esc: dialog %v, notice %q", c.m.confirmation() != nil, c.m.shownNotice())
	}
	if line := ansi.Strip(c.m.status.message(c.m, 200)); !strings.HasPrefix(line, "○ not sent") {
		t.Errorf("status line %q, want it to start with the neutral mark: ○ not sent", line)
	}
}

// typeLimitBuy types a limit buy of 0.01 BTC-PERP at 95,000 in the form.
func (c *simConsole) typeLimitBuy(t *testing.T) {
	t.Helper()
	c.key(t, "4")
	c.m.form.SetValue(orderentry.FieldInstrument, "BTC-PERP")
	c.key(t, "down", "down", "down")
	c.typeText(t, "95000")
	c.key(t, "down")
	c.typeText(t, "0.01")
}

// TestSecondEnterDoesNotSendTwice: under the "every" policy two Enters reach the confirmation
// before the first result is back, and one order is placed.
func TestSecondEnterDoesNotSendTwice(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	c.m.reviewEveryOrder()
	pump(t, c.m, c.m.Init())
	c.typeLimitBuy(t)
	c.key(t, "enter")
	_, first := c.m.Update(keyMsg("enter"))
	_, second := c.m.Update(keyMsg("enter"))
	if second != nil {
		t.Fatal("a second Enter on the confirmation produced a command")
	}
	pump(t, c.m, first)
	if n := len(c.m.store.Orders()); n != 1 {
		t.Fatalf("%d orders after a double Enter, want 1 (notice %q)", n, c.m.shownNotice())
	}
}

// TestSecondEnterDoesNotSendTwiceUnconfirmed: under the default policy a plain limit order is sent
// on Enter, without a dialog. A second Enter while it is out is refused by the order lane, and
// one after it settled finds the form emptied (its numbers are the sent order's, cleared): one
// order in all, and the trader told what to type. Guards the lane guard and the form's clearing.
func TestSecondEnterDoesNotSendTwiceUnconfirmed(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.typeLimitBuy(t)
	_, first := c.m.Update(keyMsg("enter"))
	if c.m.confirmation() != nil || first == nil {
		t.Fatalf("a plain limit order opened a dialog (%v) or asked for nothing", c.m.confirmation() != nil)
	}
	_, sending := c.m.Update(first()) // the request reaches the pipeline: the order is out
	_, second := c.m.Update(keyMsg("enter"))
	pump(t, c.m, sending)
	pump(t, c.m, second)
	if n := len(c.m.store.Orders()); n != 1 {
		t.Fatalf("%d orders after a double Enter, want 1 (notice %q)", n, c.m.shownNotice())
	}
	c.key(t, "enter")
	if n := len(c.m.store.Orders()); n != 1 || !strings.Contains(c.m.shownNotice(), "enter a size") {
		t.Fatalf("an Enter after the order settled: %d orders, notice %q", n, c.m.shownNotice())
	}
}

func TestFarPriceNeedsTypedConfirmation(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.key(t, "4")
	c.m.form.SetValue(orderentry.FieldInstrument, "BTC-PERP")
	c.key(t, "down", "right") // sell: 18% under the mark crosses the bid (a buy there would rest and need no typing, #23)
	c.key(t, "down", "down")
	c.typeText(t, "80000")
	c.key(t, "down")
	c.typeText(t, "0.01")
	c.key(t, "enter")
	if c.m.confirmation() == nil || c.m.confirmation().Action().Typed == "" {
		t.Fatalf("a price far from the mark did not ask for a typed confirmation (notice %q)", c.m.shownNotice())
	}
	c.key(t, "enter")
	if c.m.confirmation() == nil || c.m.confirmation().Answered() {
		t.Fatal("Enter alone confirmed a far-from-mark order")
	}
	c.typeText(t, "yes")
	c.key(t, "enter")
	if ps := c.m.store.Positions(); len(ps) != 1 || !ps[0].Size.Equal(d("-0.01")) {
		t.Fatalf("positions after typing yes: %+v (notice %q)", ps, c.m.shownNotice())
	}
}

func TestReadOnlyTradingKeysSayWhy(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, true)
	pump(t, c.m, c.m.Init())
	if v := c.m.View(); !strings.Contains(v, "READ-ONLY") {
		t.Errorf("no READ-ONLY badge:\n%s", v)
	}
	for _, keys := range [][]string{{"3", "x"}, {"3", "C"}, {"2", "x"}, {"4", "enter"}} {
		c.m.clearNotice()
		c.key(t, keys...)
		if !strings.Contains(c.m.shownNotice(), "read-only") {
			t.Errorf("keys %v: notice %q, want a read-only explanation", keys, c.m.shownNotice())
		}
		if c.m.confirmation() != nil {
			t.Errorf("keys %v opened a dialog in read-only mode", keys)
		}
		c.key(t, "esc") // leave the form's field
	}
}

func TestHelpOverlayAndFooter(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	if v := c.m.View(); !strings.Contains(v, "/ filter") {
		t.Errorf("footer lacks the tickers' short help:\n%s", v)
	}
	c.key(t, "?")
	v := c.m.View()
	if !c.m.helpOpen() || !strings.Contains(v, "Keys — Tickers") {
		t.Fatalf("no help overlay:\n%s", v)
	}
	for _, want := range []string{"next pane", "sort by next column", "toggle favourite"} {
		if !strings.Contains(v, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	c.key(t, "esc")
	if c.m.helpOpen() {
		t.Error("Esc did not close the help")
	}
}

func TestLayoutsBySize(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 80, 24, false)
	pump(t, c.m, c.m.Init())
	v := c.m.View()
	if !c.m.narrow || !strings.Contains(v, "▶1 Tickers") {
		t.Errorf("80x24 is not tabbed:\n%s", v)
	}
	assertSize(t, v, 80, 24)
	c.m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	v = c.m.View()
	if c.m.narrow {
		t.Error("200x60 is still tabbed")
	}
	assertSize(t, v, 200, 60)
	c.m.Update(tea.WindowSizeMsg{Width: 50, Height: 12})
	if v := c.m.View(); !strings.Contains(v, "at least 60x16") {
		t.Errorf("too small a terminal does not say so:\n%s", v)
	}
}

func TestEverySizeFillsTheScreenExactly(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 120, 30, false)
	pump(t, c.m, c.m.Init())
	for _, sz := range [][2]int{{60, 16}, {80, 24}, {100, 30}, {100, 50}, {80, 60}, {120, 30}, {132, 43}, {160, 50}, {200, 60}, {250, 80}} {
		c.m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		for i := range c.m.slots {
			c.m.setFocus(i)
			assertSize(t, c.m.View(), sz[0], sz[1])
		}
	}
}

func TestHiddenPaneShowsWhenFocused(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 120, 30, false)
	pump(t, c.m, c.m.Init())
	var hidden int = -1
	for i, s := range c.m.slots {
		if s.hidden {
			hidden = i
			break
		}
	}
	if hidden < 0 {
		t.Skip("every pane fits at 120x30")
	}
	if v := c.m.View(); !strings.Contains(v, "no room for") {
		t.Errorf("hidden panes are not listed:\n%s", v)
	}
	c.key(t, string(rune('1'+hidden)))
	if c.m.slots[hidden].hidden {
		t.Fatal("the focused pane is still hidden")
	}
	title := c.m.slots[hidden].pane.Title()
	if v := c.m.View(); !strings.Contains(v, "▶"+string(rune('1'+hidden))+" "+title) {
		t.Errorf("the focused pane %q is not drawn:\n%s", title, v)
	}
}

func assertSize(t *testing.T, v string, w, h int) {
	t.Helper()
	lines := strings.Split(v, "\n")
	if len(lines) != h {
		t.Errorf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := common.TextWidth(l); n != w {
			t.Errorf("line %d is %d cells, want %d: %q", i, n, w, l)
		}
	}
}

func TestMouseClickFocusesPaneAndSelectsRow(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	s := c.m.slots[0]
	// Row 3 of the tickers: border (1) + header (1) + two rows.
	_, cmd := c.m.Update(tea.MouseMsg{X: s.r.x + 5, Y: s.r.y + 4, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	pump(t, c.m, cmd)
	if c.m.tickers.Selected() != c.m.tickers.Shown()[2] {
		t.Errorf("%s selected after clicking the third row %s", c.m.tickers.Selected(), c.m.tickers.Shown()[2])
	}
	if want := c.m.tickers.Selected(); strings.TrimSpace(c.m.form.Value(orderentry.FieldInstrument)) != want {
		t.Errorf("form instrument %q, want the clicked %q", strings.TrimSpace(c.m.form.Value(orderentry.FieldInstrument)), want)
	}
	acc := c.m.slots[4]
	c.m.Update(tea.MouseMsg{X: acc.r.x + 3, Y: acc.r.y + 2, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if c.m.focus != 4 {
		t.Errorf("focus %d after clicking the account pane", c.m.focus)
	}
}

func TestTickersSortAndFilter(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	p := c.m.tickers
	all := len(p.Shown())
	c.key(t, "/")
	c.typeText(t, "doge")
	if shown := p.Shown(); len(shown) != 1 || shown[0] != "DOGE-PERP" {
		t.Errorf("filter doge: %v", shown)
	}
	c.key(t, "esc")
	if n := len(p.Shown()); n != all {
		t.Errorf("Esc did not clear the filter: %d of %d rows", n, all)
	}
	c.key(t, "o") // sort by mark
	if v := c.m.View(); !strings.Contains(v, "Mark▲") {
		t.Fatalf("not sorted by mark:\n%s", v)
	}
	c.key(t, "w") // favourites only: the watchlist is ETH-PERP
	if shown := p.Shown(); len(shown) != 1 || shown[0] != "ETH-PERP" {
		t.Errorf("favourites only: %v", shown)
	}
	c.key(t, "w")
	prev := d("-1")
	for _, sym := range p.Shown()[1:] { // the favourite is first, then by mark
		tk, _ := c.m.store.Ticker(sym)
		if tk.MarkPrice.LessThan(prev) {
			t.Fatalf("not sorted by mark: %s after %s", tk.MarkPrice, prev)
		}
		prev = tk.MarkPrice
	}
}

func TestFailedPollsShowStaleAndRecover(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	// A reply of an older generation is dropped.
	before := c.m.store.Version(state.KindTickers)
	tickers := c.m.feed.Task(state.KindTickers)
	c.m.Update(tickers.Reply(tickers.Gen()-1, state.TickersMsg{}, nil))
	if c.m.store.Version(state.KindTickers) != before {
		t.Error("a late reply was applied")
	}
	// The exchange fails: the console shows it, keeps the data, and backs off.
	p := c.m.feed.Task(state.KindOrders)
	_ = p.Poll() // a request goes out; its answer is lost, and this one comes back instead
	boom := errors.New("connection refused")
	c.m.Update(p.Reply(p.Gen(), nil, boom))
	v := c.m.View()
	if !strings.Contains(v, "orders: connection refused") || !strings.Contains(v, "stale") {
		t.Errorf("a failed poll is not shown:\n%s", v)
	}
	if p.Fails() != 1 {
		t.Errorf("fails %d", p.Fails())
	}
	c.key(t, "ctrl+r")
	if p.Fails() != 0 || c.m.store.Freshness(state.KindOrders).Stale {
		t.Errorf("not fresh again after a good poll: fails %d", p.Fails())
	}
}

func TestMarketsOnlyWithoutAccount(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, true)
	client := api.New(c.url+"/", api.WithClock(c.clock.Now))
	m := New(Config{Exchange: client, Clock: c.clock.Now, Timers: feed.NewFakeClock(simStart), Keys: mustKeys(t), Theme: testTheme, Mode: ModeReadOnly, Network: "sim"})
	m.fixedLatency = true
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	pump(t, m, m.Init())
	if m.feed.Task(state.KindAccount) != nil || m.feed.Task(state.KindOrders) != nil {
		t.Error("account data is polled without an account")
	}
	v := m.View()
	if !strings.Contains(v, "BTC-PERP") || strings.Count(v, "no account: start with --address") < 3 {
		t.Errorf("markets-only screen:\n%s", v)
	}
}

func TestMouseClickOnTabInNarrowLayout(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 80, 24, false)
	pump(t, c.m, c.m.Init())
	c.m.View() // draws the tab bar
	var span tabSpan
	for _, s := range c.m.tabs {
		if s.slot == 2 {
			span = s
		}
	}
	c.m.Update(tea.MouseMsg{X: span.x0 + 1, Y: 1, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft})
	if c.m.focus != 2 {
		t.Fatalf("focus %d after clicking tab 3 at x=%d", c.m.focus, span.x0+1)
	}
	if v := c.m.View(); !strings.Contains(v, "▶3 Open") {
		t.Errorf("the clicked tab is not shown:\n%s", v)
	}
}
