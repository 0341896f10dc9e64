package exec

import (
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/send"
)

// What the executor is asked and answers is send's (state/send), so a front end that only builds
// actions and reads their results links no journal; these names keep the executor's callers
// reading as before.

// Kind is what became of an action (send.Kind).
type Kind = send.Kind

// The kinds of Result (send.Unknown ...).
const (
	Unknown      = send.Unknown
	Placed       = send.Placed
	Filled       = send.Filled
	PartlyFilled = send.PartlyFilled
	Unfilled     = send.Unfilled
	Refused      = send.Refused
	Rejected     = send.Rejected
	NotPlaced    = send.NotPlaced
	Cancelled    = send.Cancelled
	CancelFailed = send.CancelFailed
	Done         = send.Done
	NotSent      = send.NotSent
)

// The journal kinds of the actions Do sends (send.ActTransfer ...).
const (
	ActTransfer = send.ActTransfer
	ActWithdraw = send.ActWithdraw
	ActLeverage = send.ActLeverage
	ActAgent    = send.ActAgent
	ActBroker   = send.ActBroker
	ActVault    = send.ActVault
)

// MaxBatch is the most orders one placeOrder of a batch carries (send.MaxBatch).
const MaxBatch = send.MaxBatch

// Result is what became of one action (send.Result).
type Result = send.Result

// BatchResult is what became of a batch (send.BatchResult).
type BatchResult = send.BatchResult

// BracketResult is what became of a bracket (send.BracketResult).
type BracketResult = send.BracketResult

// ModifyResult is what became of a cancel-and-replace (send.ModifyResult).
type ModifyResult = send.ModifyResult

// Ask is who asks for an action, and how it is described (send.Ask).
type Ask = send.Ask

// Records is what a stream has said of the orders an action's caller sends (send.Records).
type Records = send.Records

// Cancel names one order to cancel (send.Cancel).
type Cancel = send.Cancel

// CancelMany names the orders a cancel of many takes (send.CancelMany).
type CancelMany = send.CancelMany

// Checked is an order that passed the gate (send.Checked).
type Checked = send.Checked

// CheckedBracket is a bracket that passed the gate (send.CheckedBracket).
type CheckedBracket = send.CheckedBracket

// Check is the risk gate with guard g (send.Check).
func Check(st *state.Store, in state.OrderIntent, g state.Guard) (Checked, []state.FieldError) {
	return send.Check(st, in, g)
}

// CheckBracket is the bracket's risk gate with guard g (send.CheckBracket).
func CheckBracket(st *state.Store, in state.BracketIntent, g state.Guard) (CheckedBracket, []state.FieldError) {
	return send.CheckBracket(st, in, g)
}

// Passed is the gate's pass for co, which state.Store.CheckOrder passed with guard g
// (send.Passed).
func Passed(co state.CheckedOrder, g state.Guard) (Checked, error) { return send.Passed(co, g) }

// PassedBracket is the gate's pass for cb (send.PassedBracket).
func PassedBracket(cb state.CheckedBracket, g state.Guard) (CheckedBracket, error) {
	return send.PassedBracket(cb, g)
}

// PassedPositionTpsl is the gate's pass for a position's take-profit and stop-loss
// (send.PassedPositionTpsl).
func PassedPositionTpsl(pt state.PositionTpsl, g state.Guard) (CheckedBracket, error) {
	return send.PassedPositionTpsl(pt, g)
}

// SameLimits reports whether two guards set the same limits (send.SameLimits).
func SameLimits(a, b state.Guard) bool { return send.SameLimits(a, b) }

// NotMovable says why an order cannot be moved by cancel-and-replace, or "" (send.NotMovable).
func NotMovable(old api.OrderRecord) string { return send.NotMovable(old) }

// MoveIntent is the replacement of old at price and size (send.MoveIntent).
func MoveIntent(old api.OrderRecord, price, size, cloid string) state.OrderIntent {
	return send.MoveIntent(old, price, size, cloid)
}

// FlattenChildren is what became of each order of a flatten (send.FlattenChildren).
func FlattenChildren(plan state.FlattenPlan, res BatchResult) []state.FlattenChild {
	return send.FlattenChildren(plan, res)
}
