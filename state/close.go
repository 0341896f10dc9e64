package state

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// The rules of the position keys, once for every front end (the positions pane, the `:` line and
// the headless commands): a partial close, a reverse, flatten all and stop to breakeven. Each
// plan is checked by CheckOrder as every other order is; nothing here signs.

// ClosePricing is how a close is priced.
type ClosePricing int

// Ways to price a close: at market (its worst price bounded by the slippage, as every market
// order), or as a reduce-only GTC limit at the mid, at the best price on the closing side of the
// book (a sell joins the best ask, a buy the best bid: it rests as a maker), or at a typed price.
const (
	CloseAtMarket ClosePricing = iota
	CloseAtMid
	CloseAtBest
	CloseAtPrice
)

// String is the pricing in words, for previews.
func (p ClosePricing) String() string {
	switch p {
	case CloseAtMid:
		return "limit at the mid"
	case CloseAtBest:
		return "limit at the best price"
	case CloseAtPrice:
		return "limit"
	}
	return "market"
}

// CloseRequest is what a trader asks to close: a share of the position (Percent, 0 < P <= 100)
// or a size (Size), priced by Pricing (Price for CloseAtPrice).
type CloseRequest struct {
	Instrument string
	Percent    decimal.Decimal
	Size       decimal.Decimal
	Pricing    ClosePricing
	Price      decimal.Decimal
	Slippage   decimal.Decimal // market only; zero: DefaultSlippage
	Cloid      string
}

// ClosePlan is a checked close: the order, and what it realises.
type ClosePlan struct {
	Position  api.Position
	Order     CheckedOrder
	Intent    OrderIntent
	Size      decimal.Decimal // what it closes (lots, never above the position)
	Remaining decimal.Decimal // the position's size (absolute) once it fills
	// PnL is what the close realises at its expected price (the book's average for a market
	// order, its limit otherwise), before fees; Fee is the preview's fee.
	PnL, Fee decimal.Decimal
}

// CloseSize is the size a close of percent (0 < P <= 100, or zero when size is given) or of size
// takes from a position of abs size held: rounded down to the lot, so it never exceeds the
// position and never flips it; 100 % is the whole position exactly.
func CloseSize(held, lot, percent, size decimal.Decimal) (decimal.Decimal, error) {
	switch {
	case !held.IsPositive():
		return decimal.Zero, FieldError{Field: FieldSize, Msg: "there is no position to close"}
	case percent.IsPositive() && size.IsPositive():
		return decimal.Zero, FieldError{Field: FieldSize, Msg: "give a share (25%) or a size, not both"}
	case percent.IsPositive() && percent.GreaterThan(hundred):
		return decimal.Zero, FieldError{Field: FieldSize, Msg: fmt.Sprintf("%s%% is more than the whole position: give 1 to 100%%", percent)}
	case size.GreaterThan(held):
		return decimal.Zero, FieldError{Field: FieldSize, Msg: fmt.Sprintf("%s is more than the position's %s: a close never flips it; give at most %s", size, held, held)}
	case percent.Equal(hundred) || size.Equal(held):
		return held, nil
	case !percent.IsPositive() && !size.IsPositive():
		return decimal.Zero, FieldError{Field: FieldSize, Msg: "give a share (25%) or a size to close"}
	}
	want := size
	if percent.IsPositive() {
		want = held.Mul(percent).Div(hundred)
	}
	if lot.IsPositive() {
		want = FloorToStep(want, lot)
	}
	if !want.IsPositive() {
		return decimal.Zero, FieldError{Field: FieldSize, Msg: fmt.Sprintf("that is less than one lot (%s) of the position's %s", lot, held)}
	}
	return want, nil
}

// closingSide is the side that closes pos.
func closingSide(pos api.Position) string {
	if pos.Size.IsNegative() {
		return api.SideBuy
	}
	return api.SideSell
}

// PlanClose checks a close of the request's share or size of its instrument's position, at
// market or as a reduce-only limit: CheckOrder with g, as the order form. Problems are field
// errors saying what to fix.
func (s *Store) PlanClose(req CloseRequest, g Guard) (ClosePlan, []FieldError) {
	var plan ClosePlan
	pos, ok := s.Position(req.Instrument)
	if !ok || pos.Size.IsZero() {
		return plan, []FieldError{{Field: FieldInstrument, Msg: "no open position on " + text.Brief(req.Instrument) + " to close"}}
	}
	inst, ok := s.Instrument(pos.Instrument)
	if !ok {
		return plan, []FieldError{{Field: FieldInstrument, Msg: "instrument " + text.Brief(pos.Instrument) + " is not loaded yet; wait a moment"}}
	}
	size, err := CloseSize(pos.Size.Abs(), inst.LotSize, req.Percent, req.Size)
	if err != nil {
		return plan, []FieldError{err.(FieldError)}
	}
	side := closingSide(pos)
	in := OrderIntent{Instrument: pos.Instrument, Side: side, Size: size.String(), ReduceOnly: true, Cloid: req.Cloid, Slippage: req.Slippage}
	if req.Pricing == CloseAtMarket {
		in.Type = Market
	} else {
		px, fe := s.closeLimit(req, inst, side)
		if fe != nil {
			return plan, []FieldError{*fe}
		}
		in.Type, in.Price, in.Tif = Limit, px.String(), api.TifGTC
	}
	co, errs := s.CheckOrder(in, g)
	plan = ClosePlan{Position: pos, Order: co, Intent: in, Size: size, Remaining: pos.Size.Abs().Sub(size), Fee: co.Preview.Fee}
	plan.PnL = realised(pos, size, expectedPrice(co))
	return plan, errs
}

