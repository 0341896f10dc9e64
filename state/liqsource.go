package state

import "github.com/shopspring/decimal"

// Where a liquidation price came from (PositionLiquidation).
const (
	LiqFromExchange = "exchange" // the account summary's liquidation_price
	LiqFromEstimate = "estimate" // tradedesk's own estimate by api.Liquidation, the preview's rule
)

// LiqPosition is one position's liquidation price at the freshest mark, and where the price came
// from: the exchange's figure when the account summary carries one, else the estimate the order
// preview makes (api.Liquidation, with nothing added to the position). Source says which, so a
// monitor never silently uses the other rule.
type LiqPosition struct {
	Instrument string
	Mark       decimal.Decimal
	Price      decimal.Decimal // zero when no positive price liquidates the position
	Distance   decimal.Decimal // percent of the mark; zero when unknown
	Source     string          // LiqFromExchange or LiqFromEstimate
}

// PositionLiquidation is the liquidation price and distance of the open position on symbol; false
// when there is none or no mark is known.
func (s *Store) PositionLiquidation(symbol string) (LiqPosition, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	pos, ok := s.position(symbol)
	if !ok || pos.Size.IsZero() {
		return LiqPosition{}, false
	}
	t, _ := s.ticker(pos.Instrument)
	row := PositionView(pos, t, s.account())
	out := LiqPosition{Instrument: pos.Instrument, Mark: row.Mark, Source: LiqFromExchange}
	if !row.Mark.IsPositive() {
		return out, false
	}
	if row.Liquidation.IsPositive() {
		out.Price, out.Distance = row.Liquidation, row.LiqDistance
		return out, true
	}
	inst, ok := s.findInstrument(pos.Instrument)
	if !ok {
		return out, false
	}
	c := &checker{s: s}
	c.out.Instrument, c.out.Mark = inst, row.Mark
	lev := pos.Leverage
	if !lev.IsPositive() {
		lev = decimal.NewFromInt(1)
	}
	out.Source = LiqFromEstimate
	out.Price = c.liquidation(pos, decimal.Zero, lev, row.Mark, decimal.Zero)
	out.Distance = LiquidationDistance(out.Price, row.Mark)
	return out, true
}
