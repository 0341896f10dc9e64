package state

import (
	"math/big"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// Fallback precisions when an instrument reports no tick or lot size.
const (
	fallbackPriceDecimals = 2
	fallbackSizeDecimals  = 4
)

// Instrument is one tradable instrument, perpetual or spot, in one shape.
type Instrument struct {
	ID           api.InstrumentID
	Name         string
	Spot         bool
	PriceIndex   string
	TickSize     decimal.Decimal
	LotSize      decimal.Decimal
	MinNotional  decimal.Decimal // perps: min_notional_usd; spot: min_size_in_quote_asset
	MaxLeverage  decimal.Decimal // spot: 1
	MarginTiers  []api.MarginTier
	OnlyIsolated bool
	Delisted     bool
	ListedAt     time.Time
	Settlement   api.CollateralID // perps: the settlement collateral
	BaseAsset    api.CollateralID // spot only
	QuoteAsset   api.CollateralID // spot only
}

// InstrumentFromPerp converts a perpetual's terms.
func InstrumentFromPerp(p api.PerpInstrument) Instrument {
	return Instrument{
		ID: p.ID, Name: p.Name, PriceIndex: p.PriceIndex,
		TickSize: p.TickSize, LotSize: p.LotSize, MinNotional: p.MinNotionalUSD,
		MaxLeverage: p.MaxLeverage, MarginTiers: p.MarginTiers,
		OnlyIsolated: p.OnlyIsolated, Delisted: p.Delisted, ListedAt: p.ListedAt.Time,
		Settlement: p.SettlementCurrency,
	}
}

// InstrumentFromSpot converts a spot pair's terms.
func InstrumentFromSpot(p api.SpotInstrument) Instrument {
	return Instrument{
		ID: p.ID, Name: p.Name, Spot: true, PriceIndex: p.PriceIndex,
		TickSize: p.TickSize, LotSize: p.LotSize, MinNotional: p.MinSizeInQuoteAsset,
		MaxLeverage: decimal.NewFromInt(1), ListedAt: p.ListedAt.Time,
		BaseAsset: p.BaseAsset, QuoteAsset: p.QuoteAsset,
	}
}

// PriceDecimals is the number of decimals a price of this instrument shows: those of its tick size
// (0.5 -> 1, 0.01 -> 2, 10 -> 0).
func (in Instrument) PriceDecimals() int32 {
	if !in.TickSize.IsPositive() {
		return fallbackPriceDecimals
	}
	return StepDecimals(in.TickSize)
}

// SizeDecimals is the number of decimals a size of this instrument shows: those of its lot size.
func (in Instrument) SizeDecimals() int32 {
	if !in.LotSize.IsPositive() {
		return fallbackSizeDecimals
	}
	return StepDecimals(in.LotSize)
}

// PriceText writes a price of this instrument in the one number style: at its tick, with
// thousands separators ("97,000.1"). An instrument not known (no tick) writes the value at its own
// decimals, so nothing is rounded away.
func (in Instrument) PriceText(d decimal.Decimal) string {
	if !in.TickSize.IsPositive() {
		return FormatPrice(d, StepDecimals(d))
	}
	return FormatPrice(d, in.PriceDecimals())
}

// SizeText writes a size of this instrument at its lot ("0.1000"), like PriceText.
func (in Instrument) SizeText(d decimal.Decimal) string {
	if !in.LotSize.IsPositive() {
		return FormatSize(d, StepDecimals(d))
	}
	return FormatSize(d, in.SizeDecimals())
}

// Kind returns "spot" or "perp".
func (in Instrument) Kind() string {
	if in.Spot {
		return "spot"
	}
	return "perp"
}

// StepDecimals is the number of decimals needed to write step exactly, ignoring trailing zeros
// (0.010 -> 2, 5 -> 0, 100 -> 0).
func StepDecimals(step decimal.Decimal) int32 {
	exp := step.Exponent()
	if exp >= 0 {
		return 0
	}
	if step.NumDigits() <= 18 {
		// Every tick and lot: no big.Int (this runs for each price and size a pane formats).
		c := step.CoefficientInt64()
		for exp < 0 && c != 0 && c%10 == 0 {
			c /= 10
			exp++
		}
		return max(-exp, 0)
	}
	c := step.Coefficient()
	ten := big.NewInt(10)
	r := new(big.Int)
	for exp < 0 && c.Sign() != 0 {
		q, rem := new(big.Int).QuoRem(c, ten, r)
		if rem.Sign() != 0 {
			break
		}
		c = q
		exp++
	}
	if exp >= 0 {
		return 0
	}
	return -exp
}

// MaintenanceRate is the maintenance margin rate for a position of the given notional: the mmr of
// the highest margin tier whose threshold the notional reaches, or half the initial rate at max
// leverage when the instrument lists no tiers.
func (in Instrument) MaintenanceRate(notional decimal.Decimal) decimal.Decimal {
	if t, ok := in.tierFor(notional); ok && t.MMR.IsPositive() {
		return t.MMR
	}
	if in.MaxLeverage.IsPositive() {
		return decimal.NewFromInt(1).Div(in.MaxLeverage.Mul(decimal.NewFromInt(2)))
	}
	return decimal.NewFromFloat(0.05)
}

// MaintenanceTier is the maintenance margin rate and deduction for a position of the given
// notional: the mmr and mmd of the highest tier whose threshold it reaches, or MaintenanceRate and
// no deduction when the instrument lists no tiers.
func (in Instrument) MaintenanceTier(notional decimal.Decimal) (mmr, mmd decimal.Decimal) {
	if t, ok := in.tierFor(notional.Abs()); ok && t.MMR.IsPositive() {
		return t.MMR, t.MMD
	}
	return in.MaintenanceRate(notional.Abs()), decimal.Zero
}

// MaintenanceMargin is the maintenance margin of a position of the given notional: notional x mmr
// less the tier's deduction (mmd), never below zero.
func (in Instrument) MaintenanceMargin(notional decimal.Decimal) decimal.Decimal {
	mmr, mmd := in.MaintenanceTier(notional)
	mm := notional.Abs().Mul(mmr).Sub(mmd)
	if mm.IsNegative() {
		return decimal.Zero
	}
	return mm
}

// MaxLeverageAt is the highest leverage allowed for a position of the given notional: the tier's
// max leverage, or the instrument's when it lists no tiers.
func (in Instrument) MaxLeverageAt(notional decimal.Decimal) decimal.Decimal {
	if t, ok := in.tierFor(notional); ok && t.MaxLeverage.IsPositive() {
		return t.MaxLeverage
	}
	return in.MaxLeverage
}

func (in Instrument) tierFor(notional decimal.Decimal) (api.MarginTier, bool) {
	var best api.MarginTier
	found := false
	for _, t := range in.MarginTiers {
		if t.NotionalUSDThreshold.GreaterThan(notional) {
			continue
		}
		if !found || t.NotionalUSDThreshold.GreaterThan(best.NotionalUSDThreshold) {
			best, found = t, true
		}
	}
	return best, found
}
