package exec

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
)

// Found is one intent an earlier run left open, and what Recover found became of it.
type Found struct {
	Entry  journal.Entry
	Result Result
}

// Recover settles every intent the journal holds open, before anything new is sent: one begun
// but never signed was not placed; one committed as sent is looked up (by client id, or by its
// order's state for a cancel) until its expiresAfter has passed. It sends nothing. It returns what
// it found, in the journal's order; an intent it could not settle stays unresolved (Unknown),
// and Place, Cancel and Do refuse until a later Recover settles it. An action Do sent (a
// transfer, a leverage change, ...) left unknown is looked up again by every Recover but does not
// hold back new sends: it touches no order, and it may stay unknown for the two days the exchange
// takes its nonce.
func (e *Executor) Recover(ctx context.Context) ([]Found, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	unsent, err := e.cfg.Journal.Unsent(ctx)
	if err != nil {
		return nil, err
	}
	var out []Found
	for _, en := range unsent {
		r := Result{ID: en.Intent.ID, Kind: NotPlaced, Reason: "stopped before it was signed: never sent"}
		if isDoKind(en.Intent.Kind) {
			r.Kind = NotSent
		}
		if len(en.Intent.Cloids) > 0 {
			r.Cloid = en.Intent.Cloids[0]
		}
		if err := e.record(ctx, r); err != nil {
			return out, err
		}
		out = append(out, Found{Entry: en, Result: r})
	}
	sent, err := e.cfg.Journal.Unresolved(ctx)
	if err != nil {
		return out, err
	}
	all := true
	for _, en := range sent {
		r := e.recoverOne(ctx, en)
		if err := e.record(ctx, r); err != nil {
			return out, err
		}
		all = all && (r.Settled() || isDoKind(en.Intent.Kind))
		out = append(out, Found{Entry: en, Result: r})
	}
	e.recovered = all
	return out, nil
}

// recoverOne settles one intent left sent, by its action.
func (e *Executor) recoverOne(ctx context.Context, en journal.Entry) Result {
	res := Result{ID: en.Intent.ID, Sent: true, AnswerLost: true}
	switch en.Action {
	case api.ActionPlaceOrder:
		var d api.PlaceOrderData
		if err := json.Unmarshal(en.Request, &d); err != nil || len(d.Orders) == 0 {
			res.Reason = fmt.Sprintf("the journal's request cannot be read (%v): check the exchange by hand", err)
			return res
		}
		return e.recoverOrders(ctx, res, d.Orders, en.ExpiresAfter)
	case api.ActionCancelByOid, api.ActionCancelByCloid:
		c, ok := cancelOf(en)
		if !ok {
			res.Reason = "the journal's cancel cannot be read: check the exchange by hand"
			return res
		}
		res.Cloid, res.Outcome = c.Cloid, state.Outcome{Kind: state.OutcomeSent, Oid: c.Oid}
		return e.resolveCancel(ctx, res, en.ExpiresAfter)
	case api.ActionCancelByInstrument, api.ActionCancelAll:
		c, ok := cancelManyOf(en)
		if !ok {
			res.Reason = "the journal's cancel cannot be read: check the exchange by hand"
			return res
		}
		return e.resolveMany(ctx, res, c, en.ExpiresAfter)
	}
	if isDoKind(en.Intent.Kind) {
		return e.lookUpAction(ctx, res, en.Action, en.Request, en.Nonce, true)
	}
	// An action the executor does not send: it stays unknown, for the trader to check.
	res.Reason = "a " + en.Action + " the executor cannot look up: check the exchange by hand"
	return res
}

// recoverOrders settles each order of one placeOrder by its client id. The intent's result is the
// first order's, with every order's named in its reason when there are several.
func (e *Executor) recoverOrders(ctx context.Context, res Result, orders []api.OrderWire, expires uint64) Result {
	var first Result
	var words []string
	for i, w := range orders {
		size, _ := decimal.NewFromString(w.Size)
		r := res
		r.Cloid, r.Outcome = w.Cloid, state.Outcome{Kind: state.OutcomeSent, Requested: size}
		r = e.resolve(ctx, r, expires)
		if i == 0 {
			first = r
		} else if !r.Settled() {
			first.Kind = Unknown
		}
		words = append(words, w.Cloid+" "+r.Kind.String())
	}
	if len(orders) > 1 {
		first.Reason = strings.Join(words, ", ")
	}
	return first
}

// cancelOf reads the one cancel of a journaled cancelByOid or cancelByCloid.
func cancelOf(en journal.Entry) (Cancel, bool) {
	if en.Action == api.ActionCancelByOid {
		var d api.CancelByOidData
		if json.Unmarshal(en.Request, &d) != nil || len(d.Cancels) != 1 {
			return Cancel{}, false
		}
		return Cancel{InstrumentID: d.Cancels[0].InstrumentID, Oid: d.Cancels[0].Oid}, true
	}
	var d api.CancelByCloidData
	if json.Unmarshal(en.Request, &d) != nil || len(d.Cancels) != 1 {
		return Cancel{}, false
	}
	return Cancel{InstrumentID: d.Cancels[0].InstrumentID, Cloid: d.Cancels[0].Cloid}, true
}

// ensureRecovered runs Recover when no Recover has settled everything yet, and refuses while an
// earlier intent stays unresolved: a new order must not go out beside one whose fate is unknown.
func (e *Executor) ensureRecovered(ctx context.Context) error {
	e.mu.Lock()
	done := e.recovered
	e.mu.Unlock()
	if done {
		return nil
	}
	found, err := e.Recover(ctx)
	if err != nil {
		return err
	}
	var open []string
	for _, f := range found {
		if !f.Result.Settled() && !isDoKind(f.Entry.Intent.Kind) {
			open = append(open, f.Entry.Intent.ID)
		}
	}
	if len(open) > 0 {
		return fmt.Errorf("nothing sent: %d earlier intent(s) may have reached the exchange and are not resolved yet (%s); `tradedesk journal` lists them",
			len(open), strings.Join(open, ", "))
	}
	return nil
}
