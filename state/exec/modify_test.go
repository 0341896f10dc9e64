package exec

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestMoveIntentKeepsTheOrder: a move keeps the order's side, unfilled size, time in force,
// reduce-only and post-only (an order without a time in force is GTC), and its limit price when
// none is given. Guards each kept field (mutants amend/keeps-*).
func TestMoveIntentKeepsTheOrder(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	old := api.OrderRecord{OrderID: 7, Instrument: "BTC-PERP", Side: api.SideSell, LimitPrice: dec("50000"), Size: dec("1"),
		Unfilled: dec("0.4"), Tif: api.TifIOC, ReduceOnly: true, PostOnly: true}
	in := MoveIntent(old, "", "", "c-1")
	if in.Price != "50000" || in.Size != "0.4" || in.Tif != api.TifIOC || !in.ReduceOnly || !in.PostOnly || in.Side != api.SideSell ||
		in.Type != state.Limit || in.Cloid != "c-1" {
		t.Fatalf("moved intent %+v", in)
	}
	old.Tif, old.ReduceOnly, old.PostOnly = "", false, false
	if in = MoveIntent(old, "49000", "0.1", "c-2"); in.Tif != api.TifGTC || in.ReduceOnly || in.PostOnly || in.Price != "49000" || in.Size != "0.1" {
		t.Fatalf("moved intent %+v", in)
	}
}

// TestNotMovable: only a resting limit order moves; a market or trigger order does not, nor a
// bracket's entry (its legs go with it). Guards both checks (mutants amend/resting-limit-only,
// amend/bracket-entry-refused).
func TestNotMovable(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	limit := api.OrderRecord{LimitPrice: dec("1"), Size: dec("1"), Unfilled: dec("1")}
	if why := NotMovable(limit); why != "" {
		t.Fatalf("a resting limit: %q", why)
	}
	trigger := limit
	trigger.TriggerPx = api.OptDecimal{Decimal: dec("2"), Valid: true}
	entry := limit
	entry.Grouping = api.GroupingNormal
	for name, o := range map[string]api.OrderRecord{"market": {IsMarket: true}, "trigger": trigger, "bracket entry": entry} {
		if why := NotMovable(o); why == "" {
			t.Errorf("a %s moves", name)
		}
	}
}

// TestOldGoneDecidesThePlacing: after the cancel of the order to move, the replacement is placed
// only when the old order is known gone with nothing more filled: an unclear cancel, an order
// found filled, found cancelled with more filled, found still open, or not found after a failed
// cancel each stop the move; found cancelled as it was lets it go on. Guards each branch
// (mutants amend/unclear-cancel-stops, amend/filled-state-stops, amend/filled-more-stops,
// amend/still-open-stops, amend/gone-unknown-stops).
func TestOldGoneDecidesThePlacing(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	e := r.executor(nil)
	old := api.OrderRecord{OrderID: 999999, InstrumentID: 1, LimitPrice: dec("1"), Size: dec("1"), Unfilled: dec("0.6"), State: api.StateOpen}
	found := func(state string, unfilled string) *api.OrderRecord {
		rec := old
		rec.State, rec.Unfilled = state, dec(unfilled)
		return &rec
	}
	for _, c := range []struct {
		name   string
		cr     Result
		stop   string
		filled bool
	}{
		{"unclear", Result{Kind: Unknown, Reason: "lost"}, "unclear", false},
		{"filled", Result{Kind: CancelFailed, Found: found(api.StateFilled, "0")}, "filled before it could be moved", true},
		{"filled more", Result{Kind: Cancelled, Found: found(api.StateCancelled, "0.5")}, "filled 0.1 more", true},
		{"still open", Result{Kind: CancelFailed, Reason: "busy", Found: found(api.StateOpen, "0.6")}, "still open", false},
		{"not found", Result{Kind: CancelFailed, Reason: "no such order"}, "not at the exchange", false},
		{"gone", Result{Kind: Cancelled, Found: found(api.StateCancelled, "0.6")}, "", false},
	} {
		stop, filled := e.oldGone(bg, old, c.cr)
		if (c.stop == "") != (stop == "") || !strings.Contains(stop, c.stop) || filled != c.filled {
			t.Errorf("%s: stop %q filled %v, want %q %v", c.name, stop, filled, c.stop, c.filled)
		}
	}
}

// TestModifyMovesARestingOrderOnce: against the simulator, a resting bid moved to another price
// is cancelled and its replacement placed: one order open, at the new price; a replacement that
// needs a typed confirmation not given cancels nothing. Guards the typed-confirmation gate
// (mutant amend/typed-confirm) and the move's two steps.
func TestModifyMovesARestingOrderOnce(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	e := r.executor(nil)
	res, err := e.Place(bg, r.bid(e, "move-1", api.TifGTC), Ask{Who: journal.WhoHeadless})
	if err != nil || res.Kind != Placed {
		t.Fatalf("place: %+v %v", res, err)
	}
	rec, err := e.findOrder(bg, res.Outcome.Oid, "")
	if err != nil || rec == nil {
		t.Fatalf("the placed order: %+v %v", rec, err)
	}
	in, _ := r.st.Instrument("BTC-PERP")
	to := rec.LimitPrice.Sub(in.TickSize.Mul(decimal.NewFromInt(10)))
	repl, errs := e.Check(r.st, MoveIntent(*rec, to.String(), "", "move-2"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	co := repl.Order()
	co.NeedsTypedConfirm = true
	unconfirmed, err := Passed(co, repl.Guard())
	co.NeedsTypedConfirm = false
	confirmed, err2 := Passed(co, repl.Guard())
	if err != nil || err2 != nil {
		t.Fatal(err, err2)
	}
	out, err := e.Modify(bg, *rec, unconfirmed, Ask{Who: journal.WhoHeadless, What: "move"})
	if err != nil || out.Place == nil || out.Place.Kind != Refused || out.Cancel.Kind != Unknown || out.Cancel.Sent {
		t.Fatalf("unconfirmed: %+v %v", out, err)
	}
	out, err = e.Modify(bg, *rec, confirmed, Ask{Who: journal.WhoHeadless, What: "move"})
	if err != nil || out.Stopped != "" || out.Cancel.Kind != Cancelled || out.Place == nil || out.Place.Kind != Placed {
		t.Fatalf("move: %+v %v", out, err)
	}
	moved, err := e.findOrder(bg, out.Place.Outcome.Oid, "")
	if err != nil || moved == nil || moved.State != api.StateOpen || !moved.LimitPrice.Equal(to) {
		t.Fatalf("the replacement: %+v %v", moved, err)
	}
	if n := r.atExchange(); n["move-1"] != 1 || n["move-2"] != 1 {
		t.Fatalf("at the exchange: %v", n)
	}
}
