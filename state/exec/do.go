package exec

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/journal"
)

// ActionReader is what finds out what became of an action Do sent whose answer was lost:
// *api.Client is one. An executor whose Config.Read is not one leaves those outcomes Unknown.
type ActionReader interface {
	TransferHistory(ctx context.Context, user string, limit int) ([]api.TransferRecord, error)
	Agents(ctx context.Context, user string) ([]api.Agent, error)
	BrokersCheck(ctx context.Context, user, broker string, p api.PageParams) (api.Page[api.BrokerApproval], error)
}

// Do sends one signed action that is not an order or a cancel (a transfer, a withdrawal, a
// leverage change, an agent or broker approval) through the journal, and says what became of it.
//
// kind is one of ActTransfer ... ActBroker; ask says who asked and what, in words. send makes
// exactly one signed /exchange call (an api.Trader or api.Control method) with the context it is
// given, which commits the action to the journal before it is signed; it neither checks nor
// retries. The gate is the caller's and comes first: funds.Check for a movement,
// state.LeverageChange's check for leverage.
//
// The Result's Kind is Done (the exchange did it: TxHash), Rejected (the exchange refused it:
// Reason), NotSent (nothing was signed, or the request provably did not reach the exchange) or
// Unknown (the answer was lost and no lookup settled it: Reason says what to check). A lost
// answer is looked up where the protocol allows (a movement in the transfer history, an agent in
// the account's agents, a broker's approval, the leverage in force); the action is never sent
// again. The error is for what stopped the executor itself (the journal, an unresolved earlier
// intent).
func (e *Executor) Do(ctx context.Context, kind string, ask Ask, send func(ctx context.Context) (api.TxResponse, error)) (Result, error) {
	if !isDoKind(kind) {
		return Result{}, fmt.Errorf("exec: Do sends %s, %s, %s, %s, %s or %s, not %q", ActTransfer, ActWithdraw, ActLeverage, ActAgent, ActBroker, ActVault, kind)
	}
	if send == nil {
		return Result{}, errors.New("exec: Do needs the send")
	}
	if err := e.ensureRecovered(ctx); err != nil {
		return Result{}, err
	}
	p, err := e.begin(ctx, journal.Intent{Kind: kind, Parent: ask.Parent, Who: ask.Who, What: ask.What}, nil)
	if err != nil {
		return Result{}, err
	}
	res := Result{ID: p.ID()}
	res.Hold.Pending = p
	sent := e.committing(ctx, p)
	resp, err := send(sent.ctx)
	res = e.done(ctx, res, sent, resp, err)
	return res, e.record(ctx, res)
}

// done reads the answer of an action Do sent.
func (e *Executor) done(ctx context.Context, res Result, sent *sending, resp api.TxResponse, err error) Result {
	res.Err = err
	committed := sent.committed() // releases the send's context
	switch {
	case err != nil && !committed:
		res.Kind, res.Reason = NotSent, "not signed: "+err.Error()
	case err != nil && !api.IsAmbiguous(err):
		res.Sent = true
		res = refusedBy(res, err)
		if res.Kind == NotPlaced {
			res.Kind = NotSent
		}
	case err != nil:
		res.Sent, res.AnswerLost = true, true
		sent.mu.Lock()
		sg := sent.sig
		sent.mu.Unlock()
		res = e.lookUpAction(ctx, res, sg.Action, sg.Data, sg.Nonce, false)
	default:
		res.Sent, res.Resp, res.TxHash = true, &resp, resp.TxHash
		switch {
		case resp.Error != "":
			res.Kind, res.Reason = Rejected, resp.Error
		case resp.Success != nil && !*resp.Success:
			res.Kind, res.Reason = Rejected, "the exchange answered success: false"
		default:
			res.Kind = Done
		}
	}
	return res
}

