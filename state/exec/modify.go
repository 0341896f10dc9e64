package exec

import (
	"context"
	"fmt"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/risk"
)

// Modify moves order old to the checked replacement repl. This exchange has no amend: the old
// order is cancelled, and the replacement is placed only once the old one is known to be gone
// with nothing filled since it was read: the cancel answered, or its order's record found
// cancelled. A lost or unclear cancel is looked up before anything is placed; an old order that
// filled (even in part) meanwhile, is still open, or whose fate is unknown stops the move with
// nothing placed. So there are never two live orders. Both steps are journaled, the cancel with
// the replacement's client id as its parent.
func (e *Executor) Modify(ctx context.Context, old api.OrderRecord, repl Checked, ask Ask) (ModifyResult, error) {
	var out ModifyResult
	if why := NotMovable(old); why != "" {
		out.Stopped = "order not moved: " + why
		return out, nil
	}
	if !repl.OK() || !SameLimits(repl.Guard(), e.guard) {
		return out, fmt.Errorf("exec: the replacement was not checked by Executor.Check")
	}
	if repl.Order().NeedsTypedConfirm && !ask.Confirmed {
		r := Result{Kind: Refused, Cloid: repl.Order().Wire.Cloid, Reason: "needs confirmation, nothing sent: " + joinWarnings(repl.Order().Warnings)}
		out.Place = &r
		return out, nil
	}
	// The replacement passes the limits before the old order is cancelled: a move the limits
	// refuse leaves the old order resting.
	if why, err := e.riskGate(ctx, []risk.Order{riskOrder(repl.Order())}); why != "" || err != nil {
		r := Result{Kind: Refused, Cloid: repl.Order().Wire.Cloid, Reason: why}
		out.Place, out.Stopped = &r, why
		return out, err
	}
	cancelAsk := Ask{Who: ask.Who, What: fmt.Sprintf("cancel order %d to move it (%s)", old.OrderID, ask.What), Parent: repl.Order().Wire.Cloid}
	cr, err := e.Cancel(ctx, Cancel{InstrumentID: old.InstrumentID, Oid: old.OrderID}, cancelAsk)
	out.Cancel = cr
	if err != nil {
		return out, err
	}
	if out.Stopped, out.OldFilled = e.oldGone(ctx, old, cr); out.Stopped != "" {
		return out, nil
	}
	pr, err := e.placeChecked(ctx, repl.Order(), ask, Result{Cloid: repl.Order().Wire.Cloid, Outcome: state.Outcome{Kind: state.OutcomeSent, Requested: repl.Order().Size}})
	out.Place = &pr
	return out, err
}

// oldGone says why the replacement must not be placed after the cancel cr of old ("" when the old
// order is gone with nothing filled since it was read), and whether it filled.
func (e *Executor) oldGone(ctx context.Context, old api.OrderRecord, cr Result) (string, bool) {
	if cr.Kind == Unknown {
		return fmt.Sprintf("the cancel of order %d is unclear (%s); nothing placed: check open orders", old.OrderID, cr.Reason), false
	}
	rec := cr.Found
	if rec == nil {
		var err error
		if rec, err = e.findOrder(ctx, old.OrderID, ""); err != nil && cr.Kind != Cancelled {
			return fmt.Sprintf("the cancel of order %d failed (%s) and the order could not be looked up (%v); nothing placed: check open orders", old.OrderID, cr.Reason, err), false
		}
	}
	if rec != nil {
		filledThen, filledNow := old.Size.Sub(old.Unfilled), rec.Size.Sub(rec.Unfilled)
		switch {
		case rec.State == api.StateFilled || rec.State != api.StateOpen && rec.State != api.StateCancelled:
			return fmt.Sprintf("order %d filled before it could be moved (%s): nothing placed", old.OrderID, rec.State), true
		case filledNow.GreaterThan(filledThen):
			return fmt.Sprintf("order %d filled %s more before it was cancelled: nothing placed (check the position, then place what is still wanted)", old.OrderID, filledNow.Sub(filledThen)), true
		case rec.State == api.StateOpen:
			return fmt.Sprintf("the cancel failed (%s); order %d is still open; nothing placed", cr.Reason, old.OrderID), false
		}
		return "", false
	}
	if cr.Kind != Cancelled {
		return fmt.Sprintf("the cancel of order %d failed (%s) and the order is not at the exchange; nothing placed", old.OrderID, cr.Reason), false
	}
	return "", false
}
