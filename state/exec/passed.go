package exec

import (
	"errors"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

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
// its legs take the entry's child client ids (journal.ChildCloid), as CheckBracket gives them.
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
