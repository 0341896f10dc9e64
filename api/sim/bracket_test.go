package sim

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// ethBracket is a bracket on ETH-PERP (mark 3412.5 in a quiet simulator): an entry of size at
// price (market when price is ""), a take-profit at tp and a stop-loss at sl ("" leaves one out).
func ethBracket(t *testing.T, side, price, size, tp, sl string) []api.OrderWire {
	t.Helper()
	entry := limit(2, side, price, size)
	if price == "" {
		entry.IsMarket, entry.Tif, entry.Price = true, api.TifIOC, dec("3412.5").Mul(dec("1.1")).String()
		if side == api.SideSell {
			entry.Price = dec("3412.5").Mul(dec("0.9")).String()
		}
	}
	var legs []api.TpslLeg
	for _, l := range []struct{ kind, trig string }{{api.TpslTakeProfit, tp}, {api.TpslStopLoss, sl}} {
		if l.trig != "" {
			legs = append(legs, api.TpslLeg{Tpsl: l.kind, Trigger: l.trig, Price: childBound(side, l.trig)})
		}
	}
	os, err := api.Bracket(entry, legs...)
	if err != nil {
		t.Fatal(err)
	}
	return os
}

// childBound is a worst price 10% past px for an order on the side opposite entrySide.
func childBound(entrySide, px string) string {
	if entrySide == api.SideBuy { // the child sells
		return dec(px).Mul(dec("0.9")).String()
	}
	return dec(px).Mul(dec("1.1")).String()
}

// openOf lists the account's open orders.
func openOf(t *testing.T, c *api.Client) []api.OrderRecord {
	t.Helper()
	p, err := c.OpenOrders(ctx(), "", api.PageParams{})
	if err != nil {
		t.Fatal(err)
	}
	return p.Data
}

// ids places orders and returns their ids, failing unless every order was placed.
func ids(t *testing.T, c *api.Client, os ...api.OrderWire) []api.OrderID {
	t.Helper()
	r := place(t, c, os...)
	got, err := r.OrderIDs()
	if err != nil || len(got) != len(os) {
		t.Fatalf("placed %d of %d orders: %s (%v)", len(got), len(os), r.Data, err)
	}
	return got
}

