package headless

import (
	"context"
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

// armDeadMan arms the switch for span (0 disarms it), with flatten, and journals it.
func (g *guardProc) armDeadMan(span time.Duration, flatten bool) {
	now := g.r.env.Now()
	g.mu.Lock()
	g.dead.Arm(span, now)
	g.flattens = flatten && span > 0
	g.unfinished = false
	g.mu.Unlock()
	word := "disarmed"
	if span > 0 {
		word = fmt.Sprintf("armed %s (flatten %t)", span, flatten)
	}
	g.log.Info("dead-man "+word, "after", span.String(), "flatten", flatten)
	g.journalDeadMan(word + " at " + now.UTC().Format(time.RFC3339))
}

// journalDeadMan keeps the switch's last change in the journal (its value guard.dead-man).
func (g *guardProc) journalDeadMan(what string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := g.e.Journal().SetValue(ctx, "guard.dead-man", what); err != nil {
		g.log.Error("dead-man: journal", "error", err.Error())
	}
}

// checkReach asks the exchange for the account while the switch is armed: the exchange lost
// for the switch's span and then reached again fires it, and a firing whose cancel-all did not
// go through is tried again.
func (g *guardProc) checkReach(ctx context.Context) {
	g.mu.Lock()
	armed, retry := g.dead.Span() > 0, g.unfinished
	g.mu.Unlock()
	if !armed {
		return
	}
	// An answer gets the cadence, and at least 2 s however often it is asked (a test asks often).
	cctx, cancel := context.WithTimeout(ctx, max(g.reachEvery, 2*time.Second))
	_, err := g.r.client.AccountSummary(cctx, g.r.client.Address())
	cancel()
	now := g.r.env.Now()
	g.mu.Lock()
	since := g.lostSince
	lost := false
	switch {
	case err != nil && since.IsZero():
		g.lostSince = now
	case err == nil && !since.IsZero():
		g.lostSince = time.Time{}
		lost = g.dead.Lost(since, now)
	}
	g.mu.Unlock()
	switch {
	case err != nil && since.IsZero():
		g.log.Warn("exchange lost", "error", err.Error())
	case err == nil && !since.IsZero():
		g.log.Info("exchange reached again", "lost_for", now.Sub(since).String())
	}
	if lost {
		g.fireDeadMan(ctx, fmt.Sprintf("the exchange was lost for %s", now.Sub(since).Round(time.Second)))
	} else if retry && err == nil {
		g.fireDeadMan(ctx, "retrying its cancel-all")
	}
}

// fireDeadMan is the dead-man's switch firing (why says what set it off): the guard's algorithms
// are stopped (each cancels its own order), then every open order is cancelled as one journaled
// cancel-all, and with --dead-man-flatten every position is closed by reduce-only market orders.
// A cancel-all that does not go through is tried again once the exchange answers.
func (g *guardProc) fireDeadMan(ctx context.Context, why string) {
	r := g.r
	g.mu.Lock()
	span, flatten := g.dead.Span(), g.flattens
	g.mu.Unlock()
	g.log.Warn("dead-man fired: "+why, "after", span.String())
	fmt.Fprintf(r.env.Stderr, "dead-man: %s (%s): cancelling every open order\n", why, span)
	g.journalDeadMan("fired at " + r.env.Now().UTC().Format(time.RFC3339) + ": " + why)
	g.stopAll()
	res, err := g.e.CancelMany(ctx, exec.CancelMany{All: true},
		exec.Ask{Who: journal.WhoHeadless, What: fmt.Sprintf("guard dead-man: %s (%s), cancel every open order", why, span)})
	if err == nil {
		err = cancelAllFailed(res, "every instrument")
	}
	g.mu.Lock()
	g.unfinished = err != nil
	g.mu.Unlock()
	if err != nil {
		g.log.Error("dead-man cancel-all", "error", err.Error())
		fmt.Fprintf(r.env.Stderr, "dead-man: cancel-all: %s\n", oneLine(err.Error()))
		return
	}
	g.log.Warn("dead-man cancelled every open order", "intent", res.ID)
	if flatten {
		if err := g.flatten(ctx); err != nil {
			g.log.Error("dead-man flatten", "error", err.Error())
			fmt.Fprintf(r.env.Stderr, "dead-man: flatten: %s\n", oneLine(err.Error()))
		}
	}
}

// flatten closes every position with reduce-only market orders, one placeOrder.
func (g *guardProc) flatten(ctx context.Context) error {
	r := g.r
	st, err := r.positionStore(ctx, "")
	if err != nil {
		return err
	}
	parent := state.NewCloid()
	plan, err := st.PlanFlatten(r.o.conn.guard(), func(i int) (string, error) { return journal.ChildCloid(parent, i) })
	if err != nil || len(plan.Closes) == 0 {
		return err
	}
	if len(plan.Closes) > exec.MaxBatch {
		// One placeOrder takes MaxBatch: the first ones closed beat none.
		g.log.Error("dead-man flatten: too many positions for one placeOrder", "positions", len(plan.Closes), "closed", exec.MaxBatch)
		plan.Closes = plan.Closes[:exec.MaxBatch]
	}
	cs := make([]exec.Checked, len(plan.Closes))
	for i, c := range plan.Closes {
		var errs []state.FieldError
		if cs[i], errs = exec.Check(st, c.Intent, r.o.conn.guard()); len(errs) > 0 {
			return refused(errs)
		}
	}
	res, err := g.e.PlaceBatch(ctx, cs, exec.Ask{Who: journal.WhoHeadless, What: fmt.Sprintf("guard dead-man: flatten %d positions", len(cs)), Confirmed: true})
	if err == nil {
		g.log.Warn("dead-man flattened", "intent", res.ID, "positions", len(cs))
	}
	return err
}
