package state

import (
	"crypto/rand"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// OrderType is the kind of order a trader asks for.
type OrderType int

// Order types.
const (
	Limit   OrderType = iota // rests at a price
	Market                   // fills now, up to a worst price from the mid and the slippage
	Trigger                  // take-profit or stop-loss: waits for the trigger price
)

// String returns "limit", "market" or "trigger".
func (t OrderType) String() string {
	switch t {
	case Limit:
		return "limit"
	case Market:
		return "market"
	case Trigger:
		return "trigger"
	}
	return fmt.Sprintf("ordertype(%d)", int(t))
}

// Field names used in FieldError.Field.
const (
	FieldInstrument = "instrument"
	FieldSide       = "side"
	FieldType       = "type"
	FieldPrice      = "price"
	FieldSize       = "size"
	FieldNotional   = "notional"
	FieldTrigger    = "trigger"
	FieldTpsl       = "tpsl"
	FieldTif        = "tif"
	FieldCloid      = "cloid"
	FieldSlippage   = "slippage"
	FieldOrder      = "order" // the order as a whole (margin, leverage, market data, reduce-only...)
)

// DefaultSlippage is the worst-price bound of market orders when the intent gives none: 1%.
var DefaultSlippage = decimal.RequireFromString("0.01")

// maxSlippage is the largest slippage bound CheckOrder accepts (50%).
var maxSlippage = decimal.RequireFromString("0.5")

// OrderIntent is an order as the trader typed it: numbers are raw text, checked by CheckOrder.
type OrderIntent struct {
	Instrument  string // name (case-insensitive) or numeric id
	Side        string // "b" or "s" ("buy", "sell", "long", "short" are accepted too)
	Type        OrderType
	Price       string // limit price; for a trigger order, empty means it executes at market
	Size        string
	TriggerPx   string // trigger orders only
	NotionalUSD string // used when Size is empty: converted to a size at the price (or mid), rounded down to the lot
	Tif         string // GTC (default), IOC or FOK; market orders are IOC
	ReduceOnly  bool
	PostOnly    bool
	Tpsl        string          // "tp" or "sl", trigger orders only
	Cloid       string          // empty: a new UUID v4 is made
	Slippage    decimal.Decimal // market worst-price bound as a fraction (0.01 = 1%); zero means DefaultSlippage
}

// FieldError is one problem with an intent: which field, what is wrong and how to fix it, and a
// value to offer (for example the price rounded to the tick). Suggest is never applied by CheckOrder.
type FieldError struct {
	Field   string
	Msg     string
	Suggest string
}

// Error returns "field: message".
func (e FieldError) Error() string { return e.Field + ": " + e.Msg }

// Guard holds the fat-finger limits; a zero limit is off.
type Guard struct {
	MaxPriceDistance  decimal.Decimal // fraction of the mark (0.05 = 5%)
	MaxNotional       decimal.Decimal // USD
	MaxMarketNotional decimal.Decimal // USD, market orders
	Confirm           ConfirmPolicy   // which orders ask for a confirmation ("": ConfirmRisky)
}

// DefaultGuard is 5% from the mark, 100,000 USD for any order and 25,000 USD for a market order,
// and the ConfirmRisky policy.
func DefaultGuard() Guard {
	return Guard{
		MaxPriceDistance:  decimal.RequireFromString("0.05"),
		MaxNotional:       decimal.NewFromInt(100000),
		MaxMarketNotional: decimal.NewFromInt(25000),
		Confirm:           ConfirmRisky,
	}
}

// Preview is what an order would cost and do to the account.
type Preview struct {
	Notional            decimal.Decimal // size x price (an order the book fills whole at once: what the walk expects it to cost)
	Fee                 decimal.Decimal // at the taker rate when it would take liquidity, else maker
	Taker               bool
	MarginRequired      decimal.Decimal // initial margin the exchange sets aside for it (zero when it only reduces)
	FeeReserve          decimal.Decimal // taker fee on the whole size the exchange requires available beside the margin
	Leverage            decimal.Decimal // the leverage margin was computed at
	UtilizationAfter    decimal.Decimal // account initial margin utilization after the order, percent
	LiquidationEstimate decimal.Decimal // estimated liquidation price of the resulting position; zero if none
	// MarginPrice is the price the exchange values the order's margin at (api.MarginOrder: the
	// highest of the mark, the price as signed and the trigger), and MarginBasis which of them it
	// is (MarginAtPrice, MarginAtMark, MarginAtTrigger); zero and "" for spot.
	MarginPrice decimal.Decimal
	MarginBasis string
	// Walk is what the order book gives an order that takes liquidity (market, crossing limit):
	// expected average, slippage, how much fills within the price; Known is false otherwise.
	Walk BookWalk
}

// CheckedOrder is an intent that passed (or partly passed) CheckOrder: the wire order to sign, the
// instrument, the preview, and whether the fat-finger guard asks for a typed confirmation.
type CheckedOrder struct {
	Wire       api.OrderWire
	Instrument Instrument
	Preview    Preview
	Price      decimal.Decimal // limit price, or the worst price of a market order
	Size       decimal.Decimal
	Mark       decimal.Decimal // mark price used by the guard (zero if unknown)
	// Mid is the instrument's mid when the order was checked (zero if unknown): its arrival
	// price for the report card, a resting order's too.
	Mid               decimal.Decimal
	NeedsTypedConfirm bool
	// NeedsConfirm is whether the guard's ConfirmPolicy asks the trader to confirm this order
	// before it is signed (always when NeedsTypedConfirm is).
	NeedsConfirm bool
	// Rests is whether a limit order cannot cross the book as it stands (it rests and fills only
	// at its price or better, as a maker); false for a limit order that crosses, or when the book's
	// best prices are not known.
	Rests    bool
	Warnings []string // the guard's findings in plain words
	// PricesStale is how old the market data behind the preview and the guard is when it is
	// stale (as every pane would say); zero when it is fresh.
	PricesStale time.Duration
}

// ClosePositionIntent is the intent that closes pos: a reduce-only market order for its full size
// on the other side. It goes through CheckOrder like any other intent.
func ClosePositionIntent(pos api.Position) OrderIntent {
	side := api.SideSell
	if pos.Size.IsNegative() {
		side = api.SideBuy
	}
	return OrderIntent{
		Instrument: pos.Instrument,
		Side:       side,
		Type:       Market,
		Size:       pos.Size.Abs().String(),
		ReduceOnly: true,
	}
}

// NewCloid returns a fresh client order id, a random UUID v4.
func NewCloid() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("state: crypto/rand failed: " + err.Error())
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

var numberRe = regexp.MustCompile(`^-?([0-9]+\.?[0-9]*|\.[0-9]+)$`)

// maxNumberLen bounds what ParsePositive accepts, so absurd input never reaches big arithmetic.
const maxNumberLen = 40

// ParsePositive reads a number a trader typed (digits with an optional decimal point) that must be
// above zero. label names it in the message ("price", "amount"); field goes into the FieldError.
func ParsePositive(field, label, raw string) (decimal.Decimal, error) {
	s := strings.TrimSpace(raw)
	switch {
	case s == "":
		return decimal.Zero, FieldError{Field: field, Msg: "enter a " + label}
	case len(s) > maxNumberLen:
		return decimal.Zero, FieldError{Field: field, Msg: fmt.Sprintf("%s is too long (at most %d characters)", label, maxNumberLen)}
	case !numberRe.MatchString(s):
		return decimal.Zero, FieldError{Field: field, Msg: fmt.Sprintf("%s %s is not a number: type digits with an optional decimal point, e.g. 0.25", label, text.Quote(s))}
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero, FieldError{Field: field, Msg: fmt.Sprintf("%s %s is not a number: type digits with an optional decimal point, e.g. 0.25", label, text.Quote(s))}
	}
	if d.IsNegative() {
		return decimal.Zero, FieldError{Field: field, Msg: fmt.Sprintf("%s must be positive, not %s", label, text.Brief(s))}
	}
	if d.IsZero() {
		return decimal.Zero, FieldError{Field: field, Msg: label + " must be more than zero"}
	}
	return d, nil
}

// normalizeSide turns what a trader typed into "b" or "s".
func normalizeSide(s string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "b", "buy", "long":
		return api.SideBuy, true
	case "s", "sell", "short":
		return api.SideSell, true
	}
	return "", false
}

// RoundToStep rounds v to the nearest multiple of step (half away from zero); a step of zero or
// less returns v unchanged.
func RoundToStep(v, step decimal.Decimal) decimal.Decimal {
	if !step.IsPositive() {
		return v
	}
	return v.DivRound(step, 0).Mul(step)
}

// FloorToStep rounds v down to a multiple of step.
func FloorToStep(v, step decimal.Decimal) decimal.Decimal {
	if !step.IsPositive() {
		return v
	}
	q, r := v.QuoRem(step, 0)
	if r.IsNegative() {
		q = q.Sub(one)
	}
	return q.Mul(step)
}

// CeilToStep rounds v up to a multiple of step.
func CeilToStep(v, step decimal.Decimal) decimal.Decimal {
	if !step.IsPositive() {
		return v
	}
	q, r := v.QuoRem(step, 0)
	if r.IsPositive() {
		q = q.Add(one)
	}
	return q.Mul(step)
}

// OnStep reports whether v is a whole multiple of step (always true for a step of zero or less).
func OnStep(v, step decimal.Decimal) bool {
	if !step.IsPositive() {
		return true
	}
	return v.Mod(step).IsZero()
}