// A bracket whose entry rests waits with its children unarmed: a mark through the stop fires
// nothing. Cancelling the entry cancels the children. Guards children armed before their
// entry fills, and children that outlive an entry cancelled unfilled.
func TestBracketChildrenDieWithEntry(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	bob := e.client("bob")
	id := ids(t, bob, ethBracket(t, api.SideBuy, "3400", "1", "3500", "3300")...)
	if n := len(openOf(t, bob)); n != 3 {
		t.Fatalf("%d open orders, want the entry and its two children", n)
	}
	for _, o := range openOf(t, bob) {
		if o.OrderID != id[0] && (o.Grouping != api.GroupingNormal || !o.ReduceOnly || o.Side != api.SideSell) {
			t.Errorf("child %+v", o)
		}
	}
	if err := e.sim.SetIndexPrice("ETH-PERP", dec("3290")); err != nil {
		t.Fatal(err)
	}
	if o := findOrder(t, bob, id[2]); o.State != api.StateOpen {
		t.Fatalf("the stop of an unfilled entry is %s, want open (unarmed)", o.State)
	}
	if _, err := bob.CancelByOid(ctx(), []api.CancelOid{{Oid: id[0], InstrumentID: 2}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range id[1:] {
		if o := findOrder(t, bob, c); o.State != api.StateCancelled {
			t.Errorf("child %d is %s after its entry was cancelled, want cancelled", c, o.State)
		}
	}
	if n := len(openOf(t, bob)); n != 0 {
		t.Errorf("%d open orders left", n)
	}
}

// An entry that fills arms its children for what it filled; when the stop fires and fills (here
// in part, so the position stays), the take-profit is cancelled. Guards children sized to the
// order rather than the fill, and the sibling that survives its sibling's fill.
func TestBracketFillArmsAndOneCancelsOther(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(2, api.SideSell, "3400", "1"))
	id := ids(t, bob, ethBracket(t, api.SideBuy, "3400", "2", "3500", "3300")...) // half fills
	tp := findOrder(t, bob, id[1])
	eqDec(t, "take-profit size after half the entry filled", tp.Size, "1")
	place(t, alice, limit(2, api.SideSell, "3400", "1")) // the rest of the entry fills
	eqDec(t, "take-profit size after the entry filled", findOrder(t, bob, id[1]).Size, "2")
	eqDec(t, "stop size after the entry filled", findOrder(t, bob, id[2]).Size, "2")

	place(t, alice, limit(2, api.SideBuy, "3295", "1")) // liquidity for half the stop
	if err := e.sim.SetIndexPrice("ETH-PERP", dec("3290")); err != nil {
		t.Fatal(err)
	}
	if o := findOrder(t, bob, id[2]); o.State != api.StateTriggered {
		t.Fatalf("stop is %s, want triggered", o.State)
	}
	// The stop sold 1 of 2: the position is still open, and the take-profit goes all the same.
	if ps := positions(t, bob); len(ps) != 1 || !ps[0].Size.Equal(dec("1")) {
		t.Fatalf("position after half the stop filled: %+v", ps)
	}
	if o := findOrder(t, bob, id[1]); o.State != api.StateCancelled {
		t.Errorf("take-profit is %s after the stop filled, want cancelled", o.State)
	}
	if n := len(openOf(t, bob)); n != 0 {
		t.Errorf("%d open orders left", n)
	}
}

// The take-profit side: a market entry fills at once, the mark rises through the take-profit,
// which closes the position, and the stop is cancelled.
func TestBracketTakeProfitFills(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(2, api.SideBuy, "3410", "1"))
	id := ids(t, bob, ethBracket(t, api.SideSell, "", "1", "3300", "3500")...) // short 1 at 3410
	if ps := positions(t, bob); len(ps) != 1 || !ps[0].Size.Equal(dec("-1")) {
		t.Fatalf("positions %+v", ps)
	}
	place(t, alice, limit(2, api.SideSell, "3305", "1"))
	if err := e.sim.SetIndexPrice("ETH-PERP", dec("3300")); err != nil {
		t.Fatal(err)
	}
	if o := findOrder(t, bob, id[2]); o.State != api.StateCancelled {
		t.Errorf("stop is %s after the take-profit filled, want cancelled", o.State)
	}
	fs := fills(t, bob)
	eqDec(t, "take-profit fill", fs[0].Price, "3305")
	eqDec(t, "closed pnl", fs[0].ClosedPnl, "105")
}

// Closing the position by hand cancels the bracket's children: they live only while the
// position does. Guards children left waiting on a closed position.
func TestBracketChildrenDieWithPosition(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(2, api.SideSell, "3400", "1"))
	id := ids(t, bob, ethBracket(t, api.SideBuy, "3400", "1", "3500", "3300")...)
	place(t, alice, limit(2, api.SideBuy, "3405", "1"))
	place(t, bob, limit(2, api.SideSell, "3405", "1")) // closes the long
	for _, c := range id[1:] {
		if o := findOrder(t, bob, c); o.State != api.StateCancelled {
			t.Errorf("child %d is %s after the position closed, want cancelled", c, o.State)
		}
	}
}

// Position take-profit and stop-loss (grouping position) live while the position does; a new
// one replaces the one of its kind; when the take-profit fires it closes the whole position and
// the stop goes. Guards a position TP/SL that outlives its position and a replaced one that stays.
func TestPositionBracket(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(2, api.SideSell, "3400", "2"))
	place(t, bob, limit(2, api.SideBuy, "3400", "1"))
	pos := func(tpsl, trig string) api.OrderWire {
		return api.TpslOrder(2, api.SideSell, "1", api.GroupingPosition, api.TpslLeg{Tpsl: tpsl, Trigger: trig, Price: childBound(api.SideBuy, trig)})
	}
	old := ids(t, bob, pos(api.TpslTakeProfit, "3600"))[0]
	id := ids(t, bob, pos(api.TpslTakeProfit, "3500"), pos(api.TpslStopLoss, "3300"))
	if o := findOrder(t, bob, old); o.State != api.StateCancelled {
		t.Errorf("replaced take-profit is %s, want cancelled", o.State)
	}
	if n := len(openOf(t, bob)); n != 2 {
		t.Fatalf("%d open orders, want the position's take-profit and stop", n)
	}
	place(t, bob, limit(2, api.SideBuy, "3400", "1")) // the position grows to 2
	place(t, alice, limit(2, api.SideBuy, "3505", "3"))
	if err := e.sim.SetIndexPrice("ETH-PERP", dec("3510")); err != nil {
		t.Fatal(err)
	}
	if ps := positions(t, bob); len(ps) != 0 {
		t.Errorf("position take-profit left %+v", ps)
	}
	if o := findOrder(t, bob, id[1]); o.State != api.StateCancelled {
		t.Errorf("position stop is %s after the position closed, want cancelled", o.State)
	}
}

