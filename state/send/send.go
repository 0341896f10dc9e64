// Package send holds what the one executor (exec.Executor) is asked and answers, without the
// executor: who asks and how (Ask), the gate's pass (Checked, CheckedBracket, and Check, Passed
// ... that alone make them), what to cancel (Cancel, CancelMany), what became of an action
// (Result and its Kind, BatchResult, BracketResult, ModifyResult) and the pure rules a front end
// reads them by (NotMovable, MoveIntent, FlattenChildren). A package that builds actions or reads
// their results imports send and takes the executor as the interface it calls, so it links no
// journal and no SQLite; exec names each of these too (its aliases), so its callers read the same.
package send

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/record"
)

// Kind is what became of an action: the three classes of a mature execution engine, proven not
// sent (Refused, NotPlaced), answered (Placed ... Rejected, Cancelled, CancelFailed) and Unknown,
// which stays in flight until a lookup or expiresAfter settles it.
type Kind int

// The kinds of Result.
const (
	// Unknown: the request may have reached the exchange and nothing has said what it did.
	Unknown Kind = iota
	// Placed: the order has an id and nothing of it filled on arrival (Outcome.Resting: it rests).
	Placed
	// Filled: all of the order filled.
	Filled
	// PartlyFilled: part of the order filled; Outcome.Resting says whether the rest rests.
	PartlyFilled
	// Unfilled: the order got an id, nothing filled and nothing rests (IOC, FOK or market order
	// with nothing to take).
	Unfilled
	// Refused: the gate refused it (the check, a typed confirmation not given, a client id used
	// before); nothing was signed.
	Refused
	// Rejected: the exchange refused it; Reason says why.
	Rejected
	// NotPlaced: proven not at the exchange: never signed, the request did not reach it, or its
	// answer was lost and it was not found once its expiresAfter had passed.
	NotPlaced
	// Cancelled: the cancel worked (or the order was already gone).
	Cancelled
	// CancelFailed: the exchange did not cancel the order; Reason says why.
	CancelFailed
	// Done: the exchange did an action Do sent (TxHash, when known).
	Done
	// NotSent: an action Do sent provably did not reach the exchange (never signed, or refused
	// before it arrived); Reason says why.
	NotSent
)

var kindWords = [...]string{"unknown", "placed", "filled", "partly filled", "unfilled", "refused", "rejected", "not placed", "cancelled", "cancel failed", "done", "not sent"}

// String is the kind in words, as the journal keeps it.
func (k Kind) String() string {
	if int(k) < len(kindWords) {
		return kindWords[k]
	}
	return fmt.Sprintf("kind %d", int(k))
}

// Result is what became of one action.
type Result struct {
	Kind Kind
	// ID is the journal's intent id ("" when nothing was journaled).
	ID string
	// Cloid is the order's client id (a cancel's target's, when by client id).
	Cloid string
	// Outcome is the reading of the answer, completed by the lookup and the fills.
	Outcome state.Outcome
	// Fee is what the order's fills paid (Valid when its fills were found).
	Fee api.OptDecimal
	// Reason says why it was refused or rejected, or why the outcome is unknown.
	Reason string
	// Err is the send's error, when it failed (nil when it was answered).
	Err error
	// Sent says the request was committed and handed to the exchange.
	Sent bool
	// AnswerLost says the answer was lost or unreadable and a lookup by client id decided.
	AnswerLost bool
	// Found is the order record the lookup found (nil when none): a lost order's, or the order a
	// cancel was about when the cancel failed or its answer was lost.
	Found *api.OrderRecord
	// Open is, for a cancel of many (CancelMany) that failed or whose answer was lost, how many
	// of the orders it was to take were still open when it was settled (-1: not known).
	Open int
	// Resp is the exchange's answer (nil when there was none).
	Resp *api.TxResponse
	// TxHash is the transaction of an action Do sent, from its answer or the lookup that found
	// it ("" when not known).
	TxHash string
	// Arrival is the market a placed order met as it was sent (the journal's arrival; zero
	// figures when not known): its result line measures slippage from it.
	Arrival record.Arrival
	// Route is the order's way from the keystroke as far as the executor saw it (keystroke,
	// signed, answered; zero when the action came from no keystroke, Ask.Keystroke).
	Route record.Route

	// Hold is the executor's own, kept with the result between the send and the journal's
	// outcome; nothing else sets or reads it.
	Hold Hold
}

// Settled reports whether the outcome is known.
func (r Result) Settled() bool { return r.Kind != Unknown }

