package exec

import (
	"context"
	"errors"
	"sync"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
)

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
	if r.Hold.Pending == nil {
		_, err := e.cfg.Journal.Outcome(context.WithoutCancel(ctx), r.ID, o)
		return err
	}
	_, err := r.Hold.Pending.Settle(context.WithoutCancel(ctx), o)
	if errors.Is(err, journal.ErrUsedID) && !r.Hold.Pending.Written() {
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