// Malformed brackets are refused whole, before anything is placed, each with the rule it broke.
// Guards a take-profit accepted on the wrong side of the entry (the flipped comparison) and a
// bracket placed in part.
func TestBracketRefusals(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	good := func() []api.OrderWire { return ethBracket(t, api.SideBuy, "3400", "1", "3500", "3300") }
	mod := func(i int, f func(*api.OrderWire)) []api.OrderWire { os := good(); f(&os[i]); return os }
	cases := []struct {
		name string
		os   []api.OrderWire
		want string
	}{
		{"tp below a long's entry", ethBracket(t, api.SideBuy, "3400", "1", "3390", ""), "take-profit trigger 3390 of a long must lie above the entry price 3400"},
		{"sl above a long's entry", ethBracket(t, api.SideBuy, "3400", "1", "", "3410"), "stop-loss trigger 3410 of a long must lie below"},
		{"tp above a short's entry", ethBracket(t, api.SideSell, "3400", "1", "3410", ""), "of a short must lie below"},
		{"sl at the entry", ethBracket(t, api.SideBuy, "3400", "1", "", "3400"), "must lie below the entry price"},
		{"market entry, tp below the mark", ethBracket(t, api.SideBuy, "", "1", "3400", ""), "above the mark 3412.5 (a market entry's take-profit and stop-loss are judged against the mark"},
		{"child on the entry's side", mod(1, func(w *api.OrderWire) { w.Side = api.SideBuy }), "side opposite"},
		{"child not reduce-only", mod(2, func(w *api.OrderWire) { w.ReduceOnly = false }), "must be reduce-only"},
		{"child on another instrument", mod(1, func(w *api.OrderWire) { w.InstrumentID = 1 }), "entry's instrument 2"},
		{"child of another size", mod(1, func(w *api.OrderWire) { w.Size = "0.5" }), "entry's size 1"},
		{"two take-profits", mod(2, func(w *api.OrderWire) { w.Tpsl, w.TriggerPx = api.TpslTakeProfit, "3600" }), "two take-profit"},
		{"entry with a trigger", mod(0, func(w *api.OrderWire) { w.TriggerPx = "3400" }), "plain order"},
		{"entry alone", good()[:1], "has no take-profit or stop-loss"},
		{"orphan child", good()[1:], "follows no entry"},
		{"position stop without a position", []api.OrderWire{api.TpslOrder(2, api.SideSell, "1", api.GroupingPosition,
			api.TpslLeg{Tpsl: api.TpslStopLoss, Trigger: "3300", Price: "3000"})}, "needs a position"},
	}
	for _, c := range cases {
		if msg := placeErr(t, bob, c.os...); !strings.Contains(msg, c.want) {
			t.Errorf("%s: %q, want it to say %q", c.name, msg, c.want)
		}
	}
	if n := len(openOf(t, bob)); n != 0 {
		t.Errorf("refused brackets left %d open orders", n)
	}
	// A position stop above a long's mark would fire at once: refused.
	place(t, alice, limit(2, api.SideSell, "3400", "1"))
	place(t, bob, limit(2, api.SideBuy, "3400", "1"))
	sl := api.TpslOrder(2, api.SideSell, "1", api.GroupingPosition, api.TpslLeg{Tpsl: api.TpslStopLoss, Trigger: "3420", Price: "3000"})
	if msg := placeErr(t, bob, sl); !strings.Contains(msg, "below the mark") {
		t.Errorf("position stop above the mark: %q", msg)
	}
	// A bracket beside a plain order: the plain order is placed, the bad bracket refused.
	r := place(t, bob, append([]api.OrderWire{limit(2, api.SideBuy, "3000", "1")}, ethBracket(t, api.SideBuy, "3400", "1", "3390", "")...)...)
	sts, _ := r.OrderStatuses()
	if len(sts) != 3 || sts[0].Error != "" || sts[1].Error == "" || sts[2].Error == "" {
		t.Errorf("mixed request statuses %+v", sts)
	}
}

