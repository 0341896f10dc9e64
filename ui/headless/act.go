package headless

import (
	"context"
	"fmt"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

// act sends one signed action that is not an order or a cancel (kind exec.ActTransfer ...)
// through the executor: the journal, then send, once (exec.Executor.Do). what is the action in
// words, for the journal.
func (r *runner) act(ctx context.Context, kind, what string, send func(ctx context.Context) (api.TxResponse, error)) (exec.Result, error) {
	e, done, err := r.recoveredExecutor(ctx)
	if err != nil {
		return exec.Result{}, err
	}
	defer done()
	return e.Do(ctx, kind, exec.Ask{Who: journal.WhoHeadless, What: what}, send)
}

// actFailed is the command's error for an action Do did not see done (nil when it did), with the
// exit table's status: the exchange's or the client's own error as it was (refused 1, rejected 3,
// unavailable 5), unknown 4 when the answer was lost and the lookup did not settle it. failed
// starts the message of a failure ("leverage on BTC-PERP not changed"); subject names the action
// ("the spot transfer") and check says where to look when its outcome is unknown.
func actFailed(res exec.Result, failed, subject, check string) error {
	switch {
	case res.Kind == exec.Done:
		return nil
	case res.Kind == exec.Unknown:
		return withExit(ExitUnknown, fmt.Errorf("%s: outcome unknown: %s; %s", subject, res.Reason, check))
	case res.Err != nil:
		return fmt.Errorf("%s: %w", failed, res.Err)
	case res.Kind == exec.Rejected:
		return withExit(ExitRejected, fmt.Errorf("%s: %s", failed, res.Reason))
	}
	return fmt.Errorf("%s: %s", failed, res.Reason)
}

// actResp is the exchange's answer to an action Do saw done: its own, or, when the answer was
// lost and a lookup found the action, one carrying the transaction the lookup found.
func actResp(res exec.Result) api.TxResponse {
	if res.Resp != nil {
		return *res.Resp
	}
	return api.TxResponse{TxHash: res.TxHash}
}

// actDone ends a command whose action Do ran: actFailed's error when it was not seen done, else
// the answer, as JSON or as lines, the last one with the transaction's hash: "done (tx 0x…)".
func (r *runner) actDone(res exec.Result, failed, subject, check string, lines ...string) error {
	if err := actFailed(res, failed, subject, check); err != nil {
		return err
	}
	resp := actResp(res)
	if r.o.json {
		return writeJSON(r.env.Stdout, okJSON(resp))
	}
	last := len(lines) - 1
	for _, l := range lines[:last] {
		fmt.Fprintln(r.env.Stdout, l)
	}
	_, err := fmt.Fprintf(r.env.Stdout, "%s (tx %s)\n", lines[last], text.Clean(resp.TxHash))
	return err
}
