package exec

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
)

// Kind is what became of an action: the three classes of a mature execution engine, proven not
// sent (Refused, NotPlaced), answered (Placed ... Rejected, Cancelled, CancelFailed) and Unknown,
// which stays in flight until a lookup or expiresAfter settles it.
type Kind int

// The kinds of Result.
const (
	// Unknown: the request may have reached the exchange and nothing has said what it did.
	Unknown Kind = iota
	// Placed: the order has an id and nothing of it filled on arrival (Outcome.Resting: it rests).
	Placed
	// Filled: all of the order filled.
	Filled
	// PartlyFilled: part of the order filled; Outcome.Resting says whether the rest rests.
	PartlyFilled
	// Unfilled: the order got an id, nothing filled and nothing rests (IOC, FOK or market order
	// with nothing to take).
	Unfilled
	// Refused: the gate refused it (the check, a typed confirmation not given, a client id used
	// before); nothing was signed.
	Refused
	// Rejected: the exchange refused it; Reason says why.
	Rejected
	// NotPlaced: proven not at the exchange: never signed, the request did not reach it, or its
	// answer was lost and it was not found once its expiresAfter had passed.
	NotPlaced
	// Cancelled: the cancel worked (or the order was already gone).
	Cancelled
	// CancelFailed: the exchange did not cancel the order; Reason says why.
	CancelFailed
	// Done: the exchange did an action Do sent (TxHash, when known).
	Done
	// NotSent: an action Do sent provably did not reach the exchange (never signed, or refused
	// before it arrived); Reason says why.
	NotSent
)

var kindWords = [...]string{"unknown", "placed", "filled", "partly filled", "unfilled", "refused", "rejected", "not placed", "cancelled", "cancel failed", "done", "not sent"}

// String is the kind in words, as the journal keeps it.
func (k Kind) String() string {
	if int(k) < len(kindWords) {
		return kindWords[k]
	}
	return fmt.Sprintf("kind %d", int(k))
}

// Result is what became of one action.
type Result struct {
	Kind Kind
	// ID is the journal's intent id ("" when nothing was journaled).
	ID string
	// Cloid is the order's client id (a cancel's target's, when by client id).
	Cloid string
	// Outcome is the reading of the answer, completed by the lookup and the fills.
	Outcome state.Outcome
	// Fee is what the order's fills paid (Valid when its fills were found).
	Fee api.OptDecimal
	// Reason says why it was refused or rejected, or why the outcome is unknown.
	Reason string
	// Err is the send's error, when it failed (nil when it was answered).
	Err error
	// Sent says the request was committed and handed to the exchange.
	Sent bool
	// AnswerLost says the answer was lost or unreadable and a lookup by client id decided.
	AnswerLost bool
	// Found is the order record the lookup found (nil when none): a lost order's, or the order a
	// cancel was about when the cancel failed or its answer was lost.
	Found *api.OrderRecord
	// Open is, for a cancel of many (CancelMany) that failed or whose answer was lost, how many
	// of the orders it was to take were still open when it was settled (-1: not known).
	Open int
	// Resp is the exchange's answer (nil when there was none).
	Resp *api.TxResponse
	// TxHash is the transaction of an action Do sent, from its answer or the lookup that found
	// it ("" when not known).
	TxHash string
	// Arrival is the market a placed order met as it was sent (the journal's arrival; zero
	// figures when not known): its result line measures slippage from it.
	Arrival journal.Arrival
	// Route is the order's way from the keystroke as far as the executor saw it (keystroke,
	// signed, answered; zero when the action came from no keystroke, Ask.Keystroke).
	Route journal.Route

	records Records          // the caller's stream's records, which settle reads first (Ask.Records)
	pend    *journal.Pending // the intent, written with its signing or, never signed, with its outcome
}

// Settled reports whether the outcome is known.
func (r Result) Settled() bool { return r.Kind != Unknown }

// Detail is the result in a few words for the journal: why, what filled, or what the lookup found.
func (r Result) Detail() string {
	var parts []string
	if r.Reason != "" {
		parts = append(parts, r.Reason)
	}
	if o := r.Outcome; o.Filled.IsPositive() {
		s := "filled " + o.Filled.String()
		if o.AvgPrice.Valid {
			s += " at " + o.AvgPrice.Decimal.String() + " avg"
		}
		parts = append(parts, s)
	}
	if r.Fee.Valid {
		parts = append(parts, "fee "+r.Fee.Decimal.String())
	}
	if r.Outcome.Resting {
		parts = append(parts, "resting")
	}
	if r.TxHash != "" {
		parts = append(parts, "tx "+shortHash(r.TxHash))
	}
	if r.AnswerLost && r.Cloid != "" {
		parts = append(parts, "answer lost, looked up by client id")
	}
	return strings.Join(parts, "; ")
}

