package state

import (
	"fmt"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

var watchStart = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// TestTradeWatchIgnoresMarks: a position's value, PnL or mark moving is no trade; its size or entry
// moving, and an order's unfilled size or state, are.
func TestTradeWatchIgnoresMarks(t *testing.T) {
	t.Parallel()
	s := New(func() time.Time { return watchStart })
	var w TradeWatch
	gen := uint64(0)
	pos := func(size, entry, value string) bool {
		gen++
		s.Apply(PositionsMsg{Gen: gen, Positions: []api.Position{{Instrument: "BTC-PERP", Size: d(size), EntryPrice: d(entry), PositionValue: d(value)}}})
		return w.Changed(s, KindPositions)
	}
	ord := func(unfilled, st string) bool {
		gen++
		s.Apply(OrdersMsg{Gen: gen, Orders: []api.OrderRecord{{OrderID: 1, Size: d("1"), Unfilled: d(unfilled), State: st}}})
		return w.Changed(s, KindOrders)
	}
	if pos("1", "100", "100") {
		t.Error("the first positions load counts as a trade")
	}
	if pos("1", "100", "101") || pos("1", "100", "99") {
		t.Error("a mark moving a position's value counts as a trade")
	}
	if !pos("2", "100.5", "202") {
		t.Error("a position growing does not count as a trade")
	}
	if !ord("1", "open") {
		t.Error("a new order does not count")
	}
	if ord("1", "open") {
		t.Error("the same order polled again counts")
	}
	if !ord("0.5", "open") {
		t.Error("a partial fill does not count")
	}
}

// TestFailedPollIsNoNews: a failed orders poll bumps the store's version but must not make the
// fills and history panes poll (that defeated the backoff while the exchange was down and left a
// superseded timer goroutine behind each time); the recovery and real changes do.
func TestFailedPollIsNoNews(t *testing.T) {
	t.Parallel()
	s := New(func() time.Time { return watchStart })
	var w TradeWatch
	gen := uint64(0)
	apply := func(msg Msg) bool { s.Apply(msg); return w.Changed(s, KindOrders) }
	one := []api.OrderRecord{{OrderID: 1}}
	gen++
	if apply(OrdersMsg{Gen: gen, Orders: one}) {
		t.Error("the first orders poll counts as a change")
	}
	for range 3 {
		gen++
		if apply(FailedMsg{Gen: gen, Of: KindOrders, Err: fmt.Errorf("down")}) {
			t.Fatal("a failed orders poll counts as a change of the orders")
		}
	}
	gen++
	if !apply(OrdersMsg{Gen: gen, Orders: one}) {
		t.Error("the poll after the exchange came back does not count as a change")
	}
	gen++
	if !apply(OrdersMsg{Gen: gen, Orders: []api.OrderRecord{{OrderID: 2}}}) {
		t.Error("a new open order does not count as a change")
	}
}