// An entry cancelled after part of it filled leaves its legs on guard over what filled (they die
// only with an entry that filled nothing). Guards legs cancelled with an entry that did fill,
// which would leave a position unprotected.
func TestBracketEntryCancelledAfterPartialFill(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(2, api.SideSell, "3400", "1"))
	id := ids(t, bob, ethBracket(t, api.SideBuy, "3400", "3", "3500", "3300")...)
	if _, err := bob.CancelByOid(ctx(), []api.CancelOid{{Oid: id[0], InstrumentID: 2}}); err != nil {
		t.Fatal(err)
	}
	for _, c := range id[1:] {
		o := findOrder(t, bob, c)
		if o.State != api.StateOpen {
			t.Fatalf("leg %d is %s after its partly filled entry was cancelled, want open", c, o.State)
		}
		eqDec(t, "leg size", o.Size, "1")
	}
}

// reasonOf is the reason the order history gives for order id of the client's account.
func reasonOf(t *testing.T, e *env, c *api.Client, id api.OrderID) string {
	t.Helper()
	code, out := e.post(t, "/info", []byte(`{"method":"order_history","params":{"user":"`+c.Address()+`"}}`))
	if code != 200 {
		t.Fatalf("order_history: %d %v", code, out)
	}
	var hist struct {
		Data []struct {
			Oid    api.OrderID `json:"order_id"`
			Reason string      `json:"reason"`
		} `json:"data"`
	}
	b, _ := json.Marshal(out)
	if err := json.Unmarshal(b, &hist); err != nil {
		t.Fatal(err)
	}
	for _, h := range hist.Data {
		if h.Oid == id {
			return h.Reason
		}
	}
	t.Fatalf("order %d not in history %s", id, b)
	return ""
}

// A bracket whose entry only reduces an opposite position (bob short 1.5, the bracket buys 0.5):
// the legs close a long, there is none, so the exchange cancels them the moment the entry fills,
// in the same request, says so in the answer (their state) and says why in the order history.
// Guards the "guarded" branch dropped (the reason would claim a closed position that never
// existed) and the answer's leg states read before the request's brackets were tidied ("open").
func TestBracketEntryThatReducesLosesItsLegsAndSaysWhy(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(2, api.SideBuy, "3400", "1.5"))
	place(t, bob, limit(2, api.SideSell, "3400", "1.5")) // bob short 1.5
	place(t, alice, limit(2, api.SideSell, "3410", "0.5"))
	r := place(t, bob, ethBracket(t, api.SideBuy, "", "0.5", "3600", "3300")...)
	sts, err := r.OrderStatuses()
	if err != nil || len(sts) != 3 {
		t.Fatalf("statuses %+v (%v)", sts, err)
	}
	if !sts[0].TotalSize.Decimal.Equal(dec("0.5")) {
		t.Fatalf("entry %+v, want filled 0.5", sts[0])
	}
	for _, s := range sts[1:] {
		if s.State != api.StateCancelled {
			t.Errorf("leg %d answered %q, want cancelled", s.Oid, s.State)
		}
		if why := reasonOf(t, e, bob, s.Oid); !strings.Contains(why, "against the account's opposite position") {
			t.Errorf("leg %d reason %q", s.Oid, why)
		}
	}
	if ps := positions(t, bob); len(ps) != 1 || !ps[0].Size.Equal(dec("-1")) {
		t.Fatalf("positions %+v, want short 1", ps)
	}
}
