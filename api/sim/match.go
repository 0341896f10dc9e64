package sim

import (
	"fmt"

	"github.com/tradedesk/tradedesk/api"
)

// maxOpenOrders caps an account's open and trigger orders (reduce-only ones need no margin, so
// margin alone would not bound them).
const maxOpenOrders = 1000

// placeJoined checks and executes one order for an account, join (when not nil) filing it with
// its bracket (engine.joinBracket) once it has an id, before it trades. It returns the order
// (resting, filled, cancelled or waiting for its trigger) or the reason it was rejected.
func (e *engine) placeJoined(a *account, w *api.OrderWire, join func(*order)) (*order, error) {
	o, err := e.parseOrder(a, w)
	if err != nil {
		return nil, err
	}
	if prev := a.cloids[o.cloid]; o.cloid != "" && prev != nil {
		return nil, fmt.Errorf("cloid %q is already used by open order %d: give each order its own cloid (cancel by cloid acts on one order)", trunc(o.cloid, 64), prev.oid)
	}
	if !a.internal && len(a.open) >= maxOpenOrders {
		return nil, fmt.Errorf("the account has %d open and trigger orders, the most it may have: cancel some before placing more", len(a.open))
	}
	if err := e.checkOrder(o); err != nil {
		return nil, err
	}
	e.open(o)
	if join != nil {
		join(o)
	}
	if o.trigger != 0 {
		if !o.waits() {
			o.mkt.triggers = append(o.mkt.triggers, o)
		}
		o.acct.reserveTrigger(o, 1)
		return o, nil
	}
	e.execute(o)
	return o, nil
}

// checkOrder applies the checks that depend on the book and the account: post-only, fill-or-kill,
// reduce-only, margin and balances.
func (e *engine) checkOrder(o *order) error {
	if o.trigger == 0 {
		if err := e.checkBookRules(o); err != nil {
			return err
		}
	}
	if o.ro && o.trigger == 0 && e.closable(o) == 0 {
		return fmt.Errorf("reduce-only order would not reduce a position: you have no %s position on %s", oppositeWord(o.buy), o.mkt.name)
	}
	if o.acct.internal {
		return nil
	}
	if o.mkt.spot {
		return e.checkSpotFunds(o)
	}
	return e.checkMargin(o)
}

func (e *engine) checkBookRules(o *order) error {
	b := &o.mkt.book
	if o.po {
		if px, ok := b.bestPrice(!o.buy); ok && crosses(o.buy, o.price, px) {
			return fmt.Errorf("post-only order would cross the book: best %s is %s; move your price away or clear po",
				sideWord(!o.buy), o.mkt.px(px))
		}
	}
	if o.tif == api.TifFOK {
		need := o.size
		if o.ro {
			need = min(need, e.closable(o))
		}
		if got := e.fillable(o, need); got < need {
			return fmt.Errorf("fill-or-kill order cannot fill in full: only %s available at %s or better",
				o.mkt.qty(got), o.mkt.px(o.price))
		}
	}
	return nil
}

func sideWord(buy bool) string {
	if buy {
		return "bid"
	}
	return "ask"
}

func oppositeWord(buy bool) string {
	if buy {
		return "short"
	}
	return "long"
}

// open gives an order its id and files it with its account.
func (e *engine) open(o *order) {
	o.oid = e.nextOid
	e.nextOid++
	o.state = api.StateOpen
	o.created = e.now()
	e.touchOrder(o)
	e.orders[o.oid] = o
	o.acct.open[o.oid] = o
	if o.cloid != "" {
		o.acct.cloids[o.cloid] = o
	}
	o.acct.addOrder(o)
}

// closable returns how many lots of the order would reduce the account's position.
func (e *engine) closable(o *order) int64 {
	p := o.acct.pos[o.mkt.id]
	if p == nil {
		return 0
	}
	if o.buy && p.size < 0 {
		return -p.size
	}
	if !o.buy && p.size > 0 {
		return p.size
	}
	return 0
}

// roNothingLeft is the order history's reason for a reduce-only order the exchange cancelled
// because the position it reduced had shrunk to nothing by other fills.
const roNothingLeft = "reduce-only: the position it reduced is closed, so nothing is left for it to reduce"

// execute matches an order against the book and rests or closes what is left.
func (e *engine) execute(o *order) {
	if o.ro {
		if c := e.closable(o); c < o.rest {
			o.size -= o.rest - c // trimmed to the position
			o.rest = c
		}
	}
	e.match(o)
	switch {
	case o.rest == 0:
		e.close(o, api.StateFilled)
	case o.tif == api.TifGTC && !o.isMarket:
		e.rest(o)
	default:
		e.close(o, api.StateCancelled)
	}
}

