package headless

import (
	"context"
	"fmt"

	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

// fireDeadMan is the dead-man's switch firing: the guard's algorithms are stopped (each cancels
// its own order), then every open order is cancelled as one journaled cancel-all, and with
// --dead-man-flatten every position is closed by reduce-only market orders.
func (g *guardProc) fireDeadMan(ctx context.Context) {
	r := g.r
	span := r.o.guard.deadMan
	g.log.Warn("dead-man fired: no heartbeat", "after", span.String())
	fmt.Fprintf(r.env.Stderr, "dead-man: no heartbeat for %s: cancelling every open order\n", span)
	g.stopAlgos()
	g.algoWG.Wait()
	res, err := g.e.CancelMany(ctx, exec.CancelMany{All: true},
		exec.Ask{Who: journal.WhoHeadless, What: fmt.Sprintf("guard dead-man: no heartbeat for %s, cancel every open order", span)})
	if err == nil {
		err = cancelAllFailed(res, "every instrument")
	}
	if err != nil {
		g.log.Error("dead-man cancel-all", "error", err.Error())
		fmt.Fprintf(r.env.Stderr, "dead-man: cancel-all: %s\n", oneLine(err.Error()))
	} else {
		g.log.Warn("dead-man cancelled every open order", "intent", res.ID)
	}
	if r.o.guard.deadManFlatten {
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
