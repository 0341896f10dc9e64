package ui

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// TestStreamedOrdersAndFillsPollNoLists (issue #36): with the stream up, an order placed and
// cancelled, and a fill, reach the order history and fills lists from the stream's own records:
// the history shows the order open, then cancelled, and the fills list the fill, with no order
// history or fills read. Each reprice of an algorithm is a cancel and a place: the two lists
// polled page 1 at each (about three reads a reprice, 42 KB of history each). The test runs past
// the lists' own cadence once the stream is up: the poll armed at it before the stream came up
// waits the reconcile instead (issue #33: it read the history once more with the stream up,
// when the test ran past the 5 s on a loaded machine). The lists' cadence is 500 ms here, not
// the design's 5 s the test used to wait out on the wall clock.
func TestStreamedOrdersAndFillsPollNoLists(t *testing.T) {
	t.Parallel()
	counter := &methodCounter{n: map[string]int{}}
	const lists = 500 * time.Millisecond
	c := newStreamConsoleWith(t, true, func(h http.Handler) http.Handler { counter.next = h; return counter },
		streamCadence{lo: 200 * time.Millisecond, hi: time.Second, listPoll: lists})
	c.until(t, "the stream connected", func() bool { return c.m.feed.Conn().Stream })
	c.until(t, "the order history loaded", func() bool { return c.m.store.Freshness(state.KindHistory).Loaded() })
	c.until(t, "the fills loaded", func() bool { return c.m.store.Freshness(state.KindFills).Loaded() })
	c.answered(t) // the first polls
	counter.take()
	c.dr.until(lists, func() bool { return false }) // past the lists' own cadence

	cloid := newCloid()
	if _, err := c.bot.PlaceOrders(context.Background(), []api.OrderWire{{InstrumentID: 1, Side: api.SideBuy,
		PositionSide: api.PositionSideBoth, Price: "90000", Size: "0.01", Tif: api.TifGTC, Cloid: cloid}}); err != nil {
		t.Fatal(err)
	}
	c.until(t, "the order open in the history", func() bool { return historyState(c.m.store, cloid) == api.StateOpen })
	if _, err := c.bot.CancelByCloid(context.Background(), []api.CancelCloid{{Cloid: cloid, InstrumentID: 1}}); err != nil {
		t.Fatal(err)
	}
	c.until(t, "the order cancelled in the history", func() bool { return historyState(c.m.store, cloid) == api.StateCancelled })
	if v := c.m.View(); !strings.Contains(v, "Order history") {
		t.Fatalf("no order history pane on screen:\n%s", v)
	}
	c.measureFill(t, 1)
	c.until(t, "the fill in the fills list", func() bool { return len(c.m.store.Fills()) > 0 })
	c.settle()
	if got := counter.take(); got[api.MethodOrderHistory] > 0 || got[api.MethodFills] > 0 {
		t.Errorf("the lists polled for what the stream brought: %v", got)
	}
}

// historyState is the state of order cloid in the store's order history ("" when not there).
func historyState(s *state.Store, cloid string) string {
	for _, o := range s.History() {
		if o.Cloid == cloid {
			return o.State
		}
	}
	return ""
}
