package action

import (
	"fmt"
	"strings"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
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
// under (common.FillKey) and what became of its remainder ("; 0.06 resting", "" when all of it
// filled), so the root model keeps the order's outcome and its fills' total on one line. msg is
// the action's DoneMsg or its follow-up's FillsDoneMsg.
func FilledOrder(msg any) (key, tail string, ok bool) {
	var a *Action
	var o state.Outcome
	switch msg := msg.(type) {
	case DoneMsg:
		if msg.Err != nil {
			return "", "", false
		}
		a, o = msg.Act, state.OrderOutcome(msg.Resp, msg.Act.Order.Size)
	case FillsDoneMsg:
		a, o = msg.Act, msg.Outcome
	default:
		return "", "", false
	}
	if (a.Kind != KindPlace && a.Kind != KindClose) || o.Kind != state.OutcomeFilled || o.Oid == 0 {
		return "", "", false
	}
	_, tail = remainderText(o, a.Order.Wire, a.Order.Instrument)
	return common.FillKey(uint64(o.Oid)), tail, true
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

// cancelOutcomeText words the cancel of one order.
func cancelOutcomeText(o state.Outcome, what string) (string, bool) {
	if o.Kind == state.OutcomeCancelFailed {
		return what + " failed: " + o.Reason, true
	}
	return "cancelled: " + strings.TrimPrefix(what, "cancel "), false
}

// cancelManyOutcomeText words the cancel of an instrument's orders or of all orders.
func cancelManyOutcomeText(o state.Outcome, what string) (string, bool) {
	if o.Kind == state.OutcomeCancelledCount {
		return "cancelled " + state.Count(o.Count, "order"), false
	}
	return "done: " + what + txText(o.TxHash), false
}

// txText is " (tx 0x12…)" for a transaction hash, "" without one.
func txText(hash string) string {
	if hash == "" {
		return ""
	}
	return " (tx " + common.ShortAddr(hash) + ")"
}
