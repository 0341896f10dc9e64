package exec

import (
	"context"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// settleFrom settles an answered order from recs as settle does from the exchange's records:
// the fills' total, average and fees, and whether what did not fill rests. ok is false when recs
// do not say, or say less filled than the answer did (the reads decide then).
func settleFrom(ctx context.Context, recs Records, res Result) (Result, bool) {
	rec, fills, ok := recs.Settled(ctx, res.Cloid, res.Outcome.Oid)
	if !ok || rec.OrderID != res.Outcome.Oid || rec.Cloid != res.Cloid {
		return res, false
	}
	out := res.Outcome
	var t state.FillTotal
	if ts := state.SumFills(fills); len(ts) > 0 {
		t = ts[0]
	}
	if t.Size.LessThan(out.Filled) || !t.Size.Equal(rec.Size.Sub(rec.Unfilled)) {
		return res, false
	}
	if t.Size.IsPositive() {
		res.Fee = api.OptDecimal{Decimal: t.Fee, Valid: true}
		out.Kind, out.Filled, out.AvgPrice = state.OutcomeFilled, t.Size, api.OptDecimal{Decimal: t.AvgPrice, Valid: true}
	}
	out.Resting = rec.State == api.StateOpen
	if rec.State == api.StateCancelled && out.Kind == state.OutcomePlaced {
		out.Kind = state.OutcomeUnfilled
	}
	res.Outcome, res.Kind = out, kindOf(out)
	return res, true
}
