// Package exec is the one executor between a front end and the exchange: every order and cancel
// it sends passes the risk gate (state.Store.CheckOrder with the executor's state.Guard, and the
// typed confirmation the guard may ask for), is written to the journal (state/journal) and
// committed before it is signed, is signed and sent through a small Sender, and ends in a typed
// Result. A lost or unreadable answer is resolved by the order's client id, looking again until
// the request's expiresAfter has passed (after it the exchange must not act, so an order not
// found then was never placed); a submit is never sent again. Fills settle the outcome of an
// order that traded. Do sends every other signed action (transfers, withdrawals, leverage,
// agents, brokers) through the same journal, after the caller's own gate. Recover resolves, before anything new is sent, every intent an earlier
// process left sent without an outcome.
//
// It is ctx-first and blocking, and imports no Bubble Tea: the console and the headless
// commands call it alike.
package exec

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/state/risk"
)

// Sender signs and sends orders and cancels. *api.Client is one: it calls the context's
// api.WithBeforeSign function, through which the executor commits each action to the journal,
// before it signs.
type Sender interface {
	PlaceOrders(ctx context.Context, orders []api.OrderWire) (api.TxResponse, error)
	CancelByOid(ctx context.Context, cancels []api.CancelOid) (api.TxResponse, error)
	CancelByCloid(ctx context.Context, cancels []api.CancelCloid) (api.TxResponse, error)
	CancelByInstrument(ctx context.Context, id api.InstrumentID) (api.TxResponse, error)
	CancelAll(ctx context.Context) (api.TxResponse, error)
}

// Reader finds what became of an order: by client id in open orders and history, and its fills.
type Reader interface {
	api.OrderReader
	api.FillReader
}

// Config is what an executor works with. Journal, Send, Read and Account are required.
type Config struct {
	Journal *journal.Journal
	Send    Sender
	Read    Reader
	// Account is the address orders are looked up for.
	Account string
	// Guard is the fat-finger guard every order is checked against (zero: state.DefaultGuard()).
	Guard *state.Guard
	// Now is the clock expiresAfter is compared with (nil: time.Now).
	Now func() time.Time
	// Skew is how far the exchange's clock may be ahead of Now: an expiresAfter counts as passed
	// only Skew after it (0: DefaultSkew).
	Skew time.Duration
	// LookupWait is the pause after a lookup by client id that did not settle, doubled up to
	// MaxLookupWait (0: 250 ms and 4 s).
	LookupWait, MaxLookupWait time.Duration
	// LookupGrace bounds how long after expiresAfter (plus Skew) failing lookups go on before
	// the outcome is left unknown, for the next Recover (0: 5 s).
	LookupGrace time.Duration
	// SettleWait bounds the wait for an order's fills after its answer; SettleEvery is how often
	// they are asked for (0: 3 s and 150 ms).
	SettleWait, SettleEvery time.Duration
	// SendTimeout bounds the send of one action, its answer included (0: the Sender's own
	// bound). A send it cuts short after signing is a lost answer, looked up like any other.
	SendTimeout time.Duration
	// Limits are the trader's own hard limits ([risk]); the engine over the journal enforces
	// them, and the trading state, on every order (nil: no limits, the state still holds).
	Limits risk.Limits
	// RiskSource is where the limits read the account and the market (nil: Read, when it is an
	// exchange client).
	RiskSource risk.Source
}

// DefaultSkew is how far the exchange's clock is taken to be ahead at most.
const DefaultSkew = 2 * time.Second

// Executor sends orders and cancels, one at a time per call; it is safe for concurrent use.
type Executor struct {
	cfg       Config
	guard     state.Guard
	mu        sync.Mutex
	recovered bool
	owned     bool // the journal is Open's, closed by Close
	risk      *risk.Engine
	riskSrc   risk.Source
}

// New checks cfg and returns an executor. Call Recover before sending: Place and Cancel run it
// first when it has not run.
func New(cfg Config) (*Executor, error) {
	switch {
	case cfg.Journal == nil:
		return nil, errors.New("exec: no journal")
	case cfg.Send == nil || cfg.Read == nil:
		return nil, errors.New("exec: no exchange to send to and read from")
	case cfg.Account == "":
		return nil, errors.New("exec: no account")
	}
	e := &Executor{cfg: cfg, guard: state.DefaultGuard()}
	if cfg.Guard != nil {
		e.guard = *cfg.Guard
	}
	if e.cfg.Now == nil {
		e.cfg.Now = time.Now
	}
	var err error
	if e.risk, e.riskSrc, err = newRisk(e.cfg); err != nil {
		return nil, err
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&e.cfg.Skew, DefaultSkew)
	def(&e.cfg.LookupWait, 250*time.Millisecond)
	def(&e.cfg.MaxLookupWait, 4*time.Second)
	def(&e.cfg.LookupGrace, 5*time.Second)
	def(&e.cfg.SettleWait, 3*time.Second)
	def(&e.cfg.SettleEvery, 150*time.Millisecond)
	return e, nil
}

