package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/state"
)

// TestAQuietStreamIsNotStale: with the stream up, an account where nothing happens for 45 s is
// current, not stale: its records come only on a change. (Seen in the demo: "stale: account 23s,
// positions 23s, orders 24s" beside "● connected · stream". Guards syncStaleWindows dropped.)
func TestAQuietStreamIsNotStale(t *testing.T) {
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
