package headless

import (
	"context"
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
)

// settleWait bounds how long `order` waits for an order's fills to show after the answer.
const settleWait = 3 * time.Second

// settleEvery is how often the fills are asked for within settleWait.
const settleEvery = 150 * time.Millisecond

// settle looks the order's fills up by its id, within settleWait: the fees paid, and the filled
// size and average when the answer did not carry them. It stops as soon as the fills add up to
// what the answer says filled; a lookup that fails leaves the outcome as the answer read.
func (r *runner) settle(ctx context.Context, res *orderResult, co state.CheckedOrder, out state.Outcome) state.Outcome {
	if out.Oid == 0 {
		return out
	}
	ctx, cancel := context.WithTimeout(ctx, settleWait)
	defer cancel()
	for {
		t, ok := r.fillsOf(ctx, out.Oid)
		if ok && t.Size.IsPositive() && t.Size.GreaterThanOrEqual(out.Filled) {
			fee := t.Fee
			res.Fee = &fee
			// The fills are the exchange's own record: their total and average, not an answer's
			// rounded figures (the simulator's avgPx is rounded).
			out.Kind, out.Filled, out.AvgPrice = state.OutcomeFilled, t.Size, api.OptDecimal{Decimal: t.AvgPrice, Valid: true}
			return out
		}
		if ok && (out.Kind == state.OutcomeUnfilled || out.Kind == state.OutcomePlaced && out.Resting) {
			return out // nothing filled, and the fills say so
		}
		if ok && out.Kind == state.OutcomePlaced && r.untouched(ctx, co, &out) {
			return out // a bare id: the order record says nothing of it filled
		}
		select {
		case <-ctx.Done():
			return out
		case <-time.After(settleEvery):
		}
	}
}

// fillsOf adds up the order's fills among the account's latest; ok is false when the lookup failed.
func (r *runner) fillsOf(ctx context.Context, oid api.OrderID) (state.FillTotal, bool) {
	fs, err := api.OrderFills(ctx, r.client, r.client.Address(), oid)
	if err != nil {
		return state.FillTotal{}, false
	}
	if t := state.SumFills(fs); len(t) > 0 {
		return t[0], true
	}
	return state.FillTotal{}, true
}

// lookUpSent asks the exchange, by cloid, what became of an order whose answer could not be read:
// its id and state when found; the outcome stays "sent" (unknown) when not.
func (r *runner) lookUpSent(ctx context.Context, co state.CheckedOrder, out state.Outcome) state.Outcome {
	found, err := api.FindCloid(ctx, r.client, r.client.Address(), co.Wire.Cloid)
	if err != nil || found == nil {
		return out // still unknown: runOrder exits 4 saying so
	}
	out.Oid = found.OrderID
	filled := found.Size.Sub(found.Unfilled)
	switch {
	case found.State == "open":
		out.Kind, out.Resting = state.OutcomePlaced, true
	case found.State == "cancelled" && !filled.IsPositive():
		out.Kind = state.OutcomeUnfilled
	default:
		out.Kind = state.OutcomeFilled
	}
	if found.State == "open" && filled.IsPositive() {
		out.Kind = state.OutcomeFilled
	}
	fmt.Fprintf(r.env.Stderr, "the answer could not be read; cloid %s is order %d, %s\n", text.Clean(co.Wire.Cloid), found.OrderID, text.Clean(found.State))
	return out
}

// restingOf asks, by cloid, whether the unfilled part of an order whose answer did not say (the
// spec's bare {oid}) rests on the book: it does when the order is open.
func (r *runner) restingOf(ctx context.Context, co state.CheckedOrder, out state.Outcome) state.Outcome {
	if out.Oid == 0 || out.Resting || !out.Remaining().IsPositive() && out.Kind == state.OutcomeFilled {
		return out
	}
	found, err := api.FindCloid(ctx, r.client, r.client.Address(), co.Wire.Cloid)
	if err != nil || found == nil {
		return out
	}
	out.Resting = found.State == "open"
	if found.State == "cancelled" && out.Kind == state.OutcomePlaced {
		out.Kind = state.OutcomeUnfilled
	}
	return out
}

// untouched reports, for an order the answer gave only an id, whether its record says nothing of
// it filled: it rests whole (then out says resting) or was cancelled whole (unfilled).
func (r *runner) untouched(ctx context.Context, co state.CheckedOrder, out *state.Outcome) bool {
	found, err := api.FindCloid(ctx, r.client, r.client.Address(), co.Wire.Cloid)
	if err != nil || found == nil || !found.Unfilled.Equal(found.Size) {
		return false
	}
	switch found.State {
	case "open":
		out.Resting = true
		return true
	case "cancelled":
		out.Kind = state.OutcomeUnfilled
		return true
	}
	return false
}
