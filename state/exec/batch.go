package exec

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/state/risk"
)

// PlaceBatch sends checked orders as one placeOrder (at most MaxBatch), journaled as one intent
// that names every order's client id: each is confirmed as Place confirms, a lost answer is
// resolved order by order by client id, and nothing is sent twice.
func (e *Executor) PlaceBatch(ctx context.Context, cs []Checked, ask Ask) (BatchResult, error) {
	var res BatchResult
	switch {
	case len(cs) == 0:
		return res, errors.New("exec: an empty batch")
	case len(cs) > MaxBatch:
		return res, fmt.Errorf("exec: %d orders in one batch; at most %d", len(cs), MaxBatch)
	}
	wires := make([]api.OrderWire, len(cs))
	cloids := make([]string, len(cs))
	sizes := make([]decimal.Decimal, len(cs))
	orders := make([]risk.Order, len(cs))
	for i, c := range cs {
		if !c.OK() || !SameLimits(c.Guard(), e.guard) {
			return res, fmt.Errorf("exec: order %d of the batch was not checked by Executor.Check", i+1)
		}
		if c.Order().NeedsTypedConfirm && !ask.Confirmed {
			res.Kind, res.Reason = Refused, fmt.Sprintf("order %d needs confirmation, nothing sent: %s", i+1, joinWarnings(c.Order().Warnings))
			return res, nil
		}
		wires[i], cloids[i], sizes[i], orders[i] = c.Order().Wire, c.Order().Wire.Cloid, c.Order().Size, riskOrder(c.Order())
	}
	if why, err := e.riskGate(ctx, orders); why != "" || err != nil {
		res.Kind, res.Reason = Refused, why
		return res, err
	}
	if err := e.ensureRecovered(ctx); err != nil {
		return res, err
	}
	arrival := func(i int) journal.Arrival { return arrivalOf(cs[i].Order()) }
	p, err := e.begin(ctx, journal.Intent{Parent: ask.Parent, Kind: "batch", Who: ask.Who, What: ask.What, Cloids: cloids, Numbers: ask.Numbers}, arrival)
	if err != nil {
		return res, err
	}
	res.ID, res.Cloid, res.Hold.Pending = p.ID(), cloids[0], p
	sent := e.committing(ctx, p)
	rt := e.routing(ask, cloids...)
	resp, err := e.cfg.Send.PlaceOrders(rt.watch(sent.ctx), wires)
	route := rt.answered(ctx, e.cfg.Journal)
	res = e.batchPlaced(ctx, res, wires, sizes, sent.committed(), expiryOf(sent), resp, err)
	res.Arrival, res.Route = arrival(0), route
	for i := range res.Orders {
		res.Orders[i].Arrival = arrival(i)
	}
	return res, e.record(ctx, res.Result)
}

// batchPlaced reads each order's status, or looks each up by client id when the answer was lost
// or unreadable.
func (e *Executor) batchPlaced(ctx context.Context, res BatchResult, wires []api.OrderWire, sizes []decimal.Decimal, committed bool, expires uint64, resp api.TxResponse, err error) BatchResult {
	outs := state.OrderOutcomes(resp, sizes)
	for i, w := range wires {
		r := Result{ID: res.ID, Cloid: w.Cloid, Outcome: state.Outcome{Kind: state.OutcomeSent, Requested: sizes[i]}}
		switch {
		case err != nil && committed && !api.IsAmbiguous(err):
			r = e.lookedUp(ctx, r, err)
		case err != nil:
			r = e.placed(ctx, r, committed, expires, api.TxResponse{}, err)
		case outs[i].Kind == state.OutcomeSent: // an answer of unknown shape: find out by client id
			r.Sent, r.AnswerLost = true, true
			r = e.resolve(ctx, r, expires)
		default:
			r.Sent, r.Resp, r.Outcome = true, &resp, outs[i]
			r.Kind, r.Reason = kindOf(outs[i]), outs[i].Reason
			if outs[i].Kind == state.OutcomeFilled {
				r = e.settle(ctx, r)
			}
		}
		res.Orders = append(res.Orders, r)
	}
	res.Result.Sent, res.Result.Resp = committed, nil
	if err == nil {
		res.Result.Resp = &resp
	}
	var words []string
	res.Kind = res.Orders[0].Kind
	for _, o := range res.Orders {
		words = append(words, o.Cloid+" "+o.Kind.String())
		if !o.Settled() {
			res.Kind = Unknown
		}
	}
	res.Reason = strings.Join(words, ", ")
	return res
}

// lookedUp is one order of a batch the exchange refused as a whole: the refusal proves nothing
// about each order in it, so each is looked up by its client id and its record decides; one the
// exchange has no record of was refused with the batch. A lookup that fails leaves it unknown,
// for Recover to settle.
func (e *Executor) lookedUp(ctx context.Context, r Result, err error) Result {
	r.Sent, r.Err = true, err
	rec, ferr := api.FindCloid(ctx, e.cfg.Read, e.cfg.Account, r.Cloid)
	switch {
	case ferr != nil:
		r.Kind, r.Reason = Unknown, "the batch was refused ("+err.Error()+") and "+r.Cloid+" could not be looked up: "+ferr.Error()
		return r
	case rec == nil:
		return refusedBy(r, err)
	}
	r.Found = rec
	r.Outcome = recordOutcome(*rec, r.Outcome)
	if r.Outcome.Kind == state.OutcomeFilled {
		return e.settle(ctx, r)
	}
	r.Kind = kindOf(r.Outcome)
	return r
}
