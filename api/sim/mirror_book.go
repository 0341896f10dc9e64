package sim

import (
	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// The mirrored book: each price level of the live book is one resting order of the house maker
// account, of the live level's size. Paper takers match it as they match any order, so what one
// takes is gone for the next; the level gets its size back only when the live level's size
// changes. Paper resting orders sit in the same book, and fill only from live trades (fillFromTrade).

// mirrorMarket is the mirror's view of one live market. Under Sim.mu.
type mirrorMarket struct {
	m          *market
	bids, asks map[int64]*mirrorLevel // by price in ticks
	// queue is the live size ahead of each paper resting order at its price, in lots: the live
	// level's size when the order was placed, less the live volume traded at or through its
	// price since. Cancels ahead of it are not counted: a paper order waits at least as long as
	// a live one would.
	queue   map[*order]int64
	lastTid api.TradeID // the newest live trade applied (a trade is applied once)
}

// mirrorLevel is one live price level.
type mirrorLevel struct {
	seen int64  // the live size at this price, in lots, when last seen
	o    *order // the house maker's order standing for it
}

func newMirrorMarket(m *market) *mirrorMarket {
	return &mirrorMarket{m: m, bids: map[int64]*mirrorLevel{}, asks: map[int64]*mirrorLevel{}, queue: map[*order]int64{}}
}

func (mm *mirrorMarket) side(buy bool) map[int64]*mirrorLevel {
	if buy {
		return mm.bids
	}
	return mm.asks
}

// seen is the live size at a price on a side, 0 when the live book has no level there.
func (mm *mirrorMarket) seen(buy bool, px int64) int64 {
	if l := mm.side(buy)[px]; l != nil {
		return l.seen
	}
	return 0
}

// lots is a live size in whole lots, rounded down.
func lots(u unit, size decimal.Decimal) int64 { return size.Div(u.d).IntPart() }

// applyBook brings one side of the mirrored book to the live levels: a snapshot replaces the
// side, an update changes the levels it names (size 0 deletes). fresh gives every level its whole
// live size back (a new snapshot after the live stream was lost).
func (e *engine) applyBook(mm *mirrorMarket, buy bool, levels []api.BookLevel, snapshot, fresh bool) {
	e.notePaper(mm)
	side, m := mm.side(buy), mm.m
	if snapshot {
		keep := make(map[int64]bool, len(levels))
		for _, l := range levels {
			keep[m.tick.round(l.Price)] = true
		}
		for px := range side {
			if !keep[px] {
				e.dropLevel(mm, buy, px)
			}
		}
	}
	for _, l := range levels {
		px, n := m.tick.round(l.Price), lots(m.lot, l.Size)
		if px <= 0 || n <= 0 {
			e.dropLevel(mm, buy, px)
			continue
		}
		lv := side[px]
		if lv == nil {
			lv = &mirrorLevel{}
			side[px] = lv
		} else if lv.seen == n && !fresh {
			continue // unchanged live: what paper orders took stays taken
		}
		lv.seen = n
		e.quote(lv, m, buy, px, n)
	}
}

// quote makes the house maker's order at px stand for n lots.
func (e *engine) quote(lv *mirrorLevel, m *market, buy bool, px, n int64) {
	o := lv.o
	if o == nil || !o.inBook {
		o = &order{acct: e.maker, mkt: m, buy: buy, price: px, limit: m.px(px), size: n, rest: n, tif: api.TifGTC}
		e.open(o)
		e.rest(o) // rests as it is: a live level never trades with a paper order by being quoted
		lv.o = o
		return
	}
	s := *m.book.side(buy)
	l := s[find(s, buy, px)]
	d := n - o.rest
	l.size += d
	r := e.maker.restingOn(m.id)
	if buy {
		r.buy += d
	} else {
		r.sell += d
	}
	o.rest, o.size = n, o.size+d
	m.book.seq++
}

// dropLevel takes a live level that is gone out of the mirrored book.
func (e *engine) dropLevel(mm *mirrorMarket, buy bool, px int64) {
	side := mm.side(buy)
	if lv := side[px]; lv != nil && lv.o != nil && lv.o.inBook {
		e.cancel(lv.o)
	}
	delete(side, px)
}

// clearBook takes every live level out (the live market is lost: nothing fills) and forgets
// the paper orders' queues (they are measured again on the fresh snapshot).
func (e *engine) clearBook(mm *mirrorMarket) {
	for _, buy := range []bool{true, false} {
		for px := range mm.side(buy) {
			e.dropLevel(mm, buy, px)
		}
	}
	clear(mm.queue)
}

// notePaper records the queue ahead of each paper order that came to rest since the last live
// update: the live size at its price then, which is the mirrored book's until that update.
func (e *engine) notePaper(mm *mirrorMarket) {
	for o := range mm.queue {
		if !o.inBook {
			delete(mm.queue, o)
		}
	}
	b := &mm.m.book
	for _, side := range [][]*level{b.bids, b.asks} {
		for _, l := range side {
			for _, o := range l.orders {
				if _, ok := mm.queue[o]; !ok && o.acct != e.maker {
					mm.queue[o] = mm.seen(o.buy, o.price)
				}
			}
		}
	}
}