// Detail is the result in a few words for the journal: why, what filled, or what the lookup found.
func (r Result) Detail() string {
	var parts []string
	if r.Reason != "" {
		parts = append(parts, r.Reason)
	}
	if o := r.Outcome; o.Filled.IsPositive() {
		s := "filled " + o.Filled.String()
		if o.AvgPrice.Valid {
			s += " at " + o.AvgPrice.Decimal.String() + " avg"
		}
		parts = append(parts, s)
	}
	if r.Fee.Valid {
		parts = append(parts, "fee "+r.Fee.Decimal.String())
	}
	if r.Outcome.Resting {
		parts = append(parts, "resting")
	}
	if r.TxHash != "" {
		parts = append(parts, "tx "+shortHash(r.TxHash))
	}
	if r.AnswerLost && r.Cloid != "" {
		parts = append(parts, "answer lost, looked up by client id")
	}
	return strings.Join(parts, "; ")
}

// Hold is what the executor keeps with a result between the send and the journal's outcome: the
// caller's stream's records, which the settle reads first (Ask.Records), and the pending intent,
// written with its signing or, never signed, with its outcome.
type Hold struct {
	Records Records
	Pending Pending
}

// Pending is an intent the journal has checked but may not have written yet
// (*journal.Pending): its outcome settles it.
type Pending interface {
	Settle(ctx context.Context, o record.Outcome) (bool, error)
	Written() bool
}

// shortHash is a transaction hash cut to its first 16 hex digits: enough to find it in the
// transfer history, and not the shape of a key (the journal hides anything that is).
func shortHash(h string) string {
	if len(h) > 18 {
		return h[:18] + "…"
	}
	return h
}

// Ask is who asks for an action, and how it is described.
type Ask struct {
	Who record.Who
	// What is the action in words, for the journal.
	What string
	// Confirmed says the trader confirmed an order the guard asks a typed confirmation for (a
	// typed yes, --yes).
	Confirmed bool
	// Parent is the intent this one is part of ("" for none).
	Parent string
	// Numbers are the child numbers of algorithm Parent the order's client ids carry: the
	// intent's one commit before the signing takes them (record.Intent.Numbers).
	Numbers record.Numbers
	// Keystroke is when the trader pressed the key that sent it (zero: no keystroke, nothing of
	// its route is recorded); Clock is the clock it was read from, which the executor stamps the
	// route's signing and answer with (nil: the executor's Now).
	Keystroke time.Time
	Clock     func() time.Time
	// Records is the caller's stream's account of the order (nil: none): settling an answered
	// placement reads it before the exchange's fills and order records.
	Records Records
}

// Records is what a stream has said of the orders an action's caller sends (an algorithm's
// tape): the settle of an answered placement reads it before the exchange (Ask.Records), so a
// child whose record and fills the stream already brought costs no fills or order reads. It
// settles nothing else: a lost answer is still resolved by its client id at the exchange, and
// nothing is ever sent again.
type Records interface {
	// Settled is order oid's (client id cloid) record and its fills when the stream has them and
	// they agree: the record final, or open on the connection up, and the fills adding up to
	// exactly what the record says filled. It may wait, within ctx, for them to come; false: the
	// exchange is read instead.
	Settled(ctx context.Context, cloid string, oid api.OrderID) (api.OrderRecord, []api.Fill, bool)
}

// Cancel names one order to cancel, on its instrument: by exchange id (Oid) or by client id
// (Cloid), exactly one of them.
type Cancel struct {
	InstrumentID api.InstrumentID
	Oid          api.OrderID
	Cloid        string
}

// CancelMany names the orders a cancel of many takes: every open order on one instrument, or,
// with All, every open order on the account (the kill switch).
type CancelMany struct {
	InstrumentID api.InstrumentID
	All          bool
}

// MaxBatch is the most orders one placeOrder of a batch carries.
const MaxBatch = 100

// BatchResult is what became of a batch: the intent's Result (the first order's, every order's
// outcome named in its reason), and each order's, in the batch's order.
type BatchResult struct {
	Result
	Orders []Result
}

// BracketResult is what became of a bracket: the entry's Result, and each leg's (in the order of
// the bracket's wires after the entry).
type BracketResult struct {
	Result
	Legs []Result
}

// ModifyResult is what became of a cancel-and-replace: the cancel's result, and the
// replacement's when it was placed (nil when Stopped says why nothing was placed).
type ModifyResult struct {
	Cancel  Result
	Place   *Result
	Stopped string
	// OldFilled says the original filled (in full or in part) before it could be cancelled.
	OldFilled bool
}

// The journal kinds of the actions Do sends, beside an order's "place" and a cancel's "cancel".
const (
	ActTransfer = "transfer" // a spot or derivative transfer, or a move between the account's own sides
	ActWithdraw = "withdraw" // a spot or derivative withdrawal to a chain
	ActLeverage = "leverage" // a change of a perpetual's leverage
	ActAgent    = "agent"    // an agent wallet approved or revoked
	ActBroker   = "broker"   // a broker's fee approval, or its withdrawal
	ActVault    = "vault"    // a deposit into a vault or a redeem from one
)
