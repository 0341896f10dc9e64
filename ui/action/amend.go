package action

import (
	"context"
	"fmt"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/send"
	"github.com/tradedesk/tradedesk/ui/common"
)

// An amend moves a resting order through the executor's Modify: it cancels the order, and only
// once the old order is known to be gone (cancelled, not filled) places the replacement with a new
// client id. The two steps are one action (at most one confirmation, one line in the status bar,
// the order lane held throughout), so there are never two live orders by accident.

// NewAmend builds the cancel-and-replace of old by the checked replacement, confirmed when the
// guard's policy asks for the replacement (repl.NeedsConfirm).
func NewAmend(old api.OrderRecord, repl state.CheckedOrder, st *common.Styles) *Action {
	w, in := repl.Wire, repl.Instrument
	oldPx, oldSz := in.PriceText(old.LimitPrice), in.SizeText(old.Unfilled)
	newPx, newSz := in.PriceText(repl.Price), in.SizeText(repl.Size)
	what := fmt.Sprintf("move %s %s %s from %s to %s (order %d)", state.SideText(old.Side), oldSz, old.Instrument, oldPx, newPx, old.OrderID)
	if !repl.Size.Equal(old.Unfilled) {
		what = fmt.Sprintf("change %s %s %s @ %s to %s @ %s (order %d)", state.SideText(old.Side), oldSz, old.Instrument, oldPx, newSz, newPx, old.OrderID)
	}
	lines := []string{
		st.Bold.On("MOVE ORDER " + fmt.Sprint(old.OrderID)),
		"",
		"Instrument   " + old.Instrument,
		"Side         " + common.SidePaint(st, old.Side).On(state.SideText(old.Side)),
		"Price        " + oldPx + " → " + newPx,
		"Size         " + oldSz + " → " + newSz,
	}
	if rows := repl.PreviewRows(); len(rows) > 0 {
		lines = append(lines, "")
		for _, r := range rows {
			lines = append(lines, common.Pad(r.Label, 13)+r.Value)
		}
	}
	lines = append(lines, "", "The order is cancelled first; the new one (client id "+w.Cloid+") is placed only once the old one is gone, never both.")
	if s := CrossesText(repl); s != "" {
		lines = append(lines, st.Warn.On("! "+s))
	}
	for _, warn := range repl.Warnings {
		lines = append(lines, st.Warn.On("! "+warn))
	}
	a := &Action{Kind: KindAmend, Title: "Move order", Lines: lines, What: what, Confirm: repl.NeedsConfirm, Order: repl, Amend: old,
		Cancel: api.CancelOid{Oid: old.OrderID, InstrumentID: old.InstrumentID}, Lane: LaneOrder, Refresh: tradeKinds,
		Run: func(ctx context.Context, e Executor, ask send.Ask) (Outcome, error) {
			checked, err := send.Passed(repl, e.Guard())
			if err != nil {
				return Outcome{}, err
			}
			mr, err := e.Modify(ctx, old, checked, ask)
			out := Outcome{Result: mr.Cancel, Stopped: mr.Stopped, OldFilled: mr.OldFilled, Cancelled: mr.Cancel.Kind == send.Cancelled}
			if mr.Place != nil {
				out.Result = *mr.Place
			}
			return out, err
		},
	}
	if repl.NeedsTypedConfirm {
		a.Typed = "yes"
	}
	return a
}

// AmendOf moves old to price and size (size "" keeps its unfilled size) through the one order
// check, with a new client id: the action to request, or the problems in words.
func AmendOf(store *state.Store, g state.Guard, st *common.Styles, old api.OrderRecord, price, size string) (*Action, string) {
	if why := send.NotMovable(old); why != "" {
		return nil, "order not moved: " + why
	}
	recheck := amendRecheck(store, g, st, old.OrderID, price, size)
	in := send.MoveIntent(old, price, size, state.NewCloid())
	in.Price = price // "": the check says the price is missing, as it always did
	checked, errs := store.CheckOrder(in, g)
	if len(errs) > 0 {
		return nil, "order not moved: " + common.JoinFieldErrors(errs)
	}
	if checked.Wire.Price == old.LimitPrice.String() && checked.Size.Equal(old.Unfilled) {
		return nil, "order not moved: the price and size are those it has"
	}
	a := NewAmend(old, checked, st)
	a.Recheck = recheck
	return a, ""
}

// amendRecheck is the Recheck of a move of order oid to price and size ("": its unfilled size):
// the order as the store holds it now (partly filled since, or gone) moved again.
func amendRecheck(store *state.Store, g state.Guard, st *common.Styles, oid api.OrderID, price, size string) func() (*Action, string) {
	return func() (*Action, string) {
		for _, o := range store.Orders() {
			if o.OrderID == oid {
				return AmendOf(store, g, st, o, price, size)
			}
		}
		return nil, fmt.Sprintf("order not moved: order %d is no longer open", oid)
	}
}
