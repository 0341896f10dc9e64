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

// CheckBracket is the bracket's risk gate with the executor's guard.
func (e *Executor) CheckBracket(st *state.Store, in state.BracketIntent) (CheckedBracket, []state.FieldError) {
	return CheckBracket(st, in, e.guard)
}

// PlaceBracket sends a checked bracket as one placeOrder, through the same gate, journal, send
// and lost-answer lookup as Place: one intent (the entry's client id) names every order's client
// id; a lost answer is resolved order by order by client id; the entry's fills settle it.
func (e *Executor) PlaceBracket(ctx context.Context, c CheckedBracket, ask Ask) (BracketResult, error) {
	if !c.OK() {
		return BracketResult{}, errors.New("exec: the bracket was not checked (Executor.CheckBracket)")
	}
	if !SameLimits(c.Guard(), e.guard) {
		return BracketResult{}, errors.New("exec: the bracket was checked against another guard than the executor's")
	}
	wires := c.Bracket().Wires
	cloids := make([]string, len(wires))
	for i, w := range wires {
		cloids[i] = w.Cloid
	}
	res := BracketResult{Result: Result{Cloid: cloids[0], Outcome: state.Outcome{Kind: state.OutcomeSent, Requested: c.Bracket().Entry.Size}}}
	if c.Bracket().Entry.NeedsTypedConfirm && !ask.Confirmed {
		res.Kind, res.Reason = Refused, "needs confirmation, nothing sent: "+joinWarnings(c.Bracket().Entry.Warnings)
		return res, nil
	}
	if why, err := e.riskGate(ctx, bracketOrders(c.Bracket())); why != "" || err != nil {
		res.Kind, res.Reason = Refused, why
		return res, err
	}
	if err := e.ensureRecovered(ctx); err != nil {
		return res, err
	}
	entry, leg := bracketArrivals(c.Bracket())
	arrival := func(i int) journal.Arrival {
		if i == 0 {
			return entry
		}
		return leg
	}
	p, err := e.begin(ctx, journal.Intent{ID: cloids[0], Parent: ask.Parent, Kind: "bracket", Who: ask.Who, What: ask.What, Cloids: cloids}, arrival)
	if errors.Is(err, journal.ErrUsedID) {
		res.Kind, res.Reason = Refused, fmt.Sprintf("client id %s was used before (tradedesk journal lists it): give a new one", cloids[0])
		return res, nil
	}
	if err != nil {
		return res, err
	}
	res.ID, res.Hold.Pending = p.ID(), p
	sent := e.committing(ctx, p)
	rt := e.routing(ask, cloids...)
	resp, err := e.cfg.Send.PlaceOrders(rt.watch(sent.ctx), wires)
	route := rt.answered(ctx, e.cfg.Journal)
	res = e.bracketPlaced(ctx, res, wires, sent.committed(), expiryOf(sent), resp, err)
	res.Arrival, res.Route = entry, route
	for i := range res.Legs {
		res.Legs[i].Arrival = leg
	}
	return res, e.record(ctx, res.Result)
}

// bracketPlaced reads a bracket's answer: each order's status, the entry settled by its fills; a
// lost or unreadable answer looks every order up by its client id.
func (e *Executor) bracketPlaced(ctx context.Context, res BracketResult, wires []api.OrderWire, committed bool, expires uint64, resp api.TxResponse, err error) BracketResult {
	sizes := make([]decimal.Decimal, len(wires))
	for i, w := range wires {
		sizes[i], _ = decimal.NewFromString(w.Size)
	}
	sizes[0] = res.Outcome.Requested
	legResult := func(i int) Result {
		return Result{ID: res.ID, Cloid: wires[i].Cloid, Sent: res.Sent, Outcome: state.Outcome{Kind: state.OutcomeSent, Requested: sizes[i]}}
	}
	if err != nil || len(wires) == 1 {
		res.Result = e.placed(ctx, res.Result, committed, expires, resp, err)
	}
	if err != nil {
		for i := 1; i < len(wires); i++ {
			r := legResult(i)
			r.Kind, r.Reason, r.Err = res.Kind, res.Reason, err
			if res.AnswerLost {
				r.Sent, r.AnswerLost = true, true
				r = e.resolve(ctx, r, expires)
			}
			res.Legs = append(res.Legs, r)
		}
		return sumLegs(res)
	}
	outs := state.OrderOutcomes(resp, sizes)
	if outs[0].Kind == state.OutcomeSent { // an answer of unknown shape: look every order up
		res.Result = e.recoverOrders(ctx, Result{ID: res.ID, Sent: true, AnswerLost: true, Resp: &resp}, wires[:1], expires)
		for i := 1; i < len(wires); i++ {
			r := legResult(i)
			r.Sent, r.AnswerLost = true, true
			res.Legs = append(res.Legs, e.resolve(ctx, r, expires))
		}
		return sumLegs(res)
	}
	res.Sent, res.Resp, res.Outcome = true, &resp, outs[0]
	if outs[0].Kind == state.OutcomeRejected {
		res.Kind, res.Reason = Rejected, outs[0].Reason
	} else {
		res.Result = e.settle(ctx, res.Result)
	}
	for i := 1; i < len(wires); i++ {
		r := legResult(i)
		r.Sent, r.Outcome = true, outs[i]
		r.Kind, r.Reason = kindOf(outs[i]), outs[i].Reason
		res.Legs = append(res.Legs, r)
	}
	return sumLegs(res)
}

// sumLegs names each leg's outcome in the entry's reason, for the journal; a leg left unknown
// leaves the intent unknown (unresolved), for a later Recover.
func sumLegs(r BracketResult) BracketResult {
	var words []string
	for _, l := range r.Legs {
		words = append(words, l.Cloid+" "+l.Kind.String())
		if !l.Settled() && r.Settled() {
			r.Kind = Unknown
		}
	}
	if len(words) > 0 {
		legs := "legs: " + strings.Join(words, ", ")
		if r.Reason != "" {
			legs = r.Reason + "; " + legs
		}
		r.Reason = legs
	}
	return r
}

// bracketOrders are a bracket's orders as the risk engine values them: the entry (none for a
// position's take-profit and stop-loss), then its legs.
func bracketOrders(cb state.CheckedBracket) []risk.Order {
	var out []risk.Order
	first := 0
	if cb.Wires[0].Tpsl == "" {
		out, first = append(out, riskOrder(cb.Entry)), 1
	}
	for _, w := range cb.Wires[first:] {
		out = append(out, legOrder(cb.Entry.Instrument.Name, w))
	}
	return out
}
