package sim

import (
	"fmt"
	"math"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// Market loop parameters.
var (
	baseFunding = d("0.0000125") // interest part of the hourly funding rate
	maxFunding  = d("0.004")
	// maxFundingNeg is -maxFunding, made once.
	maxFundingNeg = maxFunding.Neg()
	premDivisor   = decimal.NewFromInt(8)
)

const (
	makerLevels  = 8
	takerChance  = 0.35 // chance per market per step that a taker trades
	makerSpread  = 0.0002
	makerSpacing = 0.0003
	// makerInventoryUSD is the inventory at which the makers lean their quotes by a full half-spread.
	makerInventoryUSD = 250000.0
)

// step runs the market loop once at time t: indexes move, makers requote, takers trade, marks and
// charts update, triggers fire, funding accrues, and under-margined accounts are liquidated.
// A step at a funding time pays it (fund) after the marks move and before liquidations.
func (e *engine) step(t time.Time, dt time.Duration, fund func()) {
	e.at = t
	defer func() { e.at = time.Time{} }()
	e.curTx = e.txHash("market", uint64(t.UnixMilli()), 0)
	for _, m := range e.markets {
		if m.delisted {
			continue
		}
		if !e.quiet {
			e.walk(m, dt)
			if m.synthetic {
				e.shiftQuotes(m)
			} else {
				e.requote(m)
			}
			e.randomTaker(m)
		}
		e.refresh(m, t)
		e.accruePremium(m)
	}
	if fund != nil {
		fund()
	}
	e.liquidations()
	e.tidyBrackets()
	e.sampleHistory()
}

// walk moves a market's index one random step (a geometric random walk, rounded to ticks).
func (e *engine) walk(m *market, dt time.Duration) {
	if m.vol == 0 || m.paused {
		return
	}
	f := math.Exp(m.vol * math.Sqrt(dt.Seconds()) * e.rng.NormFloat64())
	m.index = max(int64(math.Round(float64(m.index)*f)), 1)
}

// refresh recomputes a market's mark price, records chart points and fires triggers.
func (e *engine) refresh(m *market, t time.Time) {
	m.mark = m.computeMark()
	m.updated = t
	m.charts.point(chartIndex, t, m.index)
	m.charts.point(chartMark, t, m.mark)
	e.fireTriggers(m)
}

// computeMark is the median of the index, best bid and best ask (a missing side counts as the
// index), so a thin or one-sided book cannot drag the mark far from the index.
func (m *market) computeMark() int64 {
	if m.mirrored {
		return m.upMark
	}
	bid, ok := m.book.bestPrice(true)
	if !ok {
		bid = m.index
	}
	ask, ok := m.book.bestPrice(false)
	if !ok {
		ask = m.index
	}
	a, b, c := m.index, bid, ask
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	return max(a, b)
}

// requote replaces the market makers' quotes with fresh levels around the index.
func (e *engine) requote(m *market) {
	mm := e.maker
	// The makers place orders only here, so their orders on m are the last quotes still open,
	// cancelled in id order as cancelAccount would (which scans every market's quotes).
	for _, o := range m.quotes {
		if o.state == api.StateOpen {
			e.cancel(o)
		}
	}
	// The last quotes are closed now (cancelled here, or filled): nothing holds them any more
	// (the book, the open orders and the order map let them go; the makers keep no history), so
	// the new quotes are written over them, not made anew: 16 orders a requote, about 3,000 a
	// step with 500 markets, were most of the simulator's garbage.
	m.spare, m.quotes = append(m.spare[:0], m.quotes...), m.quotes[:0]
	m.quotedAt = m.index
	idx := float64(m.index)
	half := max(int64(idx*makerSpread), 1)
	gap := max(int64(idx*makerSpacing), 1)
	center := m.index + e.makerSkew(m, half)
	for i := int64(0); i < makerLevels; i++ {
		for _, buy := range []bool{true, false} {
			px := center + half + i*gap
			if buy {
				px = center - half - i*gap
			}
			if px <= 0 {
				continue
			}
			usd := 4000 * (1 + 0.6*float64(i)) * (0.5 + e.rng.Float64())
			m.quotes = append(m.quotes, e.placeOrder(m.reuse(), mm, m, buy, px, e.lotsFor(m, px, usd), api.TifGTC))
		}
	}
}

// makerSkew shifts the makers' quotes (in ticks): away from their inventory, so it mean-reverts,
// plus a little noise, so the book's premium over the index (and so funding) moves.
func (e *engine) makerSkew(m *market, half int64) int64 {
	return int64(math.Round((e.makerLean(m) + 0.5*e.rng.NormFloat64()) * float64(half)))
}

// makerLean is how far (in half-spreads, -1 to 1) the makers lean their quotes away from their
// inventory on m.
func (e *engine) makerLean(m *market) float64 {
	inv := 0.0
	if p := e.maker.pos[m.id]; p != nil {
		inv = float64(p.size) * float64(m.index) * m.tick.f * m.lot.f
	}
	return -math.Max(-1, math.Min(1, inv/makerInventoryUSD))
}

// lotsFor converts a USD amount at a price into lots (at least one).
func (e *engine) lotsFor(m *market, px int64, usd float64) int64 {
	perLot := float64(px) * m.tick.f * m.lot.f
	return max(int64(usd/perLot), 1)
}

// internalOrder places an order for one of the simulator's own accounts, skipping the checks a
// user's order goes through, and returns it.
func (e *engine) internalOrder(a *account, m *market, buy bool, px, lots int64, tif string) *order {
	return e.placeOrder(new(order), a, m, buy, px, lots, tif)
}

// placeOrder is internalOrder written into o.
func (e *engine) placeOrder(o *order, a *account, m *market, buy bool, px, lots int64, tif string) *order {
	// No limit decimal: limitPrice writes the price from its ticks when asked (the makers' 16
	// quotes a requote, a taker's bound, are never written out but as trades and book levels).
	*o = order{acct: a, mkt: m, buy: buy, price: px, size: lots, rest: lots, tif: tif,
		isMarket: tif == api.TifIOC}
	e.open(o)
	e.execute(o)
	return o
}

// reuse is one of the market's spare orders (the makers' last quotes), or a new one.
func (m *market) reuse() *order {
	n := len(m.spare)
	if n == 0 {
		return new(order)
	}
	o := m.spare[n-1]
	m.spare[n-1], m.spare = nil, m.spare[:n-1]
	return o
}

// randomTaker sometimes sends a market order from the takers' account.
func (e *engine) randomTaker(m *market) {
	if e.rng.Float64() >= takerChance {
		return
	}
	buy := e.rng.IntN(2) == 0
	bound := m.index + m.index/100
	if !buy {
		bound = m.index - m.index/100
	}
	usd := 300 + e.rng.ExpFloat64()*3000
	o := e.placeOrder(e.takerOrder(), e.taker, m, buy, bound, e.lotsFor(m, m.index, usd), api.TifIOC)
	e.spareTaker = o
}

// takerOrder is the takers' last order to be written over, or a new one. An immediate-or-cancel
// order is closed by the time placeOrder returns, and nothing keeps the takers' orders (no
// history, no fills, no store rows: an internal account's), so one order serves every taker's
// order of a step: they were 180 new orders a step with --markets 500.
func (e *engine) takerOrder() *order {
	o := e.spareTaker
	if o == nil || o.state == api.StateOpen || o.inBook {
		return new(order)
	}
	return o
}

// accruePremium adds the book's premium over the index to the funding average and updates the
// predicted funding rate (accrue).
func (e *engine) accruePremium(m *market) {
	if m.spot || m.mirrored {
		return
	}
	bid, okb := m.book.bestPrice(true)
	ask, oka := m.book.bestPrice(false)
	m.accrue(bid, ask, okb && oka)
}

// accrue adds the premium at a best bid and ask (both: the book has both sides; else none) to
// the funding average and sets the predicted funding rate: the average premium over 8, plus
// interest, clamped, to 8 places; in integers where the figures allow (accrueUnits), else in
// decimals.
func (m *market) accrue(bid, ask int64, both bool) {
	if m.accrueUnits(bid, ask, both) {
		return
	}
	m.spillUnits()
	prem := decimal.Zero
	if both {
		prem = m.premium(bid, ask)
	}
	m.premSum = m.premSum.Add(prem)
	m.premN++
	avg := api.DivRound(m.premSum, decimal.NewFromInt(m.premN), 10)
	rate := api.Div(avg, premDivisor).Add(baseFunding)
	m.funding = decimal.Min(decimal.Max(rate, maxFundingNeg), maxFunding).Round(8)
}

// premium is the book's premium over the index, (mid - index) / index rounded half away from
// zero to 10 places, at a best bid and ask in ticks. The tick cancels out: it is
// (bid + ask - 2 index) / (2 index), divided in integers (api.DivRound), the same decimal as
// dividing the prices, as the mid, half a sum of ticks, is exact at the library's 16 places.
func (m *market) premium(bid, ask int64) decimal.Decimal {
	if m.tick.e < -14 { // the mid's division would round: divide the prices as they are
		mid := m.px(bid + ask).Div(decimal.NewFromInt(2))
		idx := m.px(m.index)
		return mid.Sub(idx).DivRound(idx, 10)
	}
	return api.DivRound(decimal.New(bid+ask-2*m.index, 0), decimal.New(2*m.index, 0), 10)
}

// payFunding settles funding on every open perpetual position, the exchange's own included:
// longs pay shorts when the rate is positive. A payer pays its amount rounded up to USDC's unit,
// a receiver gets its amount rounded down, and the fee account keeps the difference, so funding
// creates and destroys nothing. The premium average then starts again.
func (e *engine) payFunding(t time.Time) {
	e.fundedAt = t
	residual := decimal.Zero
	for _, a := range e.allAccounts() {
		for _, m := range e.markets {
			p := a.pos[m.id]
			if p == nil || m.funding.IsZero() {
				continue
			}
			a.dirty = true
			owed := m.qty(p.size).Mul(m.markPx()).Mul(m.funding) // positive: the position pays
			amt := e.receiveDown(collUSDC, owed.Neg())           // rounds a payment up, a receipt down
			residual = residual.Sub(amt)
			if p.isolated {
				p.isoMargin = p.isoMargin.Add(amt)
			} else {
				a.deriv[collUSDC] = a.deriv[collUSDC].Add(amt)
			}
			if a.internal {
				continue
			}
			a.pnl = a.pnl.Add(amt)
			a.addFunding(fundingRec{mkt: m, amount: amt, rate: m.funding, mark: m.markPx(), size: m.qty(p.size), at: t})
		}
	}
	e.fees.deriv[collUSDC] = e.fees.deriv[collUSDC].Add(residual)
	e.fees.dirty = true
	for _, m := range e.markets {
		m.resetPremium()
	}
}

// fireTriggers starts the trigger orders whose trigger price the mark has reached. The trigger
// order ends as `triggered` and a new order with its terms goes to the book.
func (e *engine) fireTriggers(m *market) {
	if len(m.triggers) == 0 {
		return
	}
	var fired []*order
	kept := m.triggers[:0]
	for _, o := range m.triggers {
		if o.fireAbove && m.mark >= o.trigger || !o.fireAbove && m.mark <= o.trigger {
			fired = append(fired, o)
			continue
		}
		kept = append(kept, o)
	}
	clear(m.triggers[len(kept):])
	m.triggers = kept
	for _, o := range fired {
		o.acct.reserveTrigger(o, -1)
		e.close(o, api.StateTriggered)
		child := &order{}
		*child = *o
		child.trigger, child.state, child.inBook, child.dirty = 0, "", false, false
		if child.grp != nil {
			child.grp.fired = append(child.grp.fired, child)
		}
		if c := e.closable(child); child.grouping == "position" && child.ro && c > 0 {
			child.size = c // a position TP/SL closes the whole position as it is now
		}
		child.rest = child.size
		if child.autoBound {
			_ = child.marketBound(decimal.Zero) // the bound follows the mark at firing time
		}
		err := e.checkFired(child)
		e.open(child)
		if err != nil {
			child.reason = "triggered, then cancelled: " + err.Error()
			e.close(child, api.StateCancelled)
			continue
		}
		e.execute(child)
	}
}

// checkFired applies to a trigger's order, when it fires, the checks a new order gets: something
// to reduce, the book rules (post-only, fill-or-kill), and margin as the account stands now.
func (e *engine) checkFired(o *order) error {
	if o.ro && e.closable(o) == 0 {
		return fmt.Errorf("reduce-only order would not reduce a position: there is no %s position on %s", oppositeWord(o.buy), o.mkt.name)
	}
	if err := e.checkBookRules(o); err != nil {
		return err
	}
	if o.acct.internal || o.mkt.spot {
		return nil
	}
	return e.checkMargin(o)
}
