package sim

import (
	"cmp"
	"slices"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// liquidations closes the positions of accounts whose equity has fallen under maintenance margin:
// all cross positions when cross equity (collateral at its weighted value plus unrealised PnL) is
// under the cross maintenance margin, and each isolated position whose own margin is under its
// maintenance margin. Then it settles what the account owes (settleDebt), so an account with a
// USDC debt that its other collateral no longer covers is liquidated even without a position.
func (e *engine) liquidations() {
	for _, a := range e.users {
		if len(a.pos) == 0 {
			if a.deriv[collUSDC].IsNegative() {
				e.settleDebt(a, nil)
			}
			continue
		}
		r := e.risk(a)
		var fills []*fillRec
		if r.crossMM.IsPositive() && r.crossEquity().LessThan(r.crossMM) {
			e.cancelAccount(a, 0)
			for i := range r.pos {
				if !r.pos[i].p.isolated {
					fills = append(fills, e.liquidate(a, r.pos[i].m, r.pos[i].p))
				}
			}
		}
		for i := range r.pos {
			pr := &r.pos[i]
			if pr.p.isolated && pr.p.isoMargin.Add(pr.upnl).LessThan(pr.mm) {
				e.cancelAccount(a, pr.m.id)
				e.liquidateIsolated(a, pr.m, pr.p)
			}
		}
		if a.deriv[collUSDC].IsNegative() && !hasCross(a) {
			e.settleDebt(a, fills) // while cross positions are open, the margin check judges the debt
		}
		for _, f := range fills {
			e.recordFill(a, *f)
		}
	}
	e.deleverage()
}

// liquidate closes a position at the mark price into the liquidator's account and charges the
// liquidation fee (to the insurance fund). The loss and the fee come out of the account's USDC,
// which may go negative; settleDebt then decides who pays. The fill is returned unrecorded, so
// that it can show what was finally charged.
func (e *engine) liquidate(a *account, m *market, p *position) *fillRec {
	buy := p.size < 0
	q := abs(p.size)
	tid := e.nextTid
	e.nextTid++
	f := &fillRec{mkt: m, oid: 0, trade: tid, buy: buy, price: m.mark, lots: q, crossed: true,
		fillType: fillLiquidation, at: e.now()}
	f.fee = e.applyPerpFill(a, m, buy, m.mark, q, liqFee, f)
	collectFee(a, e.insure, collUSDC, f.fee, true)
	var g fillRec
	e.applyPerpFill(e.liq, m, !buy, m.mark, q, decimal.Zero, &g)
	return f
}

// liquidateIsolated closes an isolated position: it loses at most its own margin, and the
// insurance fund pays the rest of its loss and fee.
func (e *engine) liquidateIsolated(a *account, m *market, p *position) {
	before := a.deriv[collUSDC]
	f := e.liquidate(a, m, p)
	if short := before.Sub(a.deriv[collUSDC]); short.IsPositive() {
		e.cover(a, short, []*fillRec{f})
	}
	e.recordFill(a, *f)
}

// settleDebt deals with a negative USDC balance in the derivative account. While the account's
// other collateral, at its weighted value, covers the debt, the debt stays (and blocks moving
// that collateral out). Otherwise the insurance fund buys the collateral at its index price, as
// much as the debt needs (rounded up to the collateral's unit), and pays whatever is still owed;
// the liquidation fills of this pass then show only what the account was really charged.
func (e *engine) settleDebt(a *account, fills []*fillRec) {
	debt := a.deriv[collUSDC].Neg()
	if !debt.IsPositive() || e.backing(a).GreaterThanOrEqual(debt) {
		return
	}
	a.dirty, e.insure.dirty = true, true
	for _, c := range e.colls {
		id := c.rec.ID
		bal := a.deriv[id]
		if id == collUSDC || !bal.IsPositive() || !debt.IsPositive() {
			continue
		}
		px := e.collPrice(id)
		if !px.IsPositive() {
			continue
		}
		sell := decimal.Min(bal, e.payUp(id, debt.DivRound(px, e.decimalsOf(id)+2)))
		proceeds := e.receiveDown(collUSDC, sell.Mul(px))
		a.deriv[id] = bal.Sub(sell)
		e.insure.deriv[id] = e.insure.deriv[id].Add(sell)
		e.insure.deriv[collUSDC] = e.insure.deriv[collUSDC].Sub(proceeds)
		a.deriv[collUSDC] = a.deriv[collUSDC].Add(proceeds)
		e.noteSeizure(a, seizure{coll: id, amount: sell, proceeds: proceeds}, px)
		debt = a.deriv[collUSDC].Neg()
	}
	if debt.IsPositive() {
		e.cover(a, debt, fills)
	}
}

// hasCross reports whether an account holds a cross-margin position.
func hasCross(a *account) bool {
	for _, p := range a.pos {
		if !p.isolated {
			return true
		}
	}
	return false
}

// backing is the weighted value of the derivative account's collateral other than USDC.
func (e *engine) backing(a *account) decimal.Decimal {
	v := decimal.Zero
	for id, bal := range a.deriv {
		c := e.collByID[id]
		if id == collUSDC || c == nil || !bal.IsPositive() {
			continue
		}
		v = v.Add(bal.Mul(e.collPrice(id)).Mul(c.rec.DefaultCollWeight))
	}
	return v
}

// cover has the insurance fund pay amt of an account's loss. The liquidation fills show it: their
// fees shrink first, then their losses, so that each fill records what the account paid.
func (e *engine) cover(a *account, amt decimal.Decimal, fills []*fillRec) {
	a.dirty, e.insure.dirty = true, true
	e.insure.deriv[collUSDC] = e.insure.deriv[collUSDC].Sub(amt)
	a.deriv[collUSDC] = a.deriv[collUSDC].Add(amt)
	a.pnl = a.pnl.Add(amt)
	left := amt
	for _, f := range fills {
		x := decimal.Min(left, decimal.Max(f.fee, decimal.Zero))
		f.fee, left = f.fee.Sub(x), left.Sub(x)
	}
	for _, f := range fills {
		x := decimal.Min(left, decimal.Max(f.closedPnl.Neg(), decimal.Zero))
		f.closedPnl, left = f.closedPnl.Add(x), left.Sub(x)
	}
	if left.IsPositive() {
		e.noteSeizure(a, seizure{coll: collUSDC, proceeds: left}, decimal.Zero)
	}
}

// seizure is collateral the insurance fund bought from a bankrupt account (amount of coll for
// proceeds USDC), or (coll USDC, amount zero) a debt it paid that no fill shows. The account's
// transfer history keeps it (engine.noteSeizure).
type seizure struct {
	coll     api.CollateralID
	amount   decimal.Decimal
	proceeds decimal.Decimal
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
