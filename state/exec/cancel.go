package exec

import (
	"context"
	"errors"
	"fmt"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
)

// Cancel sends the cancel of one order through the journal. A lost answer is settled by the
// order's record: gone means cancelled; still open once the cancel's expiresAfter has passed means
// it was not acted on. The error is for what stopped the executor itself.
func (e *Executor) Cancel(ctx context.Context, c Cancel, ask Ask) (Result, error) {
	if (c.Oid == 0) == (c.Cloid == "") {
		return Result{}, errors.New("exec: a cancel names the order by its id or its client id, one of them")
	}
	if err := e.ensureRecovered(ctx); err != nil {
		return Result{}, err
	}
	var cloids []string
	if c.Cloid != "" {
		cloids = []string{c.Cloid}
	}
	p, err := e.begin(ctx, journal.Intent{Kind: "cancel", Parent: ask.Parent, Who: ask.Who, What: ask.What, Cloids: cloids}, nil)
	if err != nil {
		return Result{}, err
	}
	res := Result{ID: p.ID(), Cloid: c.Cloid, Outcome: state.Outcome{Kind: state.OutcomeSent, Oid: c.Oid}}
	res.Hold.Pending = p
	sent := e.committing(ctx, p)
	var resp api.TxResponse
	if c.Oid != 0 {
		resp, err = e.cfg.Send.CancelByOid(sent.ctx, []api.CancelOid{{Oid: c.Oid, InstrumentID: c.InstrumentID}})
	} else {
		resp, err = e.cfg.Send.CancelByCloid(sent.ctx, []api.CancelCloid{{Cloid: c.Cloid, InstrumentID: c.InstrumentID}})
	}
	res.Err = err
	committed := sent.committed()
	switch {
	case err != nil && !api.IsAmbiguous(err):
		res.Sent = committed
		res.Kind, res.Reason = CancelFailed, err.Error()
	case err != nil:
		res.Sent, res.AnswerLost = true, true
		res = e.resolveCancel(ctx, res, expiryOf(sent))
	default:
		res.Sent, res.Resp = true, &resp
		o := state.CancelOutcome(resp)
		o.Oid = c.Oid
		res.Outcome, res.Kind, res.Reason = o, kindOf(o), o.Reason
	}
	if res.Kind == CancelFailed && res.Found == nil {
		res.Found = e.whyNotCancelled(ctx, c)
	}
	return res, e.record(ctx, res)
}

// whyNotCancelled looks up, once, the order a cancel failed on: gone already (cancelled,
// filled) it was nothing left to cancel; still open, cancelling again is safe. nil when the
// lookup fails or the exchange has no such order.
func (e *Executor) whyNotCancelled(ctx context.Context, c Cancel) *api.OrderRecord {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.SettleWait)
	defer cancel()
	rec, err := e.findOrder(ctx, c.Oid, c.Cloid)
	if err != nil {
		return nil
	}
	return rec
}

// resolveCancel settles a cancel whose answer was lost by its order's record.
func (e *Executor) resolveCancel(ctx context.Context, res Result, expires uint64) Result {
	var settled Result
	err := e.poll(ctx, expires, func(ctx context.Context, expired bool) (bool, error) {
		rec, err := e.findOrder(ctx, res.Outcome.Oid, res.Cloid)
		if err != nil {
			return false, err
		}
		settled = res
		switch {
		case rec == nil && expired:
			settled.Kind, settled.Reason = CancelFailed, "no such order at the exchange"
		case rec == nil || rec.State == "open" && !expired:
			return false, nil
		case rec.State == "cancelled":
			settled.Kind = Cancelled
		case rec.State == "open":
			settled.Kind, settled.Reason = CancelFailed, "the order is still open after the cancel expired: it was not acted on"
		default:
			settled.Kind, settled.Reason = CancelFailed, "the order is "+rec.State
		}
		if rec != nil {
			settled.Found, settled.Outcome.Oid = rec, rec.OrderID
		}
		return true, nil
	})
	if err != nil {
		res.Kind, res.Reason = Unknown, "the cancel's answer was lost and the order's state is not known: "+err.Error()
		return res
	}
	return settled
}

// findOrder looks an order up by its client id, or by its exchange id in the open orders and
// the latest order history (nil when the exchange has no such order).
func (e *Executor) findOrder(ctx context.Context, oid api.OrderID, cloid string) (*api.OrderRecord, error) {
	if cloid != "" {
		return api.FindCloid(ctx, e.cfg.Read, e.cfg.Account, cloid)
	}
	open, err := api.AllPages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return e.cfg.Read.OpenOrders(ctx, e.cfg.Account, p)
	}, 0, nil)
	if err != nil {
		return nil, err
	}
	for page := 0; ; page++ {
		for i := range open {
			if open[i].OrderID == oid {
				return &open[i], nil
			}
		}
		if page == api.LookupHistoryPages {
			return nil, nil
		}
		pg, err := e.cfg.Read.OrderHistory(ctx, e.cfg.Account, api.PageParams{Page: page + 1, Limit: api.DefaultPageSize})
		if err != nil {
			return nil, fmt.Errorf("order %d: %w", oid, err)
		}
		if open = pg.Data; len(open) == 0 {
			return nil, nil
		}
	}
}
