package algo

import "github.com/shopspring/decimal"

// SlippageBp is the average fill against the arrival price in basis points, positive when worse
// (above it for a buy, below it for a sell); zero before anything filled.
func (p Progress) SlippageBp() decimal.Decimal {
	if !p.Arrival.IsPositive() || !p.Filled.IsPositive() {
		return decimal.Zero
	}
	d := p.AvgPrice.Sub(p.Arrival)
	if p.Side == "sell" {
		d = d.Neg()
	}
	return d.Div(p.Arrival).Mul(decimal.NewFromInt(10000)).Round(2)
}

// SlippageTicks is the same distance in ticks of size tick (positive when worse).
func (p Progress) SlippageTicks(tick decimal.Decimal) decimal.Decimal {
	if !p.Arrival.IsPositive() || !p.Filled.IsPositive() || !tick.IsPositive() {
		return decimal.Zero
	}
	d := p.AvgPrice.Sub(p.Arrival)
	if p.Side == "sell" {
		d = d.Neg()
	}
	return d.Div(tick).Round(1)
}
