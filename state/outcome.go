package state

import (
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// OutcomeKind says what the exchange did with an order or a cancel.
type OutcomeKind int

const (
	// OutcomeSent: the exchange took the transaction, but its answer does not say what became of
	// the order (no readable status).
	OutcomeSent OutcomeKind = iota
	// OutcomePlaced: the order has an id and nothing of it filled on arrival.
	OutcomePlaced
	// OutcomeFilled: some or all of the order filled on arrival.
	OutcomeFilled
	// OutcomeRejected: the exchange refused the order; Reason says why.
	OutcomeRejected
	// OutcomeCancelled: the cancel of one order worked.
	OutcomeCancelled
	// OutcomeCancelFailed: the exchange did not cancel the order; Reason says why.
	OutcomeCancelFailed
	// OutcomeCancelledCount: a cancel of many orders (an instrument's, or all) worked; Count says
	// how many.
	OutcomeCancelledCount
	// OutcomeUnfilled: the order got an id, nothing of it filled and nothing rests (an IOC or
	// market order with nothing to take within its bound, a FOK that could not fill whole).
	OutcomeUnfilled
)

// Outcome is the one reading of the exchange's answer to an order or a cancel: the console's
// status line and the headless commands both word it from here. A transaction can succeed while
// the order in it was rejected: that is OutcomeRejected, a failure to the trader.
type Outcome struct {
	Kind OutcomeKind
	// Oid is the exchange's order id (0 when the order got none).
	Oid api.OrderID
	// Resting is true when the order, or what is left of it, rests on the book.
	Resting bool
	// Requested is the size the order asked for (zero when the caller did not say).
	Requested decimal.Decimal
	// Filled is the size that filled on arrival (zero when none, or when the answer does not say).
	Filled decimal.Decimal
	// AvgPrice is the average price of what filled, when the answer says.
	AvgPrice api.OptDecimal
	// Reason is the exchange's words for a rejection or a failed cancel.
	Reason string
	// Count is how many orders a cancel of many cancelled.
	Count int
	// TxHash is the transaction's hash ("" when the answer has none).
	TxHash string
}

// OrderOutcome reads the answer to a placed order of the given requested size (the first order
// of the transaction).
func OrderOutcome(resp api.TxResponse, requested decimal.Decimal) Outcome {
	return OrderOutcomes(resp, []decimal.Decimal{requested})[0]
}

// OrderOutcomes reads the answer to a transaction of several orders, one outcome per requested
// size, each order's own. An answer that cannot be read, or that lists a different number of
// orders, is OutcomeSent for every order: what became of them is unknown, never success.
func OrderOutcomes(resp api.TxResponse, requested []decimal.Decimal) []Outcome {
	out := make([]Outcome, len(requested))
	for i, r := range requested {
		out[i] = Outcome{Kind: OutcomeSent, Requested: r, TxHash: resp.TxHash}
	}
	sts, err := resp.OrderStatuses()
	if err != nil || len(sts) != len(requested) {
		return out
	}
	for i, s := range sts {
		out[i].read(s)
	}
	return out
}

// read fills the outcome in from one order's status.
func (o *Outcome) read(s api.OrderStatus) {
	o.Oid, o.Resting = s.Oid, s.Resting
	switch {
	case s.Error != "":
		o.Kind, o.Reason = OutcomeRejected, s.Error
	case s.TotalSize.Valid && s.TotalSize.Decimal.IsPositive():
		o.Kind, o.Filled, o.AvgPrice = OutcomeFilled, s.TotalSize.Decimal, s.AvgPrice
	case s.Filled:
		o.Kind = OutcomeFilled
	case s.State == "cancelled":
		o.Kind = OutcomeUnfilled
	default:
		o.Kind = OutcomePlaced
	}
}

// CancelOutcome reads the answer to the cancel of one order. An answer without readable statuses
// counts as cancelled: the transaction succeeded and named no error.
func CancelOutcome(resp api.TxResponse) Outcome {
	out := Outcome{Kind: OutcomeCancelled, TxHash: resp.TxHash}
	if sts, err := resp.CancelStatuses(); err == nil && len(sts) > 0 && !sts[0].OK {
		out.Kind, out.Reason = OutcomeCancelFailed, sts[0].Error
	}
	return out
}

// CancelManyOutcome reads the answer to a cancel of an instrument's orders or of all orders: how
// many were cancelled, or OutcomeSent when the answer does not say.
func CancelManyOutcome(resp api.TxResponse) Outcome {
	out := Outcome{Kind: OutcomeSent, TxHash: resp.TxHash}
	if n, err := resp.CancelCount(); err == nil {
		out.Kind, out.Count = OutcomeCancelledCount, n
	}
	return out
}

// Failed reports whether what the trader asked for did not happen: the order was rejected or the
// cancel failed.
func (o Outcome) Failed() bool {
	return o.Kind == OutcomeRejected || o.Kind == OutcomeCancelFailed
}

// FillKnown reports whether the answer says how much filled and at what average price.
func (o Outcome) FillKnown() bool {
	return o.Kind == OutcomeFilled && o.Filled.IsPositive() && o.AvgPrice.Valid
}

// Remaining is the part of the requested size that did not fill on arrival: zero when the
// requested size is unknown, when everything filled, or when the answer said "filled" without a
// size (the exchange's way of saying all of it).
func (o Outcome) Remaining() decimal.Decimal {
	sizeless := o.Kind == OutcomeFilled && !o.Filled.IsPositive()
	if sizeless || !o.Requested.IsPositive() || o.Filled.GreaterThanOrEqual(o.Requested) {
		return decimal.Zero
	}
	return o.Requested.Sub(o.Filled)
}

// Partial reports whether the order filled only in part on arrival and nothing of it rests: the
// rest was cancelled (a market order's slippage bound, an IOC's price).
func (o Outcome) Partial() bool {
	return o.Kind == OutcomeFilled && !o.Resting && o.Remaining().IsPositive()
}

// Word is the outcome in one word, as scripts read it: filled, partial (filled in part, the rest
// cancelled), resting, accepted (an id, neither resting nor filled), unfilled (an id, nothing
// filled, nothing rests), rejected, cancelled, failed, or sent (the answer did not say).
func (o Outcome) Word() string {
	switch o.Kind {
	case OutcomeFilled:
		if o.Partial() {
			return "partial"
		}
		return "filled"
	case OutcomePlaced:
		if o.Resting {
			return "resting"
		}
		return "accepted"
	case OutcomeRejected:
		return "rejected"
	case OutcomeCancelled, OutcomeCancelledCount:
		return "cancelled"
	case OutcomeCancelFailed:
		return "failed"
	case OutcomeUnfilled:
		return "unfilled"
	}
	return "sent"
}

// FillTotal is what one order's fills add up to: the size filled, its size-weighted average
// price and the fees paid (negative: a rebate).
type FillTotal struct {
	Instrument string
	Side       string
	OrderID    api.OrderID
	Size       decimal.Decimal
	AvgPrice   decimal.Decimal
	Fee        decimal.Decimal
	Count      int // fills added up
}

// SumFills adds fills up per order, orders in the order they first appear: a market order that
// took five levels of the book is one total, not its first piece.
func SumFills(fs []api.Fill) []FillTotal {
	var out []FillTotal
	at := map[api.OrderID]int{}
	cost := map[api.OrderID]decimal.Decimal{}
	for _, f := range fs {
		i, ok := at[f.OrderID]
		if !ok {
			i = len(out)
			at[f.OrderID] = i
			out = append(out, FillTotal{Instrument: f.Instrument, Side: f.Side, OrderID: f.OrderID})
		}
		t := &out[i]
		t.Size = t.Size.Add(f.Size)
		t.Fee = t.Fee.Add(f.Fee)
		t.Count++
		cost[f.OrderID] = cost[f.OrderID].Add(f.Size.Mul(f.Price))
	}
	for i := range out {
		if out[i].Size.IsPositive() {
			out[i].AvgPrice = cost[out[i].OrderID].Div(out[i].Size)
		}
	}
	return out
}

// RemainderFate words what became of the part of an order that did not fill on arrival, for an
// order of the given time in force (market: a market order): "resting", or "cancelled: " and why.
// Console and headless both say it from here.
func RemainderFate(o Outcome, tif string, market bool) string {
	switch {
	case o.Resting:
		return "resting"
	case market:
		return "cancelled: no more liquidity within the slippage bound"
	case tif == api.TifFOK:
		return "cancelled: FOK not fillable in full"
	case tif == api.TifIOC:
		return "cancelled: IOC, no more liquidity at its price"
	}
	return "cancelled"
}
