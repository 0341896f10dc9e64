package exec

import (
	"context"
	"errors"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// errNotYet is a lookup that did not find the order before its request expired.
var errNotYet = errors.New("not found yet, and its request has not expired")

// lookupsWithoutExpiry is how many lookups an action without expiresAfter gets.
const lookupsWithoutExpiry = 4

// poll calls look until it settles the question, pausing LookupWait (doubled up to
// MaxLookupWait) between tries. look is told whether it began after expires (plus Skew) had
// passed: from then on the exchange must not act on the request, so what look finds is final.
// poll gives up, returning look's last error, after lookupsWithoutExpiry tries once LookupGrace
// has passed after that (at once when expires is 0), or when ctx ends.
func (e *Executor) poll(ctx context.Context, expires uint64, look func(ctx context.Context, expired bool) (bool, error)) error {
	wait := e.cfg.LookupWait
	for try := 1; ; try++ {
		start := e.cfg.Now()
		expired := expires > 0 && start.Add(-e.cfg.Skew).UnixMilli() > int64(expires)
		done, err := look(ctx, expired)
		if done {
			return nil
		}
		if err == nil {
			err = errNotYet
		}
		// A failing lookup gets lookupsWithoutExpiry tries even when the request expired long ago
		// (a process restarted hours later): one fault must not leave the outcome unknown.
		if try >= lookupsWithoutExpiry && (expires == 0 || start.Add(-e.cfg.Skew-e.cfg.LookupGrace).UnixMilli() > int64(expires)) {
			return err
		}
		pause := wait
		if untilExpiry := time.UnixMilli(int64(expires)).Add(e.cfg.Skew + 10*time.Millisecond).Sub(e.cfg.Now()); expires > 0 && !expired && untilExpiry > 0 {
			pause = min(pause, untilExpiry) // look again as soon as the answer is final
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		wait = min(wait*2, e.cfg.MaxLookupWait)
	}
}

// resolve settles an order whose answer was lost or unreadable by its client id: found, it is
// what its record says (and its fills, when it traded); not found by a lookup begun after its
// expiresAfter, it was never placed. It never sends the order again.
func (e *Executor) resolve(ctx context.Context, res Result, expires uint64) Result {
	var found *api.OrderRecord
	absent := false
	err := e.poll(ctx, expires, func(ctx context.Context, expired bool) (bool, error) {
		rec, err := api.FindCloid(ctx, e.cfg.Read, e.cfg.Account, res.Cloid)
		found, absent = rec, err == nil && rec == nil && expired
		return rec != nil || absent, err
	})
	switch {
	case found != nil:
		res.Found = found
		res.Outcome = recordOutcome(*found, res.Outcome)
		if res.Outcome.Kind == state.OutcomeFilled {
			return e.settle(ctx, res)
		}
		res.Kind = kindOf(res.Outcome)
	case absent:
		res.Kind, res.Reason = NotPlaced, "client id "+res.Cloid+" is not at the exchange after its request expired: it was never placed"
	default:
		res.Kind, res.Reason = Unknown, "client id "+res.Cloid+" not resolved: "+err.Error()
	}
	return res
}

// recordOutcome is what an order's record says became of it: resting, (partly) filled, or
// cancelled with nothing filled.
func recordOutcome(found api.OrderRecord, o state.Outcome) state.Outcome {
	o.Oid = found.OrderID
	filled := found.Size.Sub(found.Unfilled)
	o.Resting = found.State == "open"
	switch {
	case filled.IsPositive():
		o.Kind, o.Filled = state.OutcomeFilled, filled
	case found.State == "open":
		o.Kind = state.OutcomePlaced
	case found.State == "cancelled":
		o.Kind = state.OutcomeUnfilled
	default:
		o.Kind = state.OutcomeFilled
	}
	return o
}
