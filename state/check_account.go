package state

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// account checks the order against the account: margin mode, leverage, available margin (perps) or
// balance (spot), and fills in the margin side of the preview.
func (c *checker) account() {
	if c.out.Instrument.Spot {
		c.spotBalance()
		return
	}
	c.onlyIsolated()
	lev := c.s.leverageFor(c.out.Instrument)
	c.out.Preview.Leverage = lev
	pos, _ := c.s.position(c.out.Instrument.Name)
	signed := c.size
	if c.side == api.SideSell {
		signed = signed.Neg()
	}
	increase := increasingPart(pos.Size, signed)
	margin := MarginRequired(Notional(increase, c.ref), lev)
	c.out.Preview.MarginRequired = margin
	c.out.Preview.UtilizationAfter = MarginUtilizationAfter(c.s.account(), margin)
	c.out.Preview.LiquidationEstimate = c.liquidation(pos, signed, lev)
	if c.in.ReduceOnly || increase.IsZero() {
		return
	}
	c.maxLeverage(pos.Size.Add(signed), lev)
	c.availableMargin(pos.Size, margin, lev)
}

// increasingPart is how much of an order of signed size q adds to a position of signed size pos:
// all of it when it adds, the part beyond the position when it flips it, none when it only reduces.
func increasingPart(pos, q decimal.Decimal) decimal.Decimal {
	if pos.IsZero() || pos.Sign() == q.Sign() {
		return q.Abs()
	}
	if q.Abs().GreaterThan(pos.Abs()) {
		return q.Abs().Sub(pos.Abs())
	}
	return decimal.Zero
}

// DefaultLeverage is the leverage assumed on an instrument the account has no setting or position
// on (capped at the instrument's maximum): the exchange's starting leverage.
var DefaultLeverage = decimal.NewFromInt(10)

// leverageFor is the leverage the account trades inst at: its leverage setting, else the open
// position's, else the account summary's leg, else DefaultLeverage capped at the instrument's max.
func (s *Store) leverageFor(inst Instrument) decimal.Decimal {
	if l, ok := s.leverage(inst.Name); ok && l.Leverage.IsPositive() {
		return l.Leverage
	}
	if p, ok := s.position(inst.Name); ok && p.Leverage.IsPositive() {
		return p.Leverage
	}
	if ps, ok := s.account().PerpPositions[inst.Name]; ok {
		for _, leg := range ps.Legs {
			if leg.Leverage.Value.IsPositive() {
				return leg.Leverage.Value
			}
		}
	}
	if inst.MaxLeverage.IsPositive() && inst.MaxLeverage.LessThan(DefaultLeverage) {
		return inst.MaxLeverage
	}
	return DefaultLeverage
}

// marginModeFor is cross or isolated for inst: its leverage setting, else the open position, else
// the account; "" when none is known.
func (s *Store) marginModeFor(inst Instrument) string {
	if l, ok := s.leverage(inst.Name); ok && l.MarginType != "" {
		return strings.ToLower(l.MarginType)
	}
	if p, ok := s.position(inst.Name); ok && p.MarginMode != "" {
		return strings.ToLower(p.MarginMode)
	}
	return strings.ToLower(s.account().MarginMode)
}

func (c *checker) onlyIsolated() {
	inst := c.out.Instrument
	if inst.OnlyIsolated && c.s.marginModeFor(inst) == api.MarginCross {
		c.fail(FieldOrder, inst.Name+" allows isolated margin only and the account trades it in cross; switch "+inst.Name+" to isolated margin first", "")
	}
}

// maxLeverage rejects a leverage setting above what the margin tiers allow for the resulting position.
func (c *checker) maxLeverage(after, lev decimal.Decimal) {
	inst := c.out.Instrument
	n := Notional(after, c.ref)
	max := inst.MaxLeverageAt(n)
	if !max.IsPositive() || lev.LessThanOrEqual(max) {
		return
	}
	c.fail(FieldOrder, fmt.Sprintf("leverage %sx is over the %sx allowed for a %s USD position on %s; lower the leverage or the size",
		lev, max, FormatPrice(n, 2), inst.Name), "")
}

