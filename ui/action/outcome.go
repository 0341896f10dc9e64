package action

import (
	"fmt"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/report"
	"github.com/tradedesk/tradedesk/state/send"
	"github.com/tradedesk/tradedesk/ui/common"
)

// orderOutcomeText words a placed order's outcome for the status line, and whether it failed. A
// transaction can succeed while the order in it was rejected: that is a failure to the trader.
func orderOutcomeText(o state.Outcome, a *Action) (string, bool) {
	what := a.What
	switch o.Kind {
	case state.OutcomeRejected:
		return what + " rejected: " + o.Reason, true
	case state.OutcomeFilled:
		if o.FillKnown() {
			in := a.Order.Instrument
			of, rest := remainderText(o, a.Order.Wire, in)
			return fmt.Sprintf("order %d filled %s%s at %s avg%s: %s", o.Oid, in.SizeText(o.Filled), of, in.PriceText(o.AvgPrice.Decimal), rest, what), false
		}
		return fmt.Sprintf("order %d filled: %s", o.Oid, what), false
	case state.OutcomePlaced:
		return fmt.Sprintf("order %d placed: %s", o.Oid, what), false
	case state.OutcomeUnfilled:
		return fmt.Sprintf("order %d filled nothing, cancelled (no liquidity within its price or FOK not fillable): %s", o.Oid, what), true
	}
	return "order sent: " + what + txText(o.TxHash), false
}

// FilledOrder is, for an order action that filled on arrival, the notice key its fills report
// under (common.FillKey) and what the fills' line lacks: its slippage (", slip +1.2 bp vs
// preview"; the fills' line says the fee) and what became of its remainder ("; 0.06 resting", ""
// when all of it filled), so the root model keeps the order's outcome and its fills' total on one
// line, its cost phrase whole whichever came first.
func FilledOrder(d DoneMsg) (key, tail string, ok bool) {
	a, o := d.Act, d.Out.Outcome
	if d.Err != nil || a.Run == nil || (a.Kind != KindPlace && a.Kind != KindClose) || o.Kind != state.OutcomeFilled || o.Oid == 0 {
		return "", "", false
	}
	_, tail = remainderText(o, a.Order.Wire, a.Order.Instrument)
	if slip := report.Phrase(a.Order.Wire.Side, o.AvgPrice, d.Out.Arrival, api.OptDecimal{}); slip != "" {
		tail = ", " + slip + tail
	}
	return common.FillKey(uint64(o.Oid)), tail, true
}

// Words is the status line's words for an action sent through the executor, and their level:
// read from its send.Result, the one reading of what became of it.
func Words(d DoneMsg) (string, common.NoticeLevel) {
	if d.Err != nil {
		return d.Act.What + " not sent: " + common.PlainError(d.Err), common.LevelError
	}
	switch d.Act.Kind {
	case KindCancel:
		return cancelWords(d)
	case KindCancelInstrument, KindCancelAll:
		return cancelManyWords(d)
	case KindAmend:
		return amendWords(d)
	case KindPositionTpsl:
		return bracketWords(d)
	}
	if len(d.Out.Legs) > 0 {
		return bracketWords(d)
	}
	return orderWords(d)
}

// orderWords says what became of an order: refused by the gate, rejected, not placed (its answer
// lost and its client id not at the exchange once the request expired), found by its client id
// after its answer was lost, unknown (check by hand before sending again), or its outcome with
// what filled, at what average, for what fees, and what became of the rest.
func orderWords(d DoneMsg) (string, common.NoticeLevel) {
	a, r := d.Act, d.Out.Result
	switch {
	case r.Kind == send.Refused:
		return a.What + " not sent: " + r.Reason, common.LevelError
	case r.Kind == send.NotPlaced && r.AnswerLost:
		return "answer lost and client id " + r.Cloid + " is not at the exchange: " + a.What + " was NOT placed; review and send it again if you still want it", common.LevelWarn
	case r.Kind == send.NotPlaced || r.Kind == send.Rejected && r.Resp == nil:
		why := r.Reason
		if r.Err != nil {
			why = common.PlainError(r.Err)
		}
		return a.What + " failed: " + why, common.LevelError
	case r.Kind == send.Unknown:
		return fmt.Sprintf("answer lost and the lookup did not settle it (%s): check open orders and history for client id %s before sending again", r.Reason, r.Cloid), common.LevelError
	case r.AnswerLost && r.Found != nil:
		return fmt.Sprintf("answer lost, but the exchange has it: order %d (%s) is %s", r.Found.OrderID, a.What, r.Found.State), common.LevelWarn
	}
	text, failed := orderOutcomeText(r.Outcome, a)
	if cost := report.Phrase(a.Order.Wire.Side, r.Outcome.AvgPrice, r.Arrival, r.Fee); cost != "" {
		text += ", " + cost
	}
	if failed {
		return text, common.LevelError
	}
	return text, common.LevelInfo
}

// amendWords says how a move ended: stopped with nothing placed (why), or the replacement's
// outcome, saying the old order is cancelled when the replacement failed.
func amendWords(d DoneMsg) (string, common.NoticeLevel) {
	out := d.Out
	switch {
	case out.Stopped != "" && out.OldFilled:
		return out.Stopped, common.LevelWarn
	case out.Stopped != "":
		return d.Act.What + " stopped: " + out.Stopped, common.LevelError
	}
	text, level := orderWords(d)
	if level == common.LevelError && out.Cancelled {
		return "the old order is cancelled; " + text, level
	}
	return text, level
}

// remainderText says what became of the part of an order that did not fill on arrival: " of 0.1"
// and "; 0.06 resting" (or "; 0.06 cancelled: " and why, state.RemainderFate). Empty when all of
// it filled.
func remainderText(o state.Outcome, w api.OrderWire, in state.Instrument) (of, rest string) {
	left := o.Remaining()
	if !left.IsPositive() {
		return "", ""
	}
	fate := state.RemainderFate(o, w.Tif, w.IsMarket)
	return " of " + in.SizeText(o.Requested), fmt.Sprintf("; %s %s", in.SizeText(left), fate)
}

// txText is " (tx 0x12…)" for a transaction hash, "" without one.
func txText(hash string) string {
	if hash == "" {
		return ""
	}
	return " (tx " + common.ShortAddr(hash) + ")"
}
