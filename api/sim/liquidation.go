package sim

import (
	"cmp"
	"slices"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// liquidations closes the positions of accounts whose equity has fallen under maintenance margin:
// all cross positions when cross equity is under the cross maintenance margin, and each isolated
// position whose own margin is under its maintenance margin.
func (e *engine) liquidations() {
	for _, a := range e.users {
		if len(a.pos) == 0 {
			continue
		}
		r := e.risk(a)
		if r.crossMM.IsPositive() && r.crossEquity().LessThan(r.crossMM) {
			e.cancelAccount(a, 0)
			for i := range r.pos {
				if !r.pos[i].p.isolated {
					e.liquidate(a, r.pos[i].m, r.pos[i].p)
				}
			}
		}
		for i := range r.pos {
			pr := &r.pos[i]
			if pr.p.isolated && pr.p.isoMargin.Add(pr.upnl).LessThan(pr.mm) {
				e.cancelAccount(a, pr.m.id)
				e.liquidate(a, pr.m, pr.p)
			}
		}
	}
}

// liquidate closes a position at the mark price into the liquidator's account, charging the
// liquidation fee out of whatever margin is left. A loss beyond the account's balance is absorbed
// (the balance stops at zero).
func (e *engine) liquidate(a *account, m *market, p *position) {
	buy := p.size < 0
	q := abs(p.size)
	tid := e.nextTid
	e.nextTid++
	f := fillRec{mkt: m, oid: 0, trade: tid, buy: buy, price: m.mark, lots: q, crossed: true,
		fillType: fillLiquidation, at: e.now()}
	isolated := p.isolated
	before := a.deriv[collUSDC]
	f.fee = e.applyPerpFill(a, m, buy, m.mark, q, liqFee, &f)
	floor := decimal.Zero // a cross account loses at most its balance
	if isolated {
		floor = decimal.Max(before, decimal.Zero) // an isolated position loses at most its own margin
	}
	if short := a.deriv[collUSDC].Sub(floor); short.IsNegative() {
		// The fee takes only what is left; the insurance fund covers the rest.
		f.fee = decimal.Max(f.fee.Add(short), decimal.Zero)
		a.pnl = a.pnl.Sub(short)
		a.deriv[collUSDC] = floor
	}
	e.recordFill(a, f)
	var g fillRec
	e.applyPerpFill(e.liq, m, !buy, m.mark, q, decimal.Zero, &g)
}

// cancelAccount cancels an account's open orders, on one instrument or (id 0) on all. It returns
// how many it cancelled.
func (e *engine) cancelAccount(a *account, id api.InstrumentID) int {
	var list []*order
	for _, o := range a.open {
		if id == 0 || o.mkt.id == id {
			list = append(list, o)
		}
	}
	sortOrders(list)
	for _, o := range list {
		e.cancel(o)
	}
	return len(list)
}

// sortOrders puts orders in id order, so that work over a map of orders is deterministic.
func sortOrders(list []*order) {
	slices.SortFunc(list, func(x, y *order) int { return cmp.Compare(x.oid, y.oid) })
}
