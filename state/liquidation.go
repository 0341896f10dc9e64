package state

import (
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// liquidation estimates the liquidation price of the position an order of signed size filled at
// px leaves once it has paid fee, by the exchange's own rule (api.Liquidation): the tier of the
// resulting notional at the mark; for a cross position the account's cross equity and the other
// cross positions' maintenance margin, for an isolated one the margin it will hold.
func (c *checker) liquidation(pos api.Position, signed, lev, px, fee decimal.Decimal) decimal.Decimal {
	q := pos.Size.Add(signed)
	if q.IsZero() {
		return decimal.Zero
	}
	inst := c.out.Instrument
	entry := resultingEntry(pos.Size, pos.EntryPrice, signed, px)
	mark := c.out.Mark
	if !mark.IsPositive() {
		mark = px
	}
	l := api.Liquidation{Size: q, Cost: q.Mul(entry)}
	l.MMR, l.MMD = inst.MaintenanceTier(Notional(q, mark))
	switch {
	case c.s.marginModeFor(inst) == api.MarginIsolated:
		l.Equity = isolatedMargin(pos, signed, lev, px)
	case c.s.kinds[KindAccount].at.IsZero(): // no account yet: the position's own margin only
		l.Equity = MarginRequired(Notional(q, entry), lev)
	default:
		l.Equity, l.OtherMM = c.crossMargin(pos.Instrument)
		l.Equity = l.Equity.Add(realizedPnL(pos, signed, px)).Sub(fee)
	}
	return l.Price()
}

// crossMargin is what a cross position on instrument draws on without its own PnL, as the account
// summary stands: the account's equity less each isolated position's margin and PnL and less the
// position's own PnL; and the maintenance margin of the other cross positions.
func (c *checker) crossMargin(instrument string) (equity, otherMM decimal.Decimal) {
	a := c.s.account()
	equity, otherMM = accountEquity(a), a.MaintenanceMargin
	for _, p := range c.s.positions() {
		ps, listed := a.PerpPositions[p.Instrument]
		switch {
		case p.Instrument == instrument:
			pnl := ps.Upnl // the PnL the summary's equity holds, at the summary's mark
			if !listed {
				pnl = UnrealizedPnL(p.Size, p.EntryPrice, c.out.Mark)
			}
			equity, otherMM = equity.Sub(pnl), otherMM.Sub(ps.MM)
		case strings.EqualFold(p.MarginMode, api.MarginIsolated):
			equity, otherMM = equity.Sub(p.Margin).Sub(ps.Upnl), otherMM.Sub(ps.MM)
		}
	}
	return equity, otherMM
}

// isolatedMargin is the margin an isolated position holds after an order of signed size q at px:
// what it holds now (Position.Margin) plus the opened size's initial margin at px, or the
// remaining share of it when the order reduces; a flip holds only the new side's.
func isolatedMargin(pos api.Position, q, lev, px decimal.Decimal) decimal.Decimal {
	held := pos.Margin
	if !held.IsPositive() || !strings.EqualFold(pos.MarginMode, api.MarginIsolated) {
		held = MarginRequired(Notional(pos.Size, pos.EntryPrice), pos.Leverage)
	}
	switch {
	case pos.Size.IsZero():
		return MarginRequired(Notional(q, px), lev)
	case pos.Size.Sign() == q.Sign():
		return held.Add(MarginRequired(Notional(q, px), lev))
	case q.Abs().LessThanOrEqual(pos.Size.Abs()):
		return held.Mul(pos.Size.Abs().Sub(q.Abs())).Div(pos.Size.Abs())
	}
	return MarginRequired(Notional(q.Abs().Sub(pos.Size.Abs()), px), lev)
}

// realizedPnL is what an order of signed size q at px realizes closing (part of) pos.
func realizedPnL(pos api.Position, q, px decimal.Decimal) decimal.Decimal {
	if pos.Size.IsZero() || pos.Size.Sign() == q.Sign() {
		return decimal.Zero
	}
	closed := decimal.Min(q.Abs(), pos.Size.Abs())
	if pos.Size.IsNegative() {
		closed = closed.Neg()
	}
	return px.Sub(pos.EntryPrice).Mul(closed)
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
