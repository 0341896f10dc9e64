package sim

import "sort"

// level is the FIFO queue of resting orders at one price.
type level struct {
	price  int64
	orders []*order
	size   int64 // lots resting at this price
}

// book is one instrument's order book. Each side is sorted so that its best level is the last
// element: bids ascend, asks descend. Prices and sizes are whole ticks and lots.
type book struct {
	seq  uint64 // counts changes: orderbook's sequence_number
	bids []*level
	asks []*level
	// free are levels that emptied, for add to fill again: the makers' requotes empty and open
	// a dozen levels a market a step (a new level and queue each, 500 markets).
	free []*level
}

// maxFreeLevels bounds a book's spare levels.
const maxFreeLevels = 4 * makerLevels

// newLevel is a level at o's price holding o: a spare one, or a new one.
func (b *book) newLevel(o *order) *level {
	n := len(b.free)
	if n == 0 {
		return &level{price: o.price, orders: []*order{o}, size: o.rest}
	}
	l := b.free[n-1]
	b.free[n-1], b.free = nil, b.free[:n-1]
	l.price, l.size, l.orders = o.price, o.rest, append(l.orders[:0], o)
	return l
}

// release keeps an emptied level, left by its side, for newLevel; nothing else holds a level
// once its side lets it go (match reads the best level afresh each trade).
func (b *book) release(l *level) {
	if len(b.free) >= maxFreeLevels {
		return
	}
	clear(l.orders[:cap(l.orders)])
	l.orders = l.orders[:0]
	b.free = append(b.free, l)
}

func (b *book) side(buy bool) *[]*level {
	if buy {
		return &b.bids
	}
	return &b.asks
}

// best returns the best level of a side, or nil.
func (b *book) best(buy bool) *level {
	s := *b.side(buy)
	if len(s) == 0 {
		return nil
	}
	return s[len(s)-1]
}

// bestPrice returns the best price of a side and whether there is one.
func (b *book) bestPrice(buy bool) (int64, bool) {
	if l := b.best(buy); l != nil {
		return l.price, true
	}
	return 0, false
}

// worse reports whether price p ranks behind q on a side (lower bid, higher ask).
func worse(buy bool, p, q int64) bool {
	if buy {
		return p < q
	}
	return p > q
}

// find returns the index of price's level on a side, or where it would be inserted.
func find(levels []*level, buy bool, price int64) int {
	return sort.Search(len(levels), func(i int) bool { return !worse(buy, levels[i].price, price) })
}

// add queues a resting order at its price, behind the orders already there.
func (b *book) add(o *order) {
	b.seq++
	s := b.side(o.buy)
	n := len(*s)
	// Most orders join at or near the top of the book: look there first.
	if n > 0 && (*s)[n-1].price == o.price {
		l := (*s)[n-1]
		l.orders = append(l.orders, o)
		l.size += o.rest
		return
	}
	i := n
	if n > 0 && worse(o.buy, o.price, (*s)[n-1].price) {
		i = find(*s, o.buy, o.price)
	}
	if i < n && (*s)[i].price == o.price {
		l := (*s)[i]
		l.orders = append(l.orders, o)
		l.size += o.rest
		return
	}
	l := b.newLevel(o)
	*s = append(*s, nil)
	copy((*s)[i+1:], (*s)[i:])
	(*s)[i] = l
}

// remove takes a resting order out of the book. It reports whether the order was there.
func (b *book) remove(o *order) bool {
	s := b.side(o.buy)
	i := find(*s, o.buy, o.price)
	if i >= len(*s) || (*s)[i].price != o.price {
		return false
	}
	l := (*s)[i]
	for j, x := range l.orders {
		if x == o {
			b.seq++
			l.orders = append(l.orders[:j], l.orders[j+1:]...)
			l.size -= o.rest
			if len(l.orders) == 0 {
				*s = append((*s)[:i], (*s)[i+1:]...)
				(*s)[:len(*s)+1][len(*s)] = nil
				b.release(l)
			}
			return true
		}
	}
	return false
}

// popBestIfEmpty drops the best level of a side when its queue has emptied.
func (b *book) popBestIfEmpty(buy bool) {
	s := b.side(buy)
	if n := len(*s); n > 0 && len((*s)[n-1].orders) == 0 {
		l := (*s)[n-1]
		(*s)[n-1] = nil
		*s = (*s)[:n-1]
		b.release(l)
	}
}

// crosses reports whether a taker at limit price p on side buy meets level price q.
func crosses(buy bool, p, q int64) bool {
	if buy {
		return q <= p
	}
	return q >= p
}

// depth returns up to n levels of a side, best first, as (price, lots) pairs.
func (b *book) depth(buy bool, n int) [][2]int64 {
	s := *b.side(buy)
	out := make([][2]int64, 0, min(n, len(s)))
	for i := len(s) - 1; i >= 0 && len(out) < n; i-- {
		out = append(out, [2]int64{s[i].price, s[i].size})
	}
	return out
}
