package sim

import (
	"github.com/tradedesk/tradedesk/api"
)

// applyTrade takes one live trade: it goes on the mirror's tape and charts, and fills the paper
// resting orders it printed at or through, best price first and then by time, each only with
// the volume beyond the live queue ahead of it, and never the same volume twice.
func (e *engine) applyTrade(mm *mirrorMarket, t api.Trade) {
	if t.TradeID != 0 && t.TradeID <= mm.lastTid {
		return // seen already (a resubscription's first records)
	}
	mm.lastTid = max(mm.lastTid, t.TradeID)
	m := mm.m
	px, n := m.tick.round(t.Price), lots(m.lot, t.Size)
	if px <= 0 || n <= 0 {
		return
	}
	e.notePaper(mm)
	takerBuy := t.Side == api.SideBuy
	left := n // the trade's volume not yet given to a paper order
	for _, o := range e.reached(m, !takerBuy, px) {
		q := mm.queue[o]
		ahead := min(q, n)
		mm.queue[o] = q - ahead
		give := min(o.rest, n-ahead, left)
		if o.ro {
			give = min(give, e.closable(o))
		}
		if give > 0 {
			e.fillResting(o, give)
			left -= give
		}
	}
	now := e.now()
	tid := e.nextTid
	e.nextTid++
	m.last = px
	m.charts.trade(now, px, n)
	m.tape(tradeRec{id: tid, price: px, lots: n, buy: takerBuy, at: now, tx: t.TxHash, maker: t.Maker, taker: t.Taker})
}

// reached lists the paper orders resting on a side at prices a live trade at px printed at or
// through, best first and in time order at a price.
func (e *engine) reached(m *market, buy bool, px int64) []*order {
	var out []*order
	s := *m.book.side(buy)
	for i := len(s) - 1; i >= 0 && crosses(buy, s[i].price, px); i-- {
		for _, o := range s[i].orders {
			if o.acct != e.maker {
				out = append(out, o)
			}
		}
	}
	return out
}

// fillResting fills q lots of a paper resting order at its own price, the house taker account
// on the other side (the live trader who traded through it).
func (e *engine) fillResting(o *order, q int64) {
	m := o.mkt
	s := m.book.side(o.buy)
	i := find(*s, o.buy, o.price)
	l := (*s)[i]
	for j, x := range l.orders { // to the head of its level, where trade takes its maker
		if x == o {
			copy(l.orders[1:j+1], l.orders[:j])
			l.orders[0] = o
			break
		}
	}
	t := &order{acct: e.taker, mkt: m, buy: !o.buy, price: o.price, limit: m.px(o.price), size: q, rest: q,
		tif: api.TifIOC, isMarket: true}
	e.open(t)
	e.trade(t, o, l, q)
	e.close(t, api.StateFilled)
	if len(l.orders) == 0 { // trade drops an emptied level only when it is the best
		if j := find(*s, o.buy, o.price); j < len(*s) && (*s)[j] == l {
			*s = append((*s)[:j], (*s)[j+1:]...)
		}
	}
}

// applyTicker takes the live mark, index and funding rate of a market, then moves the mark
// (triggers fire on it) as a market step would.
func (e *engine) applyTicker(m *market, t api.Ticker) {
	if t.MarkPrice.IsPositive() {
		m.upMark = max(m.tick.round(t.MarkPrice), 1)
	}
	if t.IndexPrice.IsPositive() {
		m.index = max(m.tick.round(t.IndexPrice), 1)
	}
	if !m.spot {
		m.funding = t.FundingRate
	}
	e.refresh(m, e.now())
}
