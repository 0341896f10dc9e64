package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/ui/common/commontest"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/risk"
	"github.com/tradedesk/tradedesk/state/session"
)

// TestAnOrderAfterSwitchingLandsOnTheSecondAccount (issue #42): two profiles on one simulator;
// a rests an order and holds a position; ctrl+a lists both with their mode and equity, Enter on
// b switches (the mode line names b); a market buy then lands on b's account, and a's orders and
// positions on the exchange are as they were.
func TestAnOrderAfterSwitchingLandsOnTheSecondAccount(t *testing.T) {
	t.Parallel()
	tp := newTwoProfiles(t, nil)
	if tp.sw.set.Active() != "a" || !strings.Contains(tp.sw.View(), "a") {
		t.Fatalf("active %q", tp.sw.set.Active())
	}
	tp.command(t, "buy 0.01 btc 97000")
	tp.command(t, "buy 0.04 eth mkt")
	tp.key(t, "enter")
	aOrders, aPos := tp.account(t, "a")
	if len(aOrders) != 1 || len(aPos) != 1 {
		t.Fatalf("profile a before the switch: orders %v positions %s (notice %q, dialog %v)", aOrders, sizes(aPos), tp.sw.Active().shownNotice(), tp.sw.Active().confirmation() != nil)
	}
	tp.key(t, "ctrl+a")
	list := tp.sw.View()
	for _, want := range []string{"Profiles", "a ", "b ", "live", "USD", "combined"} {
		if !strings.Contains(list, want) {
			t.Fatalf("the profile list lacks %q:\n%s", want, list)
		}
	}
	tp.key(t, "esc")
	tp.switchTo(t, "b")
	if tp.sw.set.Active() != "b" {
		t.Fatalf("active after the switch: %q", tp.sw.set.Active())
	}
	if top, _, _ := strings.Cut(tp.sw.View(), "\n"); !strings.Contains(top, "b") {
		t.Fatalf("the mode line does not name profile b: %q", top)
	}
	tp.command(t, "buy 0.03 eth mkt")
	if d := tp.sw.Active().confirmation(); d == nil || !strings.Contains(d.Action().Title, "profile b") {
		t.Fatalf("b's confirmation does not say it is b's: %v", d)
	}
	tp.key(t, "enter")
	bOrders, bPos := tp.account(t, "b")
	if len(bOrders) != 0 || sizes(bPos) != "ETH-PERP 0.03" {
		t.Fatalf("profile b after its order: orders %v positions %s", bOrders, sizes(bPos))
	}
	aOrders2, aPos2 := tp.account(t, "a")
	if len(aOrders2) != 1 || aOrders2[0].OrderID != aOrders[0].OrderID || sizes(aPos2) != sizes(aPos) || sizes(aPos2) != "ETH-PERP 0.04" {
		t.Fatalf("profile a changed: orders %v positions %s (were %v %s)", aOrders2, sizes(aPos2), aOrders, sizes(aPos))
	}
}

// TestASwitchMidDialogNeverSendsItsOrderForTheOtherProfile (issue #42): a's order confirmation is
// open (its title says profile a); ctrl+a switches to b, whose message line says a keeps its
// dialog; Enter there sends nothing for either account; back on a the dialog is still a's, and
// Esc drops it with nothing sent.
func TestASwitchMidDialogNeverSendsItsOrderForTheOtherProfile(t *testing.T) {
	t.Parallel()
	tp := newTwoProfiles(t, nil)
	tp.command(t, "buy 0.05 eth mkt")
	a := tp.sw.models["a"]
	if a.confirmation() == nil || !strings.Contains(a.confirmation().Action().Title, "profile a") {
		t.Fatalf("a's confirmation: %v (notice %q)", a.confirmation(), a.shownNotice())
	}
	tp.switchTo(t, "b")
	b := tp.sw.Active()
	if !strings.Contains(b.shownNotice(), "profile a keeps its open dialog") {
		t.Fatalf("b's notice: %q", b.shownNotice())
	}
	tp.key(t, "enter", "enter", "y", "enter")
	for _, name := range []string{"a", "b"} {
		if orders, pos := tp.account(t, name); len(orders) != 0 || len(pos) != 0 {
			t.Fatalf("profile %s after Enter on b: orders %v positions %s", name, orders, sizes(pos))
		}
	}
	if b.confirmation() != nil {
		t.Fatalf("b has a dialog: %s", b.confirmation().Action().Title)
	}
	tp.switchTo(t, "a")
	if a.confirmation() == nil || !strings.Contains(tp.sw.View(), "profile a") {
		t.Fatalf("a's dialog is gone after switching back")
	}
	tp.key(t, "esc")
	if orders, pos := tp.account(t, "a"); a.confirmation() != nil || len(orders) != 0 || len(pos) != 0 {
		t.Fatalf("a after Esc: dialog %v orders %v positions %s", a.confirmation() != nil, orders, sizes(pos))
	}
}

