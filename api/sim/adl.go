package sim

import (
	"cmp"
	"slices"

	"github.com/shopspring/decimal"
)

// fillDeleverage is the fill type of an auto-deleveraging fill (fill_type 2): the exchange
// closed part of a profitable position against the liquidator's to refill the insurance fund.
const fillDeleverage = 2

// adlCandidate is a user position opposite a position the liquidator holds, in profit at the
// mark.
type adlCandidate struct {
	a     *account
	m     *market
	p     *position
	upnl  decimal.Decimal
	ratio decimal.Decimal // upnl per unit of cost: the ranking
}

// deleverage auto-deleverages while the insurance fund's USDC is below zero: the most
// profitable user position (unrealised PnL over its cost, then the larger PnL, then the
// address) opposite a position the liquidator took over is closed against the liquidator's at
// the mark, without a fee, as far as the deficit needs; the closing part's realised profit, up
// to the deficit, goes to the insurance fund instead of the account (the haircut). A profit
// never turns into a loss, so the account's balance only gains less. It stops when the fund is
// back at zero or no such position is left (the fund then stays below zero). The account's
// fill (fill type fillDeleverage) shows the closed PnL net of the haircut.
func (e *engine) deleverage() {
	for e.insure.deriv[collUSDC].IsNegative() {
		c, ok := e.adlNext()
		if !ok {
			return
		}
		e.adlClose(c, e.insure.deriv[collUSDC].Neg())
	}
}

// adlNext is the position to deleverage first, if any.
func (e *engine) adlNext() (adlCandidate, bool) {
	var list []adlCandidate
	for _, m := range e.markets {
		lp := e.liq.pos[m.id]
		if m.spot || lp == nil || lp.size == 0 {
			continue
		}
		for _, a := range e.users {
			p := a.pos[m.id]
			if p == nil || p.size == 0 || (p.size > 0) == (lp.size > 0) || !p.cost.IsPositive() {
				continue
			}
			upnl := m.qty(p.size).Mul(m.markPx()).Sub(p.signedCost())
			if upnl.IsPositive() {
				list = append(list, adlCandidate{a: a, m: m, p: p, upnl: upnl, ratio: upnl.Div(p.cost)})
			}
		}
	}
	if len(list) == 0 {
		return adlCandidate{}, false
	}
	return slices.MinFunc(list, func(x, y adlCandidate) int {
		if c := y.ratio.Cmp(x.ratio); c != 0 {
			return c
		}
		if c := y.upnl.Cmp(x.upnl); c != 0 {
			return c
		}
		return cmp.Compare(x.a.addr, y.a.addr)
	}), true
}

// adlClose closes as many lots of a candidate's position as a deficit needs (at least one, at
// most the position and the liquidator's opposite position) at the mark, and moves the haircut
// to the insurance fund.
func (e *engine) adlClose(c adlCandidate, deficit decimal.Decimal) {
	a, m, p := c.a, c.m, c.p
	size := abs(p.size)
	need := deficit.Mul(decimal.NewFromInt(size)).Div(c.upnl).Ceil().IntPart()
	q := max(min(need, size, abs(e.liq.pos[m.id].size)), 1)
	buy := p.size < 0
	tid := e.nextTid
	e.nextTid++
	f := &fillRec{mkt: m, trade: tid, buy: buy, price: m.mark, lots: q, crossed: true, fillType: fillDeleverage, at: e.now()}
	e.applyPerpFill(a, m, buy, m.mark, q, decimal.Zero, f)
	var g fillRec
	e.applyPerpFill(e.liq, m, !buy, m.mark, q, decimal.Zero, &g)
	cut := decimal.Min(deficit, decimal.Max(f.closedPnl, decimal.Zero))
	a.dirty, e.insure.dirty = true, true
	a.deriv[collUSDC] = a.deriv[collUSDC].Sub(cut)
	e.insure.deriv[collUSDC] = e.insure.deriv[collUSDC].Add(cut)
	a.pnl = a.pnl.Sub(cut)
	f.closedPnl = f.closedPnl.Sub(cut)
	e.recordFill(a, *f)
}
