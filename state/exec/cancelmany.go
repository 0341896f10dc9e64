package exec

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
)

// manyKind is the journal's word for the cancel.
func manyKind(c CancelMany) string {
	if c.All {
		return "cancel-all"
	}
	return "cancel-instrument"
}

// CancelMany sends a cancel of many orders as one journaled intent. An answer says how many it
// cancelled; a refusal is CancelFailed, with how many orders are open (Result.Open). A lost one is
// settled by the open orders it was to take: none left, it is done; some left once the request's
// expiresAfter has passed, it was not acted on (cancelling again is safe). The error is for what
// stopped the executor itself.
func (e *Executor) CancelMany(ctx context.Context, c CancelMany, ask Ask) (Result, error) {
	if err := e.ensureRecovered(ctx); err != nil {
		return Result{}, err
	}
	p, err := e.begin(ctx, journal.Intent{Kind: manyKind(c), Parent: ask.Parent, Who: ask.Who, What: ask.What}, nil)
	if err != nil {
		return Result{}, err
	}
	res := Result{ID: p.ID(), Outcome: state.Outcome{Kind: state.OutcomeSent}}
	res.Hold.Pending = p
	sent := e.committing(ctx, p)
	var resp api.TxResponse
	if c.All {
		resp, err = e.cfg.Send.CancelAll(sent.ctx)
	} else {
		resp, err = e.cfg.Send.CancelByInstrument(sent.ctx, c.InstrumentID)
	}
	res.Err = err
	committed := sent.committed()
	switch {
	case err == nil:
		res.Sent, res.Resp = true, &resp
		res.Outcome, res.Kind = state.CancelManyOutcome(resp), Cancelled
	case !api.IsAmbiguous(err):
		res.Sent, res.Reason = committed, err.Error()
		res = e.resolveMany(ctx, res, c, 0)
	default:
		res.Sent, res.AnswerLost = true, true
		res = e.resolveMany(ctx, res, c, expiryOf(sent))
	}
	return res, e.record(ctx, res)
}

// resolveMany settles a cancel of many whose answer failed or was lost by the open orders it was
// to take. Refused (expires 0), it failed, and Open says how many are open. Lost: none left, it is
// done; some left once its request has expired, it was not acted on. Open is -1 when the open
// orders could not be read.
func (e *Executor) resolveMany(ctx context.Context, res Result, c CancelMany, expires uint64) Result {
	why := res.Reason
	if expires == 0 {
		res.Kind, res.Open = CancelFailed, -1
		if n, err := e.openOn(ctx, c); err == nil {
			res.Open = n
		}
		return res
	}
	settled := res
	err := e.poll(ctx, expires, func(ctx context.Context, expired bool) (bool, error) {
		n, err := e.openOn(ctx, c)
		if err != nil {
			return false, err
		}
		settled = res
		settled.Open = n
		switch {
		case n == 0:
			settled.Kind = Cancelled
		case expired:
			settled.Kind, settled.Reason = CancelFailed, fmt.Sprintf("%s still open after the request expired: it was not acted on", state.Count(n, "order"))
		default:
			return false, nil
		}
		return true, nil
	})
	if err != nil {
		res.Kind, res.Open = Unknown, -1
		res.Reason = "the answer was lost and what is still open is not known: " + err.Error()
		if why != "" {
			res.Reason = why + "; " + res.Reason
		}
		return res
	}
	return settled
}

// openOn counts the account's open orders a cancel of many takes.
func (e *Executor) openOn(ctx context.Context, c CancelMany) (int, error) {
	open, err := api.AllPages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return e.cfg.Read.OpenOrders(ctx, e.cfg.Account, p)
	}, 0, nil)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, o := range open {
		if c.All || o.InstrumentID == c.InstrumentID {
			n++
		}
	}
	return n, nil
}

// cancelManyOf reads a journaled cancelByInstrument or cancelAll.
func cancelManyOf(en journal.Entry) (CancelMany, bool) {
	if en.Action == api.ActionCancelAll {
		return CancelMany{All: true}, true
	}
	var d api.CancelByInstrumentData
	if json.Unmarshal(en.Request, &d) != nil {
		return CancelMany{}, false
	}
	return CancelMany{InstrumentID: d.InstrumentID}, true
}