// closeLimit is the limit price of a close priced at the mid, the best price or a typed price,
// on the tick: the mid rounded away from the book (up for a sell), so it never crosses more
// than the mid does.
func (s *Store) closeLimit(req CloseRequest, inst Instrument, side string) (decimal.Decimal, *FieldError) {
	var px decimal.Decimal
	switch req.Pricing {
	case CloseAtPrice:
		if !req.Price.IsPositive() {
			return px, &FieldError{Field: FieldPrice, Msg: "give the close's limit price"}
		}
		return req.Price, nil
	case CloseAtMid:
		m, ok := s.Mid(inst.Name)
		if !ok || !m.IsPositive() {
			return px, &FieldError{Field: FieldPrice, Msg: "no mid price for " + inst.Name + " yet; wait for market data or type a price"}
		}
		px = m
	default:
		b := s.BookWindow(inst.Name, decimal.Zero, 1)
		px = b.BestBid
		if side == api.SideSell {
			px = b.BestAsk
		}
		if !px.IsPositive() {
			return px, &FieldError{Field: FieldPrice, Msg: "no book for " + inst.Name + " yet; close at the mid or type a price"}
		}
	}
	if side == api.SideSell {
		return CeilToStep(px, inst.TickSize), nil
	}
	return FloorToStep(px, inst.TickSize), nil
}

// expectedPrice is where an order is expected to fill: the book's average for what takes
// liquidity, else its price.
func expectedPrice(co CheckedOrder) decimal.Decimal {
	if w := co.Preview.Walk; w.AvgPrice.IsPositive() {
		return w.AvgPrice
	}
	return co.Price
}

// realised is what closing size of pos at px realises, before fees.
func realised(pos api.Position, size, px decimal.Decimal) decimal.Decimal {
	if !px.IsPositive() {
		return decimal.Zero
	}
	d := px.Sub(pos.EntryPrice).Mul(size)
	if pos.Size.IsNegative() {
		d = d.Neg()
	}
	return d
}

// Words is the close in one line, for previews and results: "close 50% of BTC-PERP: sell 0.05
// at market, realises +12.30 USD, fee 2.10 USD, 0.05 left".
func (p ClosePlan) Words() string {
	in := p.Order.Instrument
	sd := in.SizeDecimals()
	how := "at market"
	if p.Intent.Type == Limit {
		how = "reduce-only limit at " + FormatPrice(p.Order.Price, in.PriceDecimals())
	}
	left := "the whole position"
	if p.Remaining.IsPositive() {
		left = FormatSize(p.Remaining, sd) + " left"
	}
	return fmt.Sprintf("close %s %s %s %s: realises %s USD, fee %s USD, %s", in.Name, sideWord(p.Intent.Side), FormatSize(p.Size, sd), how,
		FormatSigned(p.PnL, 2), FormatUSDFee(p.Fee), left)
}

// sideWord is "buy" or "sell".
func sideWord(side string) string {
	if side == api.SideBuy {
		return "buy"
	}
	return "sell"
}

// ParseCloseShare reads a close's size as a trader types it: a share of the position ("25%",
// 1 to 100) or a size ("0.05").
func ParseCloseShare(s string) (percent, size decimal.Decimal, err error) {
	s = strings.TrimSpace(s)
	if p, ok := strings.CutSuffix(s, "%"); ok {
		v, err := ParsePositive(FieldSize, "share", p)
		if err == nil && (!v.IsPositive() || v.GreaterThan(hundred)) {
			err = FieldError{Field: FieldSize, Msg: "a share is 1 to 100%, e.g. 25%"}
		}
		return v, decimal.Zero, err
	}
	v, err := ParsePositive(FieldSize, "size", s)
	if err == nil && !v.IsPositive() {
		err = FieldError{Field: FieldSize, Msg: "the size must be more than zero"}
	}
	return decimal.Zero, v, err
}

// Realised is what pos realises closing size at px (an average fill price), before fees: the
// result line's figure, as Words gives the preview's.
func Realised(pos api.Position, size, px decimal.Decimal) decimal.Decimal {
	return realised(pos, size, px)
}
