package headless

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

func runCancel(ctx context.Context, r *runner) error {
	if (r.o.oid == "") == (r.o.cloid == "") {
		return usagef("give exactly one of --oid N or --cloid ID")
	}
	var oid uint64
	if r.o.oid != "" {
		n, err := strconv.ParseUint(strings.TrimSpace(r.o.oid), 10, 64)
		if err != nil {
			return usagef("--oid %s is not an order id (a whole number)", text.Quote(r.o.oid))
		}
		oid = n
	}
	if r.o.cloid != "" {
		if err := api.CheckCloid(r.o.cloid); err != nil {
			return usagef("--cloid: %v", err)
		}
	}
	in, err := r.findInstrument(ctx)
	if err != nil {
		return err
	}
	what := "order " + r.o.oid
	if r.o.oid == "" {
		what = "order with cloid " + r.o.cloid
	}
	e, done, err := r.recoveredExecutor(ctx)
	if err != nil {
		return err
	}
	defer done()
	out, err := e.Cancel(ctx, exec.Cancel{InstrumentID: in.ID, Oid: api.OrderID(oid), Cloid: r.o.cloid}, exec.Ask{Who: journal.WhoHeadless, What: "cancel " + what + " on " + in.Name})
	if err != nil {
		return err
	}
	if err := cancelFailed(out, what, in.Name); err != nil {
		return err
	}
	resp := api.TxResponse{}
	if out.Resp != nil {
		resp = *out.Resp
	}
	if r.o.json {
		return writeJSON(r.env.Stdout, okJSON(resp))
	}
	if out.AnswerLost {
		_, err = fmt.Fprintf(r.env.Stdout, "cancelled %s on %s (the answer was lost; the order's record says cancelled)\n", what, in.Name)
		return err
	}
	_, err = fmt.Fprintf(r.env.Stdout, "cancelled %s on %s (tx %s)\n", what, in.Name, text.Clean(resp.TxHash))
	return err
}

// cancelFailed is the error of a cancel that did not happen, or whose outcome is unknown.
func cancelFailed(out exec.Result, what, name string) error {
	switch {
	case out.Kind == exec.Cancelled:
		return nil
	case out.Kind == exec.Unknown:
		return withExit(ExitUnknown, fmt.Errorf("cancel of %s on %s sent, outcome unknown: %s; check `tradedesk orders`", what, name, out.Reason))
	case out.Err != nil:
		return fmt.Errorf("cancel of %s on %s failed: %w", what, name, out.Err)
	}
	return withExit(ExitRejected, fmt.Errorf("exchange did not cancel %s on %s: %s", what, name, out.Reason))
}
