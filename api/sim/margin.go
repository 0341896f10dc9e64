package sim

import (
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// posRisk is one position's figures at the current mark price.
type posRisk struct {
	m        *market
	p        *position
	qty      decimal.Decimal // signed size in base units
	notional decimal.Decimal
	upnl     decimal.Decimal
	im, mm   decimal.Decimal
	mmr      decimal.Decimal
	mmd      decimal.Decimal
}

// risk is an account's margin picture at the current mark prices.
type risk struct {
	collValue decimal.Decimal // weighted value of the derivative account's collateral
	upnlCross decimal.Decimal
	upnl      decimal.Decimal
	isoEquity decimal.Decimal // isolated margin plus isolated PnL
	im, mm    decimal.Decimal // every position
	crossIM   decimal.Decimal
	crossMM   decimal.Decimal
	orderIM   decimal.Decimal // further initial margin that open orders would need if filled
	pos       []posRisk
}

func (r *risk) crossEquity() decimal.Decimal { return r.collValue.Add(r.upnlCross) }
func (r *risk) equity() decimal.Decimal      { return r.crossEquity().Add(r.isoEquity) }

// available is what the account can still commit: cross equity less what positions and open
// orders need.
func (r *risk) available() decimal.Decimal {
	return r.crossEquity().Sub(r.crossIM).Sub(r.orderIM)
}

// risk computes an account's margin picture.
func (e *engine) risk(a *account) risk {
	var r risk
	for id, bal := range a.deriv {
		c := e.collByID[id]
		if c == nil || bal.IsZero() {
			continue
		}
		v := bal
		if id != collUSDC {
			v = bal.Mul(e.collPrice(id)).Mul(c.rec.DefaultCollWeight)
		}
		r.collValue = r.collValue.Add(v)
	}
	for _, m := range e.markets {
		if p := a.pos[m.id]; p != nil {
			r.addPosition(m, p)
		}
		if m.spot {
			continue
		}
		if rs := a.pending(m.id); rs.buy != 0 || rs.sell != 0 {
			r.orderIM = r.orderIM.Add(orderMargin(a, m, rs))
		}
	}
	return r
}

func (r *risk) addPosition(m *market, p *position) {
	pr := posRisk{m: m, p: p, qty: m.qty(p.size)}
	mark := m.markPx()
	pr.notional = pr.qty.Abs().Mul(mark)
	pr.upnl = pr.qty.Mul(mark).Sub(p.signedCost())
	t := m.tierFor(pr.notional)
	pr.mmr, pr.mmd = t.mmr, t.mmd
	pr.im = pr.notional.Div(p.lev)
	pr.mm = decimal.Max(pr.notional.Mul(t.mmr).Sub(t.mmd), decimal.Zero)
	r.upnl = r.upnl.Add(pr.upnl)
	r.im = r.im.Add(pr.im)
	r.mm = r.mm.Add(pr.mm)
	if p.isolated {
		r.isoEquity = r.isoEquity.Add(p.isoMargin).Add(pr.upnl)
	} else {
		r.upnlCross = r.upnlCross.Add(pr.upnl)
		r.crossIM = r.crossIM.Add(pr.im)
		r.crossMM = r.crossMM.Add(pr.mm)
	}
	r.pos = append(r.pos, pr)
}

// pending sums the lots of an account's resting orders and of its trigger orders that are not
// reduce-only on one instrument: what its margin must be able to carry if they all fill.
func (a *account) pending(id api.InstrumentID) resting {
	var out resting
	if rs := a.rest[id]; rs != nil {
		out = *rs
	}
	if tr := a.trig[id]; tr != nil {
		out.buy += tr.buy
		out.sell += tr.sell
	}
	return out
}

// orderMargin is the initial margin an account's open and trigger orders on a perpetual would
// add if they all filled at the mark price.
func orderMargin(a *account, m *market, rs resting) decimal.Decimal {
	var size int64
	if p := a.pos[m.id]; p != nil {
		size = p.size
	}
	extra := worst(size, rs.buy, rs.sell) - abs(size)
	if extra <= 0 {
		return decimal.Zero
	}
	return m.notional(m.mark, extra).Div(a.leverage(m).lev)
}

// worst is the largest position size the open orders could lead to.
func worst(size, buy, sell int64) int64 { return max(abs(size+buy), abs(size-sell)) }

// checkMargin rejects a perpetual order the account cannot carry: above the leverage its notional
// tier allows, or needing more initial margin than is available.
func (e *engine) checkMargin(o *order) error {
	if o.ro {
		return nil // trimmed to the position, it can only reduce
	}
	a, m := o.acct, o.mkt
	var size int64
	if p := a.pos[m.id]; p != nil {
		size = p.size
	}
	pend := a.pending(m.id)
	buy, sell := pend.buy, pend.sell
	if o.buy {
		buy += o.size
	} else {
		sell += o.size
	}
	if worst(size, buy, sell) <= worst(size, pend.buy, pend.sell) {
		return nil // MarginOrder.Need's Grows, in lots: an order that grows nothing needs nothing
	}
	lev := a.leverage(m).lev
	n := api.MarginOrder{Position: m.qty(size), OpenBuy: m.qty(pend.buy), OpenSell: m.qty(pend.sell), Buy: o.buy,
		Size: m.qty(o.size), Price: m.tick.dec(o.price), Trigger: m.tick.dec(o.trigger), Mark: m.markPx(),
		Leverage: lev, TakerFee: e.fee.taker}.Need() // grows: the lots above are n's Before/After over the lot
	notional := n.After.Mul(n.Price)
	if t := m.tierFor(notional); lev.GreaterThan(t.maxLev) {
		return fmt.Errorf("position would reach %s USD on %s, where the most leverage allowed is %sx and yours is %sx: reduce the size or the leverage",
			notional.StringFixed(0), m.name, t.maxLev, lev)
	}
	r := e.risk(a)
	if avail := r.available(); n.Total().GreaterThan(avail) {
		return fmt.Errorf("insufficient margin: this order needs %s USDC of initial margin and fees, %s USDC is available; reduce the size or add collateral",
			n.Total().StringFixed(2), decimal.Max(avail, decimal.Zero).StringFixed(2))
	}
	return nil
}

// spotHold is what an account's open spot orders have set aside of one asset.
func (e *engine) spotHold(a *account, asset api.CollateralID) decimal.Decimal {
	h := decimal.Zero
	for _, o := range a.open {
		m := o.mkt
		switch {
		case !m.spot:
		case o.buy && m.quote == asset:
			n := m.notional(o.price, o.rest)
			h = h.Add(n).Add(e.payUp(m.quote, n.Mul(e.fee.taker))) // at most what the rest can still be charged
		case !o.buy && m.base == asset:
			h = h.Add(m.qty(o.rest))
		}
	}
	return h
}

// spotFree is the spot balance of an asset not set aside by open orders, rounded down to the
// asset's decimals.
func (e *engine) spotFree(a *account, asset api.CollateralID) decimal.Decimal {
	return e.receiveDown(asset, a.spot[asset].Sub(e.spotHold(a, asset)))
}

// checkSpotFunds rejects a spot order the account's spot balance cannot pay for.
func (e *engine) checkSpotFunds(o *order) error {
	m := o.mkt
	asset, need := m.base, m.qty(o.size)
	if o.buy {
		asset = m.quote
		need = api.SpotNeed(true, m.qty(o.size), m.tick.dec(o.price), e.fee.taker)
	}
	if free := e.spotFree(o.acct, asset); need.GreaterThan(free) {
		return fmt.Errorf("insufficient %s in the spot account: this order needs %s, %s is free; reduce the size or transfer funds",
			e.collByID[asset].rec.Symbol, need.String(), decimal.Max(free, decimal.Zero).String())
	}
	return nil
}

// liquidationPrice is the mark price at which a position's margin falls to maintenance, holding
// everything else still (api.Liquidation, the rule the console estimates with). Zero when no
// positive price would liquidate it.
func (r *risk) liquidationPrice(pr *posRisk) decimal.Decimal {
	l := api.Liquidation{Size: pr.qty, Cost: pr.p.signedCost(), MMR: pr.mmr, MMD: pr.mmd}
	if pr.p.isolated {
		l.Equity = pr.p.isoMargin
	} else {
		l.Equity = r.crossEquity().Sub(pr.upnl)
		l.OtherMM = r.crossMM.Sub(pr.mm)
	}
	return l.Price()
}

// signedCost is the position's cost with the position's sign (negative for a short).
func (p *position) signedCost() decimal.Decimal {
	if p.size < 0 {
		return p.cost.Neg()
	}
	return p.cost
}