// lookUpAction settles an action whose answer was lost by what the exchange shows now. None of
// these actions carries an expiresAfter: one not found may still be acted on, and stays Unknown,
// until its nonce is older than NonceWindow (then it was never done). A leverage change is
// settled by the leverage in force being the one asked for. once looks once (Recover: the send
// looked several times already, and each start looks again) instead of polling.
func (e *Executor) lookUpAction(ctx context.Context, res Result, action string, data json.RawMessage, nonce uint64, once bool) Result {
	look, cannot := e.looker(action, data, nonce, &res)
	if look == nil {
		res.Kind, res.Reason = Unknown, "the answer to the "+action+" was lost and "+cannot+": "+byHand
		return res
	}
	var why string
	gone := false
	try := func(ctx context.Context, _ bool) (bool, error) {
		// Begun after the nonce left the exchange's window, a lookup that does not find the
		// action is final.
		late := e.cfg.Now().Add(-e.cfg.Skew-NonceWindow).UnixMilli() > int64(nonce)
		found, w, err := look(ctx)
		why, gone = w, err == nil && !found && late
		return found || gone, err
	}
	var err error
	if once {
		if ok, lerr := try(ctx, false); !ok {
			err = cmp.Or(lerr, errNotYet)
		}
	} else {
		err = e.poll(ctx, 0, try)
	}
	switch {
	case err != nil:
		res.Kind, res.Reason = Unknown, "the answer to the "+action+" was lost and a lookup did not find it ("+lookupWhy(why, err)+"); the exchange may act on it until its nonce is two days old; it is not sent again: "+byHand
	case gone:
		res.Kind, res.Reason = NotSent, "the answer to the "+action+" was lost and it is not found ("+why+") now that its nonce is older than the exchange takes: it was never done"
	default:
		res.Kind, res.Reason = Done, why
	}
	return res
}

// lookup is one look at the exchange for a lost action: found, or why not.
type lookup func(ctx context.Context) (found bool, why string, err error)

// looker is the lookup of action (nil, with why it cannot be looked up, when there is none); a
// movement's lookup sets res's tx hash when it finds it.
func (e *Executor) looker(action string, data json.RawMessage, nonce uint64, res *Result) (lookup, string) {
	rd, ok := e.cfg.Read.(ActionReader)
	if !ok {
		return nil, "this executor cannot look it up"
	}
	switch action {
	case api.ActionSpotTransfer, api.ActionDerivativeTransfer, api.ActionInternalTransfer, api.ActionSpotWithdraw, api.ActionDerivativeWithdraw:
		mv, err := movementOf(action, data, e.cfg.Account)
		if err != nil {
			return nil, "the journal's request cannot be read (" + err.Error() + ")"
		}
		return func(ctx context.Context) (bool, string, error) { return e.findMovement(ctx, rd, mv, nonce, res) }, ""
	case api.ActionAddAgent, api.ActionRevokeAgent:
		return func(ctx context.Context) (bool, string, error) { return e.findAgent(ctx, rd, action, data) }, ""
	case api.ActionApproveBrokerFee:
		return func(ctx context.Context) (bool, string, error) { return e.findBroker(ctx, rd, data) }, ""
	case api.ActionUpdateLeverage:
		if lr, ok := e.cfg.Read.(LeverageReader); ok {
			return func(ctx context.Context) (bool, string, error) { return e.findLeverage(ctx, lr, data) }, ""
		}
		return nil, "this executor cannot read the leverage"
	}
	return nil, "the exchange has no record to look it up by"
}

// NonceWindow is how old a nonce the exchange still takes: after it, an action not done never
// will be. It is the only expiry of the actions Do sends, which carry no expiresAfter.
const NonceWindow = 48 * time.Hour

// byHand is what a trader does about an action whose outcome is unknown.
const byHand = "check the account by hand before sending it again (`tradedesk journal` shows what was sent)"

func lookupWhy(why string, err error) string {
	if errors.Is(err, errNotYet) && why != "" {
		return why
	}
	return err.Error()
}

// isDoKind reports whether a journal kind is one Do sends.
func isDoKind(kind string) bool {
	switch kind {
	case ActTransfer, ActWithdraw, ActLeverage, ActAgent, ActBroker, ActVault:
		return true
	}
	return false
}

// journaled is the signing as the journal keeps it: an addAgent's proof (the agent key's
// signature) is left out, because the journal holds no signature; the agent's address, which a
// lookup needs, stays.
func journaled(sg api.Signing) api.Signing {
	if sg.Action != api.ActionAddAgent {
		return sg
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(sg.Data, &m) != nil {
		return sg
	}
	if _, ok := m["signature"]; !ok {
		return sg
	}
	m["signature"] = json.RawMessage(`"(left out)"`)
	if b, err := json.Marshal(m); err == nil {
		sg.Data = b
	}
	return sg
}
