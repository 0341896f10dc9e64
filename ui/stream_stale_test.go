package ui

import (
	"github.com/tradedesk/tradedesk/ui/components/orders"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/state"
)

// TestAQuietStreamIsNotStale: with the stream up, an account where nothing happens for 45 s is
// current, not stale: its records come only on a change. (Seen in the demo: "stale: account 23s,
// positions 23s, orders 24s" beside "● connected · stream". Guards syncStaleWindows dropped.)
func TestAQuietStreamIsNotStale(t *testing.T) {
	t.Parallel()
	c := newStreamConsole(t, true)
	c.until(t, "the status line saying stream", func() bool {
		return c.m.feed.Conn().Stream && strings.Contains(c.top(), "● connected · stream")
	})
	c.until(t, "the account loaded", func() bool { return c.m.store.Freshness(state.KindAccount).Loaded() })
	c.skew.Store(int64(45 * time.Second))
	for _, k := range []state.Kind{state.KindAccount, state.KindPositions, state.KindOrders} {
		if f := c.m.store.Freshness(k); f.Stale {
			t.Errorf("%s is stale after %s of quiet with the stream up", k, f.Age.Round(time.Second))
		}
	}
	c.m.footerDirty = true
	if top := c.top(); strings.Contains(top, "stale") {
		t.Errorf("the status line says stale with the stream up: %q", top)
	}
}

// TestStaleAgeCountsFromEitherRoute (issue #31 #7): with the stream up and the account quiet for
// 20 s (the clock stopped, then stepped), the exchange dies (its stream dropped, every request
// failing); 4 s later the open orders are "stale 4s", the age of their newest data from either
// route (the stream carried them until it dropped), not 24 s from the last poll. Guards the age
// counted from the last reconcile poll. The store's clock stands still however long the console
// takes to see the failure, so the age is exactly 4 s on a loaded machine too.
func TestStaleAgeCountsFromEitherRoute(t *testing.T) {
	t.Parallel()
	sw := &downSwitch{}
	c := newStreamConsoleVia(t, true, func(h http.Handler) http.Handler { sw.next = h; return sw })
	c.until(t, "the stream up and the orders loaded", func() bool {
		return c.m.feed.Conn().Stream && c.m.store.Freshness(state.KindOrders).Loaded()
	})
	c.frozen.Store(time.Now().UnixNano()) // from here the store's time moves only by skew
	c.skew.Store(int64(20 * time.Second))
	sw.down.Store(true)
	c.sim.RefuseStreams(true)
	c.until(t, "the orders failing", func() bool {
		return !c.m.feed.Conn().Stream && c.m.store.Freshness(state.KindOrders).Err != nil
	})
	c.skew.Store(int64(24 * time.Second))
	f := c.m.store.Freshness(state.KindOrders)
	if !f.Stale || f.Age > 10*time.Second {
		t.Fatalf("the orders are %s old (stale %v) 4s after the stream dropped, 24s after their last poll", f.Age.Round(time.Second), f.Stale)
	}
	for _, sl := range c.m.slots {
		if op, ok := sl.pane.(*orders.Pane); ok {
			if got := c.m.freshness(op); got != "stale 4s (retrying)" {
				t.Errorf("the open orders' marker: %q", got)
			}
		}
	}
}