// availableMargin rejects an order whose margin and fee exceed the available balance, offering the
// largest size that fits.
func (c *checker) availableMargin(pos, margin, lev decimal.Decimal) {
	if c.s.kinds[KindAccount].at.IsZero() {
		c.fail(FieldOrder, "the account is not loaded yet, so margin cannot be checked; wait a moment", "")
		return
	}
	avail := c.s.account().AvailableBalance
	fee := c.out.Preview.Fee
	need := margin.Add(fee)
	if need.LessThanOrEqual(avail) {
		return
	}
	inst := c.out.Instrument
	closing := decimal.Zero
	if !pos.IsZero() && (pos.IsPositive() != (c.side == api.SideBuy)) {
		closing = pos.Abs()
	}
	perUnit := c.ref.Div(lev).Add(c.s.fees.Estimate(c.ref, c.out.Preview.Taker))
	// The fee is charged on the closing part too, so only what it leaves buys the excess.
	room := decimal.Max(avail.Sub(c.s.fees.Estimate(Notional(closing, c.ref), c.out.Preview.Taker)), decimal.Zero)
	suggest := ""
	if perUnit.IsPositive() && avail.IsPositive() {
		if max := FloorToStep(closing.Add(room.Div(perUnit)), inst.LotSize); max.IsPositive() {
			suggest = max.String()
		}
	}
	msg := fmt.Sprintf("needs %s USD of margin and fees at %sx but only %s USD is available", FormatPrice(need, 2), lev, FormatPrice(avail, 2))
	if suggest != "" {
		msg += "; use a size of at most " + suggest
	}
	c.fail(FieldSize, msg, suggest)
}

// liquidation estimates the liquidation price of the position the order leaves.
func (c *checker) liquidation(pos api.Position, signed, lev decimal.Decimal) decimal.Decimal {
	inst := c.out.Instrument
	q := pos.Size.Add(signed)
	if q.IsZero() {
		return decimal.Zero
	}
	entry := resultingEntry(pos.Size, pos.EntryPrice, signed, c.ref)
	notional := Notional(q, entry)
	mm := inst.MaintenanceMargin(notional)
	equity := MarginRequired(notional, lev)
	if c.s.marginModeFor(inst) != api.MarginIsolated && !c.s.kinds[KindAccount].at.IsZero() {
		equity, mm = c.crossEquity(pos, mm)
	}
	return LiquidationEstimate(q, entry, equity, mm)
}

// crossEquity is the account's equity without this instrument's position PnL, and the account's
// maintenance margin with this position's replaced by newMM.
func (c *checker) crossEquity(pos api.Position, newMM decimal.Decimal) (decimal.Decimal, decimal.Decimal) {
	a := c.s.account()
	eq := accountEquity(a)
	mm := a.MaintenanceMargin.Add(newMM)
	if pos.Size.IsZero() {
		return eq, mm
	}
	mark := c.out.Mark
	if !mark.IsPositive() {
		mark = c.ref
	}
	eq = eq.Sub(UnrealizedPnL(pos.Size, pos.EntryPrice, mark))
	if ps, ok := a.PerpPositions[pos.Instrument]; ok {
		mm = mm.Sub(ps.MM)
	}
	return eq, mm
}

// resultingEntry is the entry price of the position after an order of signed size q at price px:
// averaged when it adds, unchanged when it reduces, px when it opens or flips.
func resultingEntry(pos, entry, q, px decimal.Decimal) decimal.Decimal {
	switch {
	case pos.IsZero():
		return px
	case pos.Sign() == q.Sign():
		return pos.Abs().Mul(entry).Add(q.Abs().Mul(px)).Div(pos.Abs().Add(q.Abs()))
	case q.Abs().LessThanOrEqual(pos.Abs()):
		return entry
	default:
		return px
	}
}

// spotBalance checks a spot order against the spot balance it spends: the quote asset for a buy,
// the base asset for a sell. When the collateral list or the account is not loaded it cannot check
// and says so in a warning.
func (c *checker) spotBalance() {
	inst := c.out.Instrument
	asset, need := inst.QuoteAsset, c.out.Preview.Notional.Add(c.out.Preview.Fee)
	if c.side == api.SideSell {
		asset, need = inst.BaseAsset, c.size
	} else {
		c.out.Preview.MarginRequired = need
	}
	sym, ok := c.s.collateralSymbol(asset)
	if !ok || c.s.kinds[KindAccount].at.IsZero() {
		c.out.Warnings = append(c.out.Warnings, "the spot balance could not be checked (account or collateral list not loaded)")
		return
	}
	bal := c.s.account().SpotCollateral[sym]
	have := bal.WithdrawableBalance
	if !have.IsPositive() {
		have = bal.Balance
	}
	if need.GreaterThan(have) {
		c.fail(FieldSize, fmt.Sprintf("needs %s %s but the spot balance has %s %s", need, sym, have, sym), "")
	}
}

func (s *Store) collateralSymbol(id api.CollateralID) (string, bool) {
	for _, col := range s.collateralData().list {
		if col.ID == id {
			return col.Symbol, true
		}
	}
	return "", false
}
