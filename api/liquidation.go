package api

import "github.com/shopspring/decimal"

// Liquidation is one perpetual position as the exchange's liquidation rule sees it.
// Liquidation.Price is the one rule: the simulator reports liquidation_price with it and the
// console estimates a previewed order's liquidation price with it, so the two agree to the unit
// when the inputs do.
//
// The rule: the position is liquidated at the mark P where the margin it draws on, with its own
// PnL at P, falls to the maintenance margin it and the others on that margin need:
//
//	Equity + Size*P - Cost = OtherMM + MMR*|Size|*P - MMD
//
// holding every other figure (other positions' PnL and maintenance margin, the tier) still.
type Liquidation struct {
	Size decimal.Decimal // signed size (negative: short)
	Cost decimal.Decimal // signed cost: Size x entry price
	// Equity is what the position's margin holds without its own PnL: for a cross position the
	// cross equity (collateral at its weighted value plus the other cross positions' PnL, after
	// any fee paid), for an isolated one its isolated margin.
	Equity decimal.Decimal
	// OtherMM is the maintenance margin of the other positions on the same margin (cross: every
	// other cross position; isolated: zero).
	OtherMM decimal.Decimal
	MMR     decimal.Decimal // the maintenance margin rate of the position's tier
	MMD     decimal.Decimal // the tier's maintenance deduction
}

// Price is the mark at which the position is liquidated, to 8 places; zero when the position is
// flat or no positive price liquidates it (a fully covered position).
func (l Liquidation) Price() decimal.Decimal {
	den := l.Size.Sub(l.Size.Abs().Mul(l.MMR))
	if den.IsZero() {
		return decimal.Zero
	}
	num := l.OtherMM.Sub(l.MMD).Sub(l.Equity).Add(l.Cost)
	p := num.DivRound(den, 8)
	if !p.IsPositive() {
		return decimal.Zero
	}
	return p
}
