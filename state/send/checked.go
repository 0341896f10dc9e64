package send

import (
	"errors"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/record"
)

// Checked is an order that passed the gate: only Check makes one, so nothing reaches Place
// without passing it.
type Checked struct {
	co    state.CheckedOrder
	ok    bool
	guard state.Guard
}

// Order is the checked order: its wire form, preview and the guard's findings.
func (c Checked) Order() state.CheckedOrder { return c.co }

// OK reports whether the order passed the gate (a Checked with field errors did not).
func (c Checked) OK() bool { return c.ok }

// Guard is the guard the order was checked against: the executor takes it only with its own
// limits (SameLimits).
func (c Checked) Guard() state.Guard { return c.guard }

// Check is the risk gate: the intent checked against the store's market and account data and
// the guard g. Field errors refuse it; nothing is journaled or sent. A caller that checks before
// it has an executor (a dry run) calls it; Place takes the result only from an executor with the
// same guard.
func Check(st *state.Store, in state.OrderIntent, g state.Guard) (Checked, []state.FieldError) {
	co, errs := st.CheckOrder(in, g)
	if len(errs) > 0 {
		return Checked{co: co, guard: g}, errs
	}
	return Checked{co: co, ok: true, guard: g}, nil
}

// SameLimits reports whether two guards set the same limits. The confirmation policy is left
// out: which orders a front end reviews before Enter is its own (the console's c key may change
// it); the typed confirmation the limits ask for is what the executor enforces. A front end that
// checks orders with its own guard hands them to an executor only when it does.
func SameLimits(a, b state.Guard) bool {
	return a.MaxPriceDistance.Equal(b.MaxPriceDistance) && a.MaxNotional.Equal(b.MaxNotional) &&
		a.MaxMarketNotional.Equal(b.MaxMarketNotional)
}

// CheckedBracket is a bracket that passed the gate: only CheckBracket makes one.
type CheckedBracket struct {
	cb    state.CheckedBracket
	ok    bool
	guard state.Guard
}

// Bracket is the checked bracket: its entry, legs, reward and risk, with the legs' client ids
// derived from the entry's (record.ChildCloid).
func (c CheckedBracket) Bracket() state.CheckedBracket { return c.cb }

// OK reports whether the bracket passed the gate.
func (c CheckedBracket) OK() bool { return c.ok }

// Guard is the guard the bracket was checked against.
func (c CheckedBracket) Guard() state.Guard { return c.guard }

// CheckBracket is the risk gate for an entry with its take-profit and stop-loss
// (state.Store.CheckBracket with guard g). The legs take the client ids "<entry>-1" and
// "<entry>-2" (record.ChildCloid), so a lookup after a lost answer, or a restarted process,
// finds every order of the intent from the journal.
func CheckBracket(st *state.Store, in state.BracketIntent, g state.Guard) (CheckedBracket, []state.FieldError) {
	cb, errs := st.CheckBracket(in, g)
	if len(errs) > 0 {
		return CheckedBracket{cb: cb, guard: g}, errs
	}
	c, err := childCloids(cb, g)
	if err != nil {
		return c, []state.FieldError{{Field: state.FieldOrder, Msg: err.Error()}}
	}
	return c, nil
}

// childCloids gives a checked bracket's legs the entry's child client ids.
func childCloids(cb state.CheckedBracket, g state.Guard) (CheckedBracket, error) {
	cb.Wires = append([]api.OrderWire(nil), cb.Wires...)
	parent := cb.Wires[0].Cloid
	for i := 1; i < len(cb.Wires); i++ {
		id, err := record.ChildCloid(parent, i)
		if err != nil {
			return CheckedBracket{cb: cb, guard: g}, err
		}
		cb.Wires[i].Cloid = id
	}
	cb.Entry.Wire = cb.Wires[0]
	return CheckedBracket{cb: cb, ok: true, guard: g}, nil
}

// The console checks an order where it is typed (the order form, the command line's plan, the
// positions pane's close): with state.Store.CheckOrder and the console's guard, the very check
// Check runs, on the store only the console's own loop may read. Passed hands such an order to
// the executor without checking it a second time on another goroutine; Place still refuses one
// checked against another guard's limits, and one that needs a typed confirmation not given.

