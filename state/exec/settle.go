package exec

import (
	"context"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// settle completes an answered order's outcome from the exchange's own records, within
// SettleWait: its fills (the size, average and fees paid, when the answer did not carry them) and,
// by its client id, whether what did not fill rests. A lookup that fails leaves the outcome as the
// answer read. A placement whose caller gave its stream's records (Ask.Records) is settled from
// them when they say (settleFrom), else read.
func (e *Executor) settle(ctx context.Context, res Result) Result {
	if res.Outcome.Oid == 0 {
		res.Kind = kindOf(res.Outcome)
		return res
	}
	ctx, cancel := context.WithTimeout(ctx, e.cfg.SettleWait)
	defer cancel()
	if res.Hold.Records != nil {
		if r, ok := settleFrom(ctx, res.Hold.Records, res); ok {
			return r
		}
	}
	res = e.fills(ctx, res)
	res.Outcome = e.restingOf(ctx, res.Cloid, res.Outcome)
	res.Kind = kindOf(res.Outcome)
	return res
}

// fills asks for the order's fills until they add up to what the answer says filled, or say
// nothing filled of an order that rests or was cancelled whole.
func (e *Executor) fills(ctx context.Context, res Result) Result {
	out := res.Outcome
	for {
		t, ok := e.fillsOf(ctx, out.Oid)
		if ok && t.Size.IsPositive() && t.Size.GreaterThanOrEqual(out.Filled) {
			// The fills are the exchange's own record: their total and average, not an answer's
			// rounded figures.
			res.Fee = api.OptDecimal{Decimal: t.Fee, Valid: true}
			out.Kind, out.Filled, out.AvgPrice = state.OutcomeFilled, t.Size, api.OptDecimal{Decimal: t.AvgPrice, Valid: true}
			res.Outcome = out
			return res
		}
		if ok && (out.Kind == state.OutcomeUnfilled || out.Kind == state.OutcomePlaced && out.Resting) {
			return res // nothing filled, and the fills say so
		}
		if ok && out.Kind == state.OutcomePlaced && e.untouched(ctx, res.Cloid, &out) {
			res.Outcome = out
			return res // a bare id: the order record says nothing of it filled
		}
		select {
		case <-ctx.Done():
			return res
		case <-time.After(e.cfg.SettleEvery):
		}
	}
}

// fillsOf adds up the order's fills among the account's latest; ok is false when the lookup failed.
func (e *Executor) fillsOf(ctx context.Context, oid api.OrderID) (state.FillTotal, bool) {
	fs, err := api.OrderFills(ctx, e.cfg.Read, e.cfg.Account, oid)
	if err != nil {
		return state.FillTotal{}, false
	}
	if t := state.SumFills(fs); len(t) > 0 {
		return t[0], true
	}
	return state.FillTotal{}, true
}

// restingOf asks, by client id, whether the unfilled part of an order whose answer did not say
// (the spec's bare {oid}) rests on the book: it does when the order is open.
func (e *Executor) restingOf(ctx context.Context, cloid string, out state.Outcome) state.Outcome {
	if out.Oid == 0 || out.Resting || !out.Remaining().IsPositive() && out.Kind == state.OutcomeFilled {
		return out
	}
	found, err := api.FindCloid(ctx, e.cfg.Read, e.cfg.Account, cloid)
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
func (e *Executor) untouched(ctx context.Context, cloid string, out *state.Outcome) bool {
	found, err := api.FindCloid(ctx, e.cfg.Read, e.cfg.Account, cloid)
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
