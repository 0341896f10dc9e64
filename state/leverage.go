package state

import (
	"fmt"

	"github.com/shopspring/decimal"
)

// LeverageChange is what setting a new leverage on one perpetual does to the account: the one
// rule the console's leverage dialog and `tradedesk leverage` preview with. The exchange checks
// it again.
type LeverageChange struct {
	Instrument Instrument
	Current    decimal.Decimal // the leverage in force (the setting, the position's, or the default)
	New        decimal.Decimal
	Max        decimal.Decimal // the most the margin tiers allow for the position (the instrument's when flat)
	Notional   decimal.Decimal // the position's notional at the mark (0 when flat)
	MarginNow  decimal.Decimal // the position's initial margin at Current
	MarginNew  decimal.Decimal // ... and at New
	Available  decimal.Decimal // the account's available margin now
	Err        string          // why the change is refused ("" when it may be sent)
}

// Delta is the margin the change needs (positive) or frees (negative).
func (c LeverageChange) Delta() decimal.Decimal { return c.MarginNew.Sub(c.MarginNow) }

// Effect says in words what the change does to the margin.
func (c LeverageChange) Effect() string {
	d := c.Delta()
	switch {
	case c.Notional.IsZero():
		return "no position: new orders will use " + c.New.String() + "x"
	case d.IsNegative():
		return "frees " + FormatPrice(d.Neg(), 2) + " USDC of margin"
	case d.IsPositive():
		return "needs " + FormatPrice(d, 2) + " USDC more margin (" + FormatPrice(c.Available, 2) + " available)"
	}
	return "no change in margin"
}

// CheckLeverage previews setting the leverage on a perpetual to lev: within 1 and the tier
// maximum for the position it holds, and refused when the margin it needs is more than the account
// has available (the account would be under margin).
func (s *Store) CheckLeverage(symbol string, lev int64) (LeverageChange, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	in, ok := s.findInstrument(symbol)
	if !ok {
		return LeverageChange{}, fmt.Errorf("unknown instrument %q", symbol)
	}
	c := LeverageChange{Instrument: in, Current: s.leverageFor(in), New: decimal.NewFromInt(lev), Max: in.MaxLeverage,
		Available: s.account().AvailableBalance}
	if in.Spot {
		c.Err = in.Name + " is a spot pair: it has no leverage"
		return c, nil
	}
	if pos, ok := s.position(in.Name); ok && !pos.Size.IsZero() {
		mark := s.markOf(in.Name)
		if !mark.IsPositive() {
			mark = pos.EntryPrice
		}
		c.Notional = Notional(pos.Size, mark)
		c.Max = in.MaxLeverageAt(c.Notional)
		c.MarginNow = MarginRequired(c.Notional, c.Current)
		c.MarginNew = MarginRequired(c.Notional, c.New)
		if pos.MarginMode == "isolated" {
			c.Err = "the " + in.Name + " position is isolated: close it before changing its leverage"
			return c, nil
		}
	}
	switch {
	case lev < 1:
		c.Err = "leverage must be a whole number from 1"
	case c.New.GreaterThan(c.Max):
		c.Err = fmt.Sprintf("%sx is over the %sx the margin tiers allow for %s; choose %sx or less", c.New, c.Max, in.Name, c.Max)
	case c.Delta().GreaterThan(c.Available):
		c.Err = fmt.Sprintf("%sx would leave the account under margin: it needs %s USDC more and %s is available; choose a higher leverage, reduce the position or add collateral",
			c.New, FormatPrice(c.Delta(), 2), FormatPrice(decimal.Max(c.Available, decimal.Zero), 2))
	}
	return c, nil
}

// markOf is the instrument's mark price (else its mid, else zero), without the lock.
func (s *Store) markOf(name string) decimal.Decimal {
	if t, ok := s.ticker(name); ok && t.MarkPrice.IsPositive() {
		return t.MarkPrice
	}
	if m, ok := s.mid(name); ok {
		return m
	}
	return decimal.Zero
}