// TestEachProfilesRiskLimitsBindOnlyItsOwnOrders (issue #42): a's [risk] caps an order's
// notional at 500, b's open orders at 1. On a a 970 USD order is refused and two 97 USD orders
// rest; on b the 970 USD order rests (a's cap is not b's) and a second order is refused (b's cap,
// a's two orders not counted).
func TestEachProfilesRiskLimitsBindOnlyItsOwnOrders(t *testing.T) {
	t.Parallel()
	tp := newTwoProfiles(t, map[string]risk.Limits{
		"a": {risk.OrderNotional: decimal.NewFromInt(500)},
		"b": {risk.OpenOrders: decimal.NewFromInt(1)},
	})
	tp.command(t, "buy 0.01 btc 97000")
	if a := tp.sw.Active(); !strings.Contains(a.shownNotice(), "risk") {
		t.Fatalf("a's 970 USD order: notice %q", a.shownNotice())
	}
	tp.command(t, "buy 0.001 btc 97000")
	tp.command(t, "buy 0.001 btc 96900")
	if orders, _ := tp.account(t, "a"); len(orders) != 2 {
		t.Fatalf("a's orders: %v (notice %q)", orders, tp.sw.Active().shownNotice())
	}
	tp.switchTo(t, "b")
	tp.command(t, "buy 0.01 btc 97000")
	if orders, _ := tp.account(t, "b"); len(orders) != 1 {
		t.Fatalf("b's 970 USD order (a's notional cap is not b's): %v (notice %q)", orders, tp.sw.Active().shownNotice())
	}
	tp.command(t, "buy 0.001 btc 96900")
	if b := tp.sw.Active(); !strings.Contains(b.shownNotice(), "risk") {
		t.Fatalf("b's second order (b's open-orders cap): notice %q", b.shownNotice())
	}
	if orders, _ := tp.account(t, "b"); len(orders) != 1 {
		t.Fatalf("b's orders after its cap: %v", orders)
	}
	if orders, _ := tp.account(t, "a"); len(orders) != 2 {
		t.Fatalf("a's orders changed: %v", orders)
	}
}