// kindOf is the kind of an order's outcome.
func kindOf(o state.Outcome) Kind {
	switch o.Kind {
	case state.OutcomeRejected:
		return Rejected
	case state.OutcomeFilled:
		if o.Remaining().IsPositive() {
			return PartlyFilled
		}
		return Filled
	case state.OutcomePlaced:
		return Placed
	case state.OutcomeUnfilled:
		return Unfilled
	case state.OutcomeCancelled, state.OutcomeCancelledCount:
		return Cancelled
	case state.OutcomeCancelFailed:
		return CancelFailed
	}
	return Unknown
}

// record writes the result to the journal, even when ctx was cancelled: what was learned is kept.
func (e *Executor) record(ctx context.Context, r Result) error {
	if r.ID == "" {
		return nil
	}
	var oid uint64
	if r.Outcome.Oid > 0 {
		oid = uint64(r.Outcome.Oid)
	}
	o := journal.Outcome{Kind: r.Kind.String(), Settled: r.Settled(), Oid: oid, Detail: r.Detail()}
	if r.pend == nil {
		_, err := e.cfg.Journal.Outcome(context.WithoutCancel(ctx), r.ID, o)
		return err
	}
	_, err := r.pend.Settle(context.WithoutCancel(ctx), o)
	if errors.Is(err, journal.ErrUsedID) && !r.pend.Written() {
		return nil // another intent took its id first: this one was never signed, and is not kept
	}
	return err
}

// begin prepares intent in for the journal: it is written, with the arrival of each of its
// client ids (arrival(i) the i-th's, nil for none), in the one commit the send makes before it is
// signed (committing), or with its outcome when it is never signed (record). A used id is
// journal.ErrUsedID.
func (e *Executor) begin(ctx context.Context, in journal.Intent, arrival func(i int) journal.Arrival) (*journal.Pending, error) {
	p, err := e.cfg.Journal.Prepare(ctx, in)
	if err != nil || arrival == nil {
		return p, err
	}
	for i, id := range in.Cloids {
		p.Arrive(id, arrival(i))
	}
	return p, nil
}

// sending is one action on its way: the context that commits it to the journal before it is
// signed (bounded by SendTimeout), and what was committed. done releases the context.
type sending struct {
	ctx  context.Context
	done context.CancelFunc
	mu   sync.Mutex
	ok   bool
	sig  api.Signing
}

// committing is the context under which intent p is sent: its api.WithBeforeSign function
// commits the intent, its arrivals and its signing to the journal in one transaction, and an
// error there stops the send. The journal is written under ctx, not under the send's bound.
func (e *Executor) committing(ctx context.Context, p *journal.Pending) *sending {
	s := &sending{done: func() {}}
	sendCtx := ctx
	if e.cfg.SendTimeout > 0 {
		sendCtx, s.done = context.WithTimeout(ctx, e.cfg.SendTimeout)
	}
	s.ctx = api.WithBeforeSign(sendCtx, func(sg api.Signing) error {
		if err := p.Sent(ctx, journaled(sg)); err != nil {
			return err
		}
		s.mu.Lock()
		s.ok, s.sig = true, sg
		s.mu.Unlock()
		return nil
	})
	return s
}

func (s *sending) committed() bool {
	s.done()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ok
}

func expiryOf(s *sending) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sig.ExpiresAfter
}

// arrivalOf is the market an order met as it was sent, from its preview: what its report card
// (state/report) measures slippage from.
func arrivalOf(co state.CheckedOrder) journal.Arrival {
	a := journal.Arrival{Mark: co.Mark, Mid: co.Mid}
	if co.Preview.Walk.Known {
		a.Mid, a.Expected = co.Preview.Walk.Mid, co.Preview.Walk.AvgPrice
	}
	return a
}

// bracketArrivals are the arrivals of a bracket's entry (as Place's) and of its legs: the mid
// and mark as it was sent, no expected average (a trigger fills where it triggers, not where the
// book stood). A position's take-profit and stop-loss have no entry: every order is a leg.
func bracketArrivals(cb state.CheckedBracket) (entry, leg journal.Arrival) {
	entry = arrivalOf(cb.Entry)
	leg = journal.Arrival{Mid: entry.Mid, Mark: entry.Mark}
	if cb.Wires[0].Tpsl != "" {
		entry = leg
	}
	return entry, leg
}