// Passed is the gate's pass for co, which state.Store.CheckOrder passed with guard g. An order
// without an instrument or a client id was not checked: it is refused.
func Passed(co state.CheckedOrder, g state.Guard) (Checked, error) {
	if co.Instrument.Name == "" || co.Wire.Cloid == "" || !co.Size.IsPositive() {
		return Checked{}, errors.New("exec: the order was not checked (no instrument, client id or size)")
	}
	return Checked{co: co, ok: true, guard: g}, nil
}

// PassedBracket is the gate's pass for cb, which state.Store.CheckBracket passed with guard g:
// its legs take the entry's child client ids (record.ChildCloid), as CheckBracket gives them.
func PassedBracket(cb state.CheckedBracket, g state.Guard) (CheckedBracket, error) {
	if len(cb.Wires) == 0 {
		return CheckedBracket{}, errors.New("exec: the bracket has no orders")
	}
	if _, err := Passed(cb.Entry, g); err != nil {
		return CheckedBracket{}, err
	}
	return childCloids(cb, g)
}

// PassedPositionTpsl is the gate's pass for a position's take-profit and stop-loss, which
// state.Store.CheckPositionTpsl passed: sent as a bracket without an entry (PlaceBracket), the
// first leg's client id naming the intent, the second its child. A guard's finding (a stop beyond
// the liquidation price) asks for a typed confirmation, as an order's does.
func PassedPositionTpsl(pt state.PositionTpsl, g state.Guard) (CheckedBracket, error) {
	if len(pt.Wires) == 0 || pt.Wires[0].Cloid == "" || pt.Instrument.Name == "" {
		return CheckedBracket{}, errors.New("exec: the take-profit and stop-loss were not checked")
	}
	size := pt.Position.Size.Abs()
	first := state.CheckedOrder{Wire: pt.Wires[0], Instrument: pt.Instrument, Size: size, Warnings: pt.Warnings,
		NeedsTypedConfirm: len(pt.Warnings) > 0, NeedsConfirm: true}
	return childCloids(state.CheckedBracket{Entry: first, Wires: append([]api.OrderWire(nil), pt.Wires...), Size: size, NeedsConfirm: true}, g)
}

// NotMovable says why an order cannot be moved by cancel-and-replace, or "". The replacement is a
// plain limit order: a trigger would lose its trigger, and a bracket's entry, cancelled, takes its
// take-profit and stop-loss with it.
func NotMovable(old api.OrderRecord) string {
	switch {
	case !old.RestingLimit():
		return "only a resting limit order can be moved"
	case old.Grouping == api.GroupingNormal:
		return "it is a bracket's entry, and cancelling it cancels its take-profit and stop-loss too; cancel it and place a new bracket"
	}
	return ""
}

// MoveIntent is the replacement of old at price and size ("" keeps its limit price, its unfilled
// size), with client id cloid: a plain limit order on the same side, time in force and flags.
func MoveIntent(old api.OrderRecord, price, size, cloid string) state.OrderIntent {
	if price == "" {
		price = old.LimitPrice.String()
	}
	if size == "" {
		size = old.Unfilled.String()
	}
	tif := old.Tif
	if tif == "" {
		tif = api.TifGTC
	}
	return state.OrderIntent{Instrument: old.Instrument, Side: old.Side, Type: state.Limit, Price: price, Size: size, Tif: tif,
		ReduceOnly: old.ReduceOnly, PostOnly: old.PostOnly, Cloid: cloid}
}

// FlattenChildren is what became of each order of a flatten (res, sent from plan's closes in
// their order): the console's and the headless result lines, one a child, and their sum
// (state.FlattenSummary).
func FlattenChildren(plan state.FlattenPlan, res BatchResult) []state.FlattenChild {
	out := make([]state.FlattenChild, 0, len(res.Orders))
	for i, o := range res.Orders {
		c := state.FlattenChild{Status: o.Kind.String(), Reason: text.Clean(o.Reason), Filled: o.Kind == Filled,
			Refused: o.Kind == Rejected || o.Kind == NotPlaced || o.Kind == Refused}
		if i < len(plan.Closes) {
			c.Instrument, c.PnL, c.Fee = plan.Closes[i].Position.Instrument, plan.Closes[i].PnL, plan.Closes[i].Fee
		}
		out = append(out, c)
	}
	return out
}
