package headless

import (
	"context"
	"errors"
	"fmt"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

// flattenJSON is flatten's JSON output.
type flattenJSON struct {
	Sent     bool                 `json:"sent"`
	Preview  []string             `json:"preview"`
	Children []state.FlattenChild `json:"children,omitempty"`
	Skipped  []state.FlattenSkip  `json:"skipped,omitempty"`
	Summary  string               `json:"summary,omitempty"`
}

// runFlatten closes every position: one reduce-only market order each, signed as one placeOrder
// (one intent, its children's client ids derived from one parent id); without --yes it prints
// what it would send and skip, and sends nothing.
func runFlatten(ctx context.Context, r *runner) error {
	st, err := r.positionStore(ctx, "")
	if err != nil {
		return err
	}
	parent := state.NewCloid()
	plan, err := st.PlanFlatten(r.o.conn.guard(), func(i int) (string, error) { return journal.ChildCloid(parent, i) })
	if err != nil {
		return err
	}
	out := flattenJSON{Preview: plan.Lines(), Skipped: plan.Skipped}
	if !r.o.yes {
		if err := r.printFlatten(out); err != nil {
			return err
		}
		return errors.New("flatten not sent: add --yes to send the orders above")
	}
	switch {
	case len(plan.Closes) == 0:
		_ = r.printFlatten(out)
		return withExit(ExitRejected, errors.New("flatten: every position was skipped, nothing sent"))
	case len(plan.Closes) > exec.MaxBatch:
		return fmt.Errorf("flatten: %d positions; one placeOrder takes at most %d: close some first", len(plan.Closes), exec.MaxBatch)
	}
	e, done, err := r.recoveredExecutor(ctx)
	if err != nil {
		return err
	}
	defer done()
	if r.o.pos.cancelAll {
		res, err := e.CancelMany(ctx, exec.CancelMany{All: true}, exec.Ask{Who: journal.WhoHeadless, What: "cancel every open order before flatten", Parent: parent})
		if err != nil {
			return err
		}
		if err := cancelAllFailed(res, "every instrument"); err != nil {
			return err
		}
	}
	cs := make([]exec.Checked, len(plan.Closes))
	for i, c := range plan.Closes {
		var errs []state.FieldError
		if cs[i], errs = exec.Check(st, c.Intent, r.o.conn.guard()); len(errs) > 0 {
			return refused(errs)
		}
	}
	res, err := e.PlaceBatch(ctx, cs, exec.Ask{Who: journal.WhoHeadless, What: fmt.Sprintf("flatten: close %d positions", len(cs)), Confirmed: true})
	if err != nil {
		return err
	}
	return r.flattenDone(out, plan, res)
}

// flattenDone prints one line per child and the sum, and exits as the worst child did.
func (r *runner) flattenDone(out flattenJSON, plan state.FlattenPlan, res exec.BatchResult) error {
	if res.Kind == exec.Refused {
		return fmt.Errorf("flatten refused, nothing sent: %s", res.Reason)
	}
	out.Sent = res.Result.Sent
	out.Children = exec.FlattenChildren(plan, res)
	code := ExitOK
	for i, c := range out.Children {
		switch {
		case res.Orders[i].Kind == exec.Unknown:
			code = ExitUnknown
		case !c.Filled && code == ExitOK:
			code = ExitRejected
		}
	}
	out.Summary = state.FlattenSummary(out.Children)
	if err := r.printFlatten(out); err != nil {
		return err
	}
	if code != ExitOK {
		return withExit(code, errors.New("flatten: "+out.Summary))
	}
	return nil
}

func (r *runner) printFlatten(out flattenJSON) error {
	if r.o.json {
		r.jsonDone = true
		return writeJSON(r.env.Stdout, out)
	}
	for _, l := range out.Preview {
		fmt.Fprintln(r.env.Stdout, text.Clean(l))
	}
	for _, c := range out.Children {
		fmt.Fprintln(r.env.Stdout, text.Clean(c.Line()))
	}
	if out.Summary != "" {
		fmt.Fprintln(r.env.Stdout, text.Clean(out.Summary))
	}
	return nil
}

// breakevenJSON is breakeven's JSON output.
type breakevenJSON struct {
	Instrument string          `json:"instrument"`
	Stop       string          `json:"stop"`
	FeesPaid   string          `json:"fees_paid"`
	CloseFee   string          `json:"close_fee"`
	Sent       bool            `json:"sent"`
	Status     string          `json:"status,omitempty"`
	Orders     []api.OrderWire `json:"orders"`
}

func runBreakeven(ctx context.Context, r *runner) error {
	st, in, err := r.positionInstrument(ctx)
	if err != nil {
		return err
	}
	plan, errs := st.PlanBreakeven(in.Name)
	if len(errs) > 0 {
		return refused(errs)
	}
	out := breakevenJSON{Instrument: in.Name, Stop: plan.Stop.String(), FeesPaid: plan.FeesPaid.StringFixed(6), CloseFee: plan.CloseFee.StringFixed(6), Orders: plan.Tpsl.Wires}
	if !r.o.dryRun {
		cb, err := exec.PassedPositionTpsl(plan.Tpsl, r.o.conn.guard())
		if err != nil {
			return err
		}
		e, done, err := r.recoveredExecutor(ctx)
		if err != nil {
			return err
		}
		defer done()
		res, err := e.PlaceBracket(ctx, cb, exec.Ask{Who: journal.WhoHeadless, What: "stop to breakeven on " + in.Name + " at " + out.Stop})
		if err != nil {
			return err
		}
		if err := orderFailed(res.Result); err != nil {
			return err
		}
		out.Sent, out.Status = true, res.Kind.String()
	}
	if r.o.json {
		r.jsonDone = true
		return writeJSON(r.env.Stdout, out)
	}
	_, err = fmt.Fprintf(r.env.Stdout, "stop to breakeven on %s: stop-loss at %s (entry %s plus fees paid %s and to close %s USD) %s\n", in.Name, out.Stop,
		plan.Tpsl.Position.EntryPrice, state.FormatUSDFee(plan.FeesPaid), state.FormatUSDFee(plan.CloseFee), map[bool]string{true: out.Status, false: "checked (dry run, not sent)"}[out.Sent])
	return err
}