// TestTheCombinedViewSumsTheProfiles (issue #42): two profiles on one simulator, each with a
// position and a's resting order; the combined view's totals are the sum of the two accounts'
// summaries as the exchange gives them, side by side with each, and it follows a new order.
func TestTheCombinedViewSumsTheProfiles(t *testing.T) {
	t.Parallel()
	tp := newTwoProfiles(t, nil)
	tp.command(t, "buy 0.01 btc 97000")
	tp.command(t, "buy 0.04 eth mkt")
	tp.key(t, "enter")
	tp.switchTo(t, "b")
	tp.command(t, "sell 0.05 eth mkt")
	tp.key(t, "enter")
	for name, m := range tp.sw.models {
		_, cmd := m.Update(keyMsg("ctrl+r"))
		tp.pump(t, tagged(name, cmd))
	}
	var want session.Summary
	for _, name := range []string{"a", "b"} {
		ex := tp.sw.models[name].ex
		acct, err := ex.AccountSummary(t.Context(), ex.Address())
		if err != nil {
			t.Fatal(err)
		}
		want.Equity = want.Equity.Add(acct.TotalAccountEquity)
		want.MarginUsed = want.MarginUsed.Add(acct.InitialMargin)
	}
	total := session.Total(tp.sw.Summaries())
	if !total.Loaded || !total.Equity.Equal(want.Equity) || !total.MarginUsed.Equal(want.MarginUsed) || len(total.Positions) != 2 || len(total.Orders) != 1 {
		t.Fatalf("combined total %+v; the accounts sum to equity %s margin %s", total, want.Equity, want.MarginUsed)
	}
	tp.switchTo(t, "combined")
	a := tp.sw.models["a"] // a's own session goes on behind the read-only view: its new order shows
	for _, k := range append(append([]string{":"}, strings.Split("buy 0.01 btc 96900", "")...), "enter") {
		_, cmd := a.Update(keyMsg(k))
		tp.pump(t, tagged("a", cmd))
	}
	if n := len(tp.sw.Summaries()[0].Orders); n != 2 {
		t.Fatalf("a's orders in the combined view: %d (a's notice %q)", n, a.shownNotice())
	}
	view := tp.sw.View()
	for _, want := range []string{"Combined", "read-only", "total", "ETH-PERP", "0.04", "-0.05", "-0.01", tp.sw.set.Names()[1], "96900"} {
		if !strings.Contains(view, want) {
			t.Fatalf("the combined view lacks %q:\n%s", want, view)
		}
	}
	tp.key(t, "esc")
	if tp.sw.combined {
		t.Fatal("esc did not leave the combined view")
	}
}

// TestAnOrderInFlightSettlesInItsProfileAndSaysSo (issue #42): a's limit order is sent and, before
// its answer is in, the console switches to b; the order lands on a's account, a's own line says
// it was placed, b's says it was a's, and b's account has nothing.
func TestAnOrderInFlightSettlesInItsProfileAndSaysSo(t *testing.T) {
	t.Parallel()
	tp := newTwoProfiles(t, nil)
	tp.key(t, ":")
	for _, r := range "buy 0.01 btc 97000" {
		tp.key(t, string(r))
	}
	_, inFlight := tp.sw.Update(keyMsg("enter")) // not pumped: the order is out when the switch comes
	tp.switchTo(t, "b")
	tp.pump(t, inFlight)
	a, b := tp.sw.models["a"], tp.sw.models["b"]
	if orders, _ := tp.account(t, "a"); len(orders) != 1 {
		t.Fatalf("a's order: %v (a's notice %q)", orders, a.shownNotice())
	}
	if orders, pos := tp.account(t, "b"); len(orders) != 0 || len(pos) != 0 {
		t.Fatalf("b's account changed: %v %s", orders, sizes(pos))
	}
	if !strings.Contains(a.shownNotice(), "placed") || !strings.HasPrefix(b.shownNotice(), "profile a: ") || !strings.Contains(b.shownNotice(), "placed") {
		t.Fatalf("a's notice %q, b's %q", a.shownNotice(), b.shownNotice())
	}
}

// TestTheProfilesKeyIsRebindable (issue #42): with [keys] profiles = ["ctrl+p"] ctrl+p opens the
// profile list and ctrl+a no longer does (it reaches the active profile).
func TestTheProfilesKeyIsRebindable(t *testing.T) {
	t.Parallel()
	tp := newTwoProfilesKeyed(t, nil, commontest.Rebound(t, map[string][]string{"profiles": {"ctrl+p"}}))
	tp.key(t, "ctrl+a")
	if tp.sw.picking {
		t.Fatal("ctrl+a opened the list after profiles was rebound")
	}
	_, cmd := tp.sw.Update(tea.KeyMsg{Type: tea.KeyCtrlP})
	tp.pump(t, cmd)
	if !tp.sw.picking {
		t.Fatal("ctrl+p did not open the list")
	}
}
