package state

import (
	"hash/fnv"
	"io"
	"strconv"
)

// TradeWatch notices when a fill or an order's state change moved the account's open orders or
// positions, which is when new fills or order history are likely: a list of fills or order history can poll at once instead
// of waiting for their interval. A position's mark, value or PnL moving is no trade: the watch
// compares only what a fill or an order changes (each order's state and unfilled size, each
// position's size and entry), so a streaming console with a position open does not re-poll both
// panes at every mark.
type TradeWatch struct {
	orders, positions uint64 // fingerprints of what was seen last
	seen              bool   // both were seen once (the first load is no news)
	failed            bool   // a poll failed since: its recovery is news (fills may have come meanwhile)
}

// Changed reports whether kind k's change moved the account's orders or positions.
func (w *TradeWatch) Changed(s *Store, k Kind) bool {
	if k != KindOrders && k != KindPositions {
		return false
	}
	if s.Freshness(k).Err != nil {
		// A failed poll moves the version too, but brings no news: polling on it would defeat
		// the backoff while the exchange is down (and leave a superseded timer behind each time).
		w.failed = true
		return false
	}
	o, p := ordersPrint(s), positionsPrint(s)
	moved := o != w.orders || p != w.positions || w.failed
	first := !w.seen
	w.orders, w.positions, w.seen, w.failed = o, p, true, false
	return moved && !first
}

// ordersPrint fingerprints the open orders by what a fill or a state change moves.
func ordersPrint(s *Store) uint64 {
	h := fnv.New64a()
	for _, o := range s.Orders() {
		_, _ = io.WriteString(h, strconv.FormatUint(uint64(o.OrderID), 10)+"|"+o.State+"|"+o.Unfilled.String()+"|"+o.Size.String()+"\n")
	}
	return h.Sum64()
}

// positionsPrint fingerprints the positions by what a fill moves: size and entry, not the mark.
func positionsPrint(s *Store) uint64 {
	h := fnv.New64a()
	for _, p := range s.Positions() {
		_, _ = io.WriteString(h, p.Instrument+"|"+p.PositionSide+"|"+p.Size.String()+"|"+p.EntryPrice.String()+"\n")
	}
	return h.Sum64()
}
