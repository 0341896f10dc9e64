package action

import (
	"context"
	"fmt"
	"strings"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/send"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Cancels are safe to repeat: when a cancel fails or its answer is lost, the executor asks the
// exchange what is still open, and the console says that in plain words (cancelWords).

// NewCancel cancels one open order of instrument in, without asking (a cancel is safe to repeat).
func NewCancel(o api.OrderRecord, in state.Instrument) *Action {
	c := api.CancelOid{Oid: o.OrderID, InstrumentID: o.InstrumentID}
	return &Action{
		Kind: KindCancel, Title: "Cancel order", Cancel: c,
		What: fmt.Sprintf("cancel %s (order %d)", state.RecordText(&o, in), o.OrderID),
		Run: func(ctx context.Context, e Executor, ask send.Ask) (Outcome, error) {
			r, err := e.Cancel(ctx, send.Cancel{InstrumentID: c.InstrumentID, Oid: c.Oid}, ask)
			return Outcome{Result: r}, err
		},
		Refresh: tradeKinds,
	}
}

// NewCancelOne cancels one open order the trader picked (the orders pane's x, the ladder's, the
// command line's cancel), after a confirmation that names it when the policy asks for one
// (state.ConfirmEvery); otherwise at once, and the status line names the order cancelled.
//
// A bracket's entry is asked about under every policy: cancelling it cancels its take-profit and
// stop-loss too, which the dialog says.
func NewCancelOne(o api.OrderRecord, in state.Instrument, p state.ConfirmPolicy) *Action {
	a := NewCancel(o, in)
	a.Confirm = p.AsksCancel()
	a.Lines = []string{"Cancel this order?", fmt.Sprintf("  %s · order %d", state.RecordText(&o, in), o.OrderID)}
	if bracketEntry(o) {
		a.Confirm = true
		a.Title = "Cancel bracket entry"
		a.What += " and its take-profit and stop-loss"
		a.Lines = append(a.Lines, "", "It is a bracket's entry: its take-profit and stop-loss are cancelled with it.")
	}
	return a
}

// AllOf is every one of n things, counted: "all 3 open orders", "the 1 open order".
func AllOf(n int, noun string) string {
	if n == 1 {
		return "the " + state.Count(n, noun)
	}
	return "all " + state.Count(n, noun)
}

// NewCancelEverything cancels every open order on every instrument (sc: the ones shown and the
// stops among them), confirmed.
func NewCancelEverything(sc state.CancelScope) *Action {
	return NewCancelAll("Cancel ALL open orders", "cancel "+AllOf(sc.Orders, "open order"),
		ScopeLines("Cancel "+AllOf(sc.Orders, "open order")+" on every instrument", sc))
}

// NewCancelInstrument cancels every open order on one instrument (sc: the ones shown and the
// stops among them), confirmed.
func NewCancelInstrument(id api.InstrumentID, name string, sc state.CancelScope) *Action {
	return &Action{
		Kind: KindCancelInstrument, Confirm: true, Instrument: id,
		Title: "Cancel all orders on " + name,
		What:  "cancel " + state.Count(sc.Orders, "open order") + " on " + name,
		Lines: ScopeLines("Cancel "+AllOf(sc.Orders, "open order")+" on "+name, sc),
		Run:   cancelMany(send.CancelMany{InstrumentID: id}), Refresh: tradeKinds,
	}
}

// ScopeLines is a cancel's question with what it takes besides plain orders: "Cancel all 3 open
// orders on BTC-PERP, including the stop-loss and take-profit on your 0.1 BTC long?", and that
// the position stays open without them.
func ScopeLines(question string, sc state.CancelScope) []string {
	inc := sc.Including()
	if inc == "" {
		return []string{question + "?"}
	}
	return []string{question + ", " + inc + "?", "", "! " + sc.Unguarded()}
}

// NewCancelAll cancels every open order on the account, confirmed.
func NewCancelAll(title, what string, lines []string) *Action {
	return &Action{
		Kind: KindCancelAll, Confirm: true, Title: title, What: what, Lines: lines,
		Run: cancelMany(send.CancelMany{All: true}), Refresh: tradeKinds,
	}
}

// cancelMany sends a cancel of many orders through the executor.
func cancelMany(c send.CancelMany) func(context.Context, Executor, send.Ask) (Outcome, error) {
	return func(ctx context.Context, e Executor, ask send.Ask) (Outcome, error) {
		r, err := e.CancelMany(ctx, c, ask)
		return Outcome{Result: r}, err
	}
}

// cancelWhy is why a cancel did not clearly go through: the send's error, or the exchange's reason.
func cancelWhy(r send.Result) string {
	if r.Err != nil {
		return common.PlainError(r.Err)
	}
	return r.Reason
}

// cancelWords says what became of the cancel of one order: cancelled; already gone at the
// exchange, nothing left to cancel (information: a repeated cancel is harmless); or still open,
// with the advice that cancelling again is safe.
func cancelWords(d DoneMsg) (string, common.NoticeLevel) {
	a, r := d.Act, d.Out.Result
	found := r.Found
	switch {
	case found != nil && found.State != api.StateOpen && (r.AnswerLost || r.Kind == send.CancelFailed):
		return fmt.Sprintf("order %d is already %s at the exchange: nothing left to cancel", a.Cancel.Oid, found.State), common.LevelInfo
	case r.Kind == send.Cancelled:
		return "cancelled: " + strings.TrimPrefix(a.What, "cancel "), common.LevelInfo
	case found != nil:
		return fmt.Sprintf("%s failed (%s): order %d is still open; cancelling again is safe", a.What, cancelWhy(r), a.Cancel.Oid), common.LevelError
	case r.Kind == send.Unknown:
		return fmt.Sprintf("%s: %s; check the open orders: cancelling again is safe", a.What, r.Reason), common.LevelError
	}
	return fmt.Sprintf("%s failed (%s): cancelling again is safe", a.What, cancelWhy(r)), common.LevelError
}

// cancelManyWords says what became of the cancel of an instrument's orders or of all: how many
// went; when it failed or its answer was lost, what is still open (nothing: information; some: an
// error saying cancelling again is safe).
func cancelManyWords(d DoneMsg) (string, common.NoticeLevel) {
	a, r := d.Act, d.Out.Result
	on, left := "", "at the exchange"
	if a.Kind == KindCancelInstrument {
		on, left = " on the instrument", "on the instrument"
	}
	switch {
	case r.Kind == send.Cancelled && r.Resp != nil && r.Outcome.Kind == state.OutcomeCancelledCount:
		return "cancelled " + state.Count(r.Outcome.Count, "order"), common.LevelInfo
	case r.Kind == send.Cancelled && r.Resp != nil:
		return "done: " + a.What + txText(r.Resp.TxHash), common.LevelInfo
	case r.Kind == send.Cancelled || r.Kind == send.CancelFailed && r.Open == 0:
		return a.What + ": no open orders left " + left, common.LevelInfo
	case r.Kind == send.CancelFailed && r.Open > 0:
		return fmt.Sprintf("%s failed (%s): %s still open%s; cancelling again is safe", a.What, cancelWhy(r), state.Count(r.Open, "order"), on), common.LevelError
	}
	return fmt.Sprintf("%s: %s; could not check what is still open: cancelling again is safe", a.What, cancelWhy(r)), common.LevelError
}

// bracketEntry reports whether o is the entry of a bracket (grouping normal, resting itself, not
// one of the trigger legs): its take-profit and stop-loss children live only while it does.
func bracketEntry(o api.OrderRecord) bool {
	return o.Grouping == api.GroupingNormal && o.RestingLimit() && o.Tpsl == ""
}
