package sim

import (
	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// settle books one side of a trade into the order's account.
func (e *engine) settle(o *order, price, q int64, maker bool, tid api.TradeID) {
	if o.mkt.spot {
		e.settleSpot(o, price, q, maker, tid)
		return
	}
	a, m := o.acct, o.mkt
	f := fillRec{mkt: m, oid: o.oid, cloid: o.cloid, trade: tid, buy: o.buy, price: price, lots: q,
		crossed: !maker, fillType: fillTrade, at: e.now()}
	rate := e.fee.taker
	if maker {
		rate = e.fee.maker
	}
	f.fee = e.applyPerpFill(a, m, o.buy, price, q, rate, &f)
	collectFee(a, e.fees, collUSDC, f.fee, true)
	e.recordFill(a, f)
}

// recordFill adds a fill to the account's history, with the hash of the transaction that
// caused it.
func (e *engine) recordFill(a *account, f fillRec) {
	if a.internal {
		return
	}
	f.txHash = e.curTx
	a.addFill(f)
	e.noteHistory(a, false)
}

// applyPerpFill moves an account's position and balance by one fill and returns the fee due
// (zero for the exchange's own accounts), which the caller collects. It fills in the fill
// record's direction, start size and price, and closed PnL.
func (e *engine) applyPerpFill(a *account, m *market, buy bool, price, q int64, rate decimal.Decimal, f *fillRec) decimal.Decimal {
	a.dirty = true
	p := e.positionFor(a, m)
	start := p.size
	f.startSize, f.startCost = start, p.cost
	var notional decimal.Decimal // the fee's and the volume's: the exchange's own accounts have neither
	fee := decimal.Zero
	if !a.internal {
		notional = m.notional(price, q)
		fee = e.feeFor(notional, rate)
	}
	pnl, opened := decimal.Zero, q
	if start != 0 && (start > 0) != buy {
		closeQ := min(q, abs(start))
		opened = q - closeQ
		pnl = e.closePart(a, m, p, price, closeQ)
		f.dir, f.openDir = api.DirCloseLong, api.DirOpenShort
		if start < 0 {
			f.dir, f.openDir = api.DirCloseShort, api.DirOpenLong
		}
		if opened == 0 {
			f.openDir = ""
		}
	} else {
		f.dir = api.DirOpenLong
		if !buy {
			f.dir = api.DirOpenShort
		}
	}
	e.openPart(a, m, p, price, opened)
	p.size = start + q
	if !buy {
		p.size = start - q
	}
	p.updated = e.now()
	m.oi += max(p.size, 0) - max(start, 0)
	f.closedPnl = pnl
	if !pnl.IsZero() { // a fill that only opens adds nothing: no new decimal for the balance
		a.deriv[collUSDC] = addDec(a.deriv[collUSDC], pnl)
	}
	if !a.internal {
		a.volume = a.volume.Add(notional)
		a.addVolume(e.now(), m, notional)
		a.pnl = a.pnl.Add(pnl).Sub(fee)
	}
	if p.size == 0 {
		e.dropPosition(a, m, p)
	}
	return fee
}

// positionFor returns the account's position on a perpetual, opening an empty one with the
// account's leverage setting.
func (e *engine) positionFor(a *account, m *market) *position {
	p := a.pos[m.id]
	if p == nil {
		s := a.leverage(m)
		p = &position{isolated: s.mode == api.MarginIsolated && !a.internal, lev: s.lev}
		a.pos[m.id] = p
	}
	return p
}

// openPart adds q lots at price to a position's cost, setting aside initial margin when the
// position is isolated.
func (e *engine) openPart(a *account, m *market, p *position, price, q int64) {
	if q == 0 {
		return
	}
	add := m.notional(price, q)
	p.cost = addDec(p.cost, add)
	if p.isolated {
		margin := e.payUp(collUSDC, add.DivRound(p.lev, 12))
		p.isoMargin = p.isoMargin.Add(margin)
		a.deriv[collUSDC] = a.deriv[collUSDC].Sub(margin)
	}
}

// closePart closes q lots of a position at price and returns the realized PnL.
func (e *engine) closePart(a *account, m *market, p *position, price, q int64) decimal.Decimal {
	size := abs(p.size)
	part := p.cost
	if q != size {
		// The library's figure to the digit, in integers where it fits (api.Mul, api.DivRound):
		// the house accounts close part of a position in most trades, the library's big.Int
		// product and division were about 1,700 allocations a step with --markets 500.
		part = api.DivRound(api.Mul(p.cost, decimal.NewFromInt(q)), decimal.NewFromInt(size), e.decimalsOf(collUSDC))
	}
	p.cost = subDec(p.cost, part)
	exit := m.notional(price, q)
	pnl := subDec(exit, part)
	if p.size < 0 {
		pnl = subDec(part, exit)
	}
	if p.isolated {
		rel := p.isoMargin
		if q != size {
			rel = e.receiveDown(collUSDC, p.isoMargin.Mul(decimal.NewFromInt(q)).Div(decimal.NewFromInt(size)))
		}
		p.isoMargin = p.isoMargin.Sub(rel)
		a.deriv[collUSDC] = a.deriv[collUSDC].Add(rel)
	}
	return pnl
}

// dropPosition removes a flat position, returning any isolated margin left to the balance.
func (e *engine) dropPosition(a *account, m *market, p *position) {
	if !p.isoMargin.IsZero() {
		a.deriv[collUSDC] = a.deriv[collUSDC].Add(p.isoMargin)
	}
	delete(a.pos, m.id)
}

// entry is the position's average entry price.
func (p *position) entry(lot unit) decimal.Decimal {
	if p.size == 0 {
		return decimal.Zero
	}
	return p.cost.DivRound(lot.dec(abs(p.size)), 8)
}

// startPrice is the entry price of the position before the fill (zero when it was flat).
func (f *fillRec) startPrice() decimal.Decimal {
	p := position{size: f.startSize, cost: f.startCost}
	return p.entry(f.mkt.lot)
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

// settleSpot moves base and quote balances for one side of a spot trade.
func (e *engine) settleSpot(o *order, price, q int64, maker bool, tid api.TradeID) {
	a, m := o.acct, o.mkt
	a.dirty = true
	notional := m.notional(price, q)
	base := m.qty(q)
	if o.buy {
		a.spot[m.base] = a.spot[m.base].Add(base)
		a.spot[m.quote] = a.spot[m.quote].Sub(notional)
	} else {
		a.spot[m.base] = a.spot[m.base].Sub(base)
		a.spot[m.quote] = a.spot[m.quote].Add(notional)
	}
	if a.internal {
		return
	}
	rate := e.fee.taker
	if maker {
		rate = e.fee.maker
	}
	o.spotNotional = o.spotNotional.Add(notional)
	fee := e.payUp(m.quote, o.spotNotional.Mul(rate)).Sub(o.spotFee)
	o.spotFee = o.spotFee.Add(fee)
	collectFee(a, e.fees, m.quote, fee, false)
	a.spotVol = a.spotVol.Add(notional)
	a.addVolume(e.now(), m, notional)
	a.pnl = a.pnl.Sub(fee)
	dir := api.DirOpenLong
	if !o.buy {
		dir = api.DirCloseLong
	}
	e.recordFill(a, fillRec{mkt: m, oid: o.oid, cloid: o.cloid, trade: tid, buy: o.buy, dir: dir, price: price,
		lots: q, fee: fee, closedPnl: decimal.Zero, crossed: !maker, fillType: fillTrade, at: e.now()})
}

// record renders a fill as the API's fill record.
func (f *fillRec) record(account string) api.Fill {
	m := f.mkt
	side := api.SideSell
	if f.buy {
		side = api.SideBuy
	}
	return api.Fill{InstrumentID: m.id, Instrument: m.name, Account: account, OrderID: f.oid, Cloid: f.cloid,
		TradeID: f.trade, Side: side, PositionSide: api.PositionSideBoth, Direction: f.dir, Price: m.px(f.price),
		Size: m.qty(f.lots), ClosedPnl: f.closedPnl, StartSize: m.qty(f.startSize), StartPrice: f.startPrice(),
		Fee: f.fee, BrokerFee: decimal.Zero, FeeTokenID: api.Int(collUSDC), Crossed: f.crossed, TxHash: f.txHash,
		FillType: api.Int(f.fillType), NotionalValue: m.notional(f.price, f.lots), BlockTime: api.Time{Time: f.at}}
}