// Guard is the guard orders are checked against.
func (e *Executor) Guard() state.Guard { return e.guard }

// Check is the risk gate with the executor's guard.
func (e *Executor) Check(st *state.Store, in state.OrderIntent) (Checked, []state.FieldError) {
	return Check(st, in, e.guard)
}

// Place sends one checked order: the gate's confirmation, the journal, the send, and what
// became of it. The error is for what stopped the executor itself (the journal, an unresolved
// earlier intent); every answer of the exchange, lost ones included, is a Result.
func (e *Executor) Place(ctx context.Context, c Checked, ask Ask) (Result, error) {
	if !c.OK() {
		return Result{}, errors.New("exec: the order was not checked (Executor.Check)")
	}
	if !SameLimits(c.Guard(), e.guard) {
		return Result{}, errors.New("exec: the order was checked against another guard than the executor's")
	}
	co := c.Order()
	cloid := co.Wire.Cloid
	res := Result{Cloid: cloid, Outcome: state.Outcome{Kind: state.OutcomeSent, Requested: co.Size}}
	if co.NeedsTypedConfirm && !ask.Confirmed {
		res.Kind, res.Reason = Refused, "needs confirmation, nothing sent: "+joinWarnings(co.Warnings)
		return res, nil
	}
	if why, err := e.riskGate(ctx, []risk.Order{riskOrder(co)}); why != "" || err != nil {
		res.Kind, res.Reason = Refused, why
		return res, err
	}
	return e.placeChecked(ctx, co, ask, res)
}

// placeChecked journals, sends and settles an order that passed every gate.
func (e *Executor) placeChecked(ctx context.Context, co state.CheckedOrder, ask Ask, res Result) (Result, error) {
	cloid := co.Wire.Cloid
	if err := e.ensureRecovered(ctx); err != nil {
		return res, err
	}
	arrival := arrivalOf(co)
	p, err := e.begin(ctx, journal.Intent{ID: cloid, Parent: ask.Parent, Kind: "place", Who: ask.Who, What: ask.What, Cloids: []string{cloid}, Numbers: ask.Numbers},
		func(int) journal.Arrival { return arrival })
	if errors.Is(err, journal.ErrUsedID) {
		res.Kind, res.Reason = Refused, fmt.Sprintf("client id %s was used before (tradedesk journal lists it): give a new one", cloid)
		return res, nil
	}
	if err != nil {
		return res, err
	}
	res.ID, res.Arrival, res.Hold.Pending = p.ID(), arrival, p
	sent := e.committing(ctx, p)
	res.Hold.Records = ask.Records
	rt := e.routing(ask, cloid)
	resp, err := e.cfg.Send.PlaceOrders(rt.watch(sent.ctx), []api.OrderWire{co.Wire})
	res.Route = rt.answered(ctx, e.cfg.Journal)
	res = e.placed(ctx, res, sent.committed(), expiryOf(sent), resp, err)
	return res, e.record(ctx, res)
}

// placed reads the send's answer: an order answered is settled by its fills; one whose answer
// was lost or unreadable is looked up by its client id.
func (e *Executor) placed(ctx context.Context, res Result, committed bool, expires uint64, resp api.TxResponse, err error) Result {
	res.Err = err
	switch {
	case err != nil && !committed:
		res.Kind, res.Reason = NotPlaced, "not signed: "+err.Error()
		return res
	case err != nil && !api.IsAmbiguous(err):
		res.Sent = true
		return refusedBy(res, err)
	case err != nil:
		res.Sent, res.AnswerLost = true, true
		return e.resolve(ctx, res, expires)
	}
	res.Sent, res.Resp = true, &resp
	o := state.OrderOutcome(resp, res.Outcome.Requested)
	res.Outcome = o
	switch o.Kind {
	case state.OutcomeRejected:
		res.Kind, res.Reason = Rejected, o.Reason
		return res
	case state.OutcomeSent:
		// An answer of unknown shape is not success: find out by client id.
		res.AnswerLost = true
		return e.resolve(ctx, res, expires)
	}
	return e.settle(ctx, res)
}

// refusedBy is the result of a send the exchange answered with an error, or that provably did
// not reach it.
func refusedBy(res Result, err error) Result {
	if ae, ok := api.AsError(err); ok && (ae.Kind == api.KindServer || ae.Kind == api.KindHTTP) {
		res.Kind, res.Reason = Rejected, err.Error()
		return res
	}
	res.Kind, res.Reason = NotPlaced, "the request did not reach the exchange: "+err.Error()
	return res
}

func joinWarnings(ws []string) string {
	out := ""
	for i, w := range ws {
		if i > 0 {
			out += "; "
		}
		out += w
	}
	return out
}