// match trades a taker against the opposite side while prices cross.
func (e *engine) match(t *order) {
	b := &t.mkt.book
	for t.rest > 0 {
		l := b.best(!t.buy)
		if l == nil || !crosses(t.buy, t.price, l.price) {
			return
		}
		m := l.orders[0]
		q := min(t.rest, m.rest)
		if m.acct == t.acct {
			e.cancel(m) // self-trade prevention: the resting order goes
			continue
		}
		if m.ro {
			if c := e.closable(m); c < q {
				if c == 0 {
					m.reason = roNothingLeft
					e.cancel(m)
					continue
				}
				q = c
			}
		}
		if t.ro {
			if q = min(q, e.closable(t)); q == 0 {
				return
			}
		}
		e.trade(t, m, l, q)
	}
}

// trade executes q lots between a taker and the maker at the head of level l.
func (e *engine) trade(t, m *order, l *level, q int64) {
	t.rest -= q
	m.rest -= q
	e.touchOrder(t)
	e.touchOrder(m)
	l.size -= q
	t.pxLots += l.price * q
	m.pxLots += l.price * q
	r := m.acct.restingOn(m.mkt.id)
	if m.buy {
		r.buy -= q
	} else {
		r.sell -= q
	}
	tid := e.nextTid
	e.nextTid++
	e.settle(m, l.price, q, true, tid)
	e.settle(t, l.price, q, false, tid)
	mk := t.mkt
	mk.last = l.price
	mk.charts.trade(e.now(), l.price, q)
	mk.book.seq++
	mk.tape(tradeRec{id: tid, price: l.price, lots: q, buy: t.buy, at: e.now(), tx: e.curTx, maker: m.acct.addr, taker: t.acct.addr})
	if m.rest == 0 {
		l.orders[0] = nil
		l.orders = l.orders[1:]
		b := &mk.book
		b.popBestIfEmpty(m.buy)
		m.inBook = false
		e.close(m, api.StateFilled)
	}
}

// rest puts the remainder of an order in the book.
func (e *engine) rest(o *order) {
	e.touchOrder(o)
	o.mkt.book.add(o)
	o.inBook = true
	r := o.acct.restingOn(o.mkt.id)
	if o.buy {
		r.buy += o.rest
	} else {
		r.sell += o.rest
	}
}

// close ends an order's life with a final state.
func (e *engine) close(o *order, state string) {
	o.state = state
	e.touchOrder(o)
	delete(e.orders, o.oid)
	delete(o.acct.open, o.oid)
	if o.acct.cloids[o.cloid] == o {
		delete(o.acct.cloids, o.cloid)
	}
	o.acct.orderClosed()
}

// cancel takes an open order (resting or waiting for its trigger) off the exchange.
func (e *engine) cancel(o *order) {
	if o.inBook {
		o.mkt.book.remove(o)
		o.inBook = false
		r := o.acct.restingOn(o.mkt.id)
		if o.buy {
			r.buy -= o.rest
		} else {
			r.sell -= o.rest
		}
	}
	if o.trigger != 0 && o.state == api.StateOpen {
		o.mkt.dropTrigger(o)
		o.acct.reserveTrigger(o, -1)
	}
	e.close(o, api.StateCancelled)
}

func (m *market) dropTrigger(o *order) {
	for i, x := range m.triggers {
		if x == o {
			m.triggers = append(m.triggers[:i], m.triggers[i+1:]...)
			return
		}
	}
}

// tape adds a trade to the market's recent trades, dropping the oldest past the cap.
func (m *market) tape(t tradeRec) {
	if len(m.trades) >= maxTradesKept+maxTradesKept/4 {
		m.trades = append(m.trades[:0], m.trades[len(m.trades)-maxTradesKept:]...)
	}
	m.trades = append(m.trades, t)
}

// reserveTrigger adds (sign 1) or removes (sign -1) a waiting trigger order's lots from what the
// account's margin must carry. Reduce-only triggers reserve nothing: they can only reduce.
func (a *account) reserveTrigger(o *order, sign int64) {
	if o.ro || o.mkt.spot {
		return
	}
	tr := a.trig[o.mkt.id]
	if tr == nil {
		tr = &resting{}
		a.trig[o.mkt.id] = tr
	}
	if o.buy {
		tr.buy += sign * o.size
	} else {
		tr.sell += sign * o.size
	}
	if tr.buy == 0 && tr.sell == 0 {
		delete(a.trig, o.mkt.id)
	}
}

// fillable is how many lots a taker would fill now, up to need, as match would fill them: the
// account's own resting orders are cancelled, not filled, and a reduce-only resting order fills
// only what is left of its owner's position after that owner's earlier fills in the same sweep.
func (e *engine) fillable(t *order, need int64) int64 {
	opp := *t.mkt.book.side(!t.buy)
	var sum int64
	used := map[*account]int64{} // lots each maker has filled so far in this sweep
	for i := len(opp) - 1; i >= 0 && sum < need; i-- {
		l := opp[i]
		if !crosses(t.buy, t.price, l.price) {
			break
		}
		for _, m := range l.orders {
			if sum >= need {
				break
			}
			if m.acct == t.acct {
				continue
			}
			q := min(m.rest, need-sum)
			if m.ro {
				q = min(q, max(e.closable(m)-used[m.acct], 0))
			}
			used[m.acct] += q
			sum += q
		}
	}
	return sum
}
