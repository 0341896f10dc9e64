package headless

import (
	"context"
	"fmt"
	"strconv"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

func cancelAllFlags(fs *flagSet, o *opts) {
	fs.text(&o.instrument, "instrument", "SYM", "cancel only this instrument's orders")
	fs.BoolVar(&o.yes, "yes", false, "cancel them: needed, as it takes the positions' stop-losses and take-profits too")
}

// runCancelAll cancels every open order (on one instrument with --instrument). It takes the
// positions' stops with them, so, as a transfer does, it is sent only with --yes; without it, it
// says what it would cancel (state.CancelScope, the console's words) and sends nothing.
func runCancelAll(ctx context.Context, r *runner) error {
	var (
		scope = "every instrument"
		in    state.Instrument
		err   error
	)
	if r.o.instrument != "" {
		if in, err = r.findInstrument(ctx); err != nil {
			return err
		}
		scope = in.Name
	}
	if !r.o.yes {
		return r.refuseCancelAll(ctx, in.Name, scope)
	}
	e, done, err := r.recoveredExecutor(ctx)
	if err != nil {
		return err
	}
	defer done()
	out, err := e.CancelMany(ctx, exec.CancelMany{InstrumentID: in.ID, All: in.Name == ""},
		exec.Ask{Who: journal.WhoHeadless, What: "cancel every open order on " + scope})
	if err != nil {
		return err
	}
	if err := cancelAllFailed(out, scope); err != nil {
		return err
	}
	resp := api.TxResponse{}
	if out.Resp != nil {
		resp = *out.Resp
	}
	if r.o.json {
		return writeJSON(r.env.Stdout, okJSON(resp))
	}
	if out.Resp == nil {
		_, err = fmt.Fprintf(r.env.Stdout, "cancelled all orders on %s (the answer was lost; none is left open)\n", text.Clean(scope))
		return err
	}
	count := "all"
	if out.Outcome.Kind == state.OutcomeCancelledCount {
		count = strconv.Itoa(out.Outcome.Count)
	}
	_, err = fmt.Fprintf(r.env.Stdout, "cancelled %s orders on %s (tx %s)\n", count, text.Clean(scope), text.Clean(resp.TxHash))
	return err
}

// cancelAllFailed is the error of a cancel of many that did not happen, or whose outcome is
// unknown (nil when it went through).
func cancelAllFailed(out exec.Result, scope string) error {
	switch {
	case out.Kind == exec.Cancelled:
		return nil
	case out.Kind == exec.Unknown:
		return withExit(ExitUnknown, fmt.Errorf("cancel of all orders on %s sent, outcome unknown: %s; check `tradedesk orders`", text.Clean(scope), out.Reason))
	case out.Err != nil:
		return fmt.Errorf("cancel of all orders on %s failed: %w", text.Clean(scope), out.Err)
	}
	return withExit(ExitRejected, fmt.Errorf("cancel of all orders on %s failed: %s", text.Clean(scope), out.Reason))
}

// refuseCancelAll is the usage error of a cancel-all without --yes: what it would cancel (the
// open orders on symbol, every one when "", and the positions' stops among them, when the
// account can be read) and the flag that sends it.
func (r *runner) refuseCancelAll(ctx context.Context, symbol, scope string) error {
	what := "every open order on " + text.Clean(scope) + ", stop-losses and take-profits included"
	if sc, err := r.cancelScope(ctx, symbol); err == nil {
		what = state.Count(sc.Orders, "open order") + " on " + text.Clean(scope)
		if inc := sc.Including(); inc != "" {
			what += ", " + text.Clean(inc)
		}
	}
	return usagef("cancel-all not sent: it cancels %s; add --yes to cancel them", what)
}

// cancelScope reads the account's open orders (on symbol, every one when "") and positions.
func (r *runner) cancelScope(ctx context.Context, symbol string) (state.CancelScope, error) {
	user := r.client.Address()
	open, err := api.AllPages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return r.client.OpenOrders(ctx, user, p)
	}, 0, nil)
	if err != nil {
		return state.CancelScope{}, err
	}
	positions, err := r.client.Positions(ctx, user)
	if err != nil {
		return state.CancelScope{}, err
	}
	st, err := r.market(ctx)
	if err != nil {
		return state.CancelScope{}, err
	}
	var orders []api.OrderRecord
	for _, o := range open {
		if symbol == "" || o.Instrument == symbol {
			orders = append(orders, o)
		}
	}
	return state.NewCancelScope(orders, positions, st.Instrument), nil
}
