package ui

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// methodCounter counts the requests that reach the exchange, by /info method (or path).
type methodCounter struct {
	next http.Handler
	mu   sync.Mutex
	n    map[string]int
}

func (c *methodCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Path
	if r.Method == http.MethodPost && r.Body != nil {
		b, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		var in struct {
			Method string `json:"method"`
		}
		if json.Unmarshal(b, &in) == nil && in.Method != "" {
			name = in.Method
		}
	}
	if !strings.HasSuffix(r.URL.Path, "/ws") {
		c.mu.Lock()
		c.n[name]++
		c.mu.Unlock()
	}
	c.next.ServeHTTP(w, r)
}

// take returns the counts since the last take and starts again.
func (c *methodCounter) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.n
	c.n = map[string]int{}
	return n
}

// TestIdlePositionMarksPollNothing (#34): a streaming console with a position open, while the
// market moves the position's mark (and so its value and PnL) every second and nothing trades,
// makes under 0.2 requests a mark: the fills and order history panes poll when a fill or an
// order's state change moves the orders or positions, not at every mark (they did: two requests
// a mark, 80 % of an idle streaming console's requests). A fill still makes them poll.
func TestIdlePositionMarksPollNothing(t *testing.T) {
	t.Parallel()
	counter := &methodCounter{n: map[string]int{}}
	c := newStreamConsoleVia(t, true, func(h http.Handler) http.Handler { counter.next = h; return counter })
	c.until(t, "the stream connected", func() bool { return c.m.feed.Conn().Stream })
	c.measureFill(t, 1)
	c.dr.until(time.Second, func() bool { return false }) // the polls the fill started are answered
	counter.take()
	const marks = 20
	for i := 1; i <= marks; i++ {
		before := c.m.store.Positions()[0].PositionValue
		if err := c.sim.SetIndexPrice("BTC-PERP", decimal.NewFromInt(int64(97250+i*20))); err != nil {
			t.Fatal(err)
		}
		c.until(t, "the streamed mark", func() bool {
			ps := c.m.store.Positions()
			return len(ps) == 1 && !ps[0].PositionValue.Equal(before)
		})
		c.settle()
	}
	got := counter.take()
	total := 0
	for _, n := range got {
		total += n
	}
	t.Logf("%d marks: %d requests %v", marks, total, got)
	if got[api.MethodFills] > 0 || got[api.MethodOrderHistory] > 0 {
		t.Errorf("the fills and history panes polled on marks alone: %v", got)
	}
	if float64(total) >= 0.2*marks {
		t.Errorf("%d requests over %d marks, want under 0.2 a mark: %v", total, marks, got)
	}
	c.measureFill(t, 2)
	c.until(t, "the fills pane polled on the fill", func() bool { return counter.take()[api.MethodFills] > 0 })
}

// TestTradeWatchIgnoresMarks: a position's value, PnL or mark moving is no trade; its size or entry
// moving, and an order's unfilled size or state, are.
func TestTradeWatchIgnoresMarks(t *testing.T) {
	t.Parallel()
	s := state.New(func() time.Time { return simStart })
	var w tradeWatch
	gen := uint64(0)
	pos := func(size, entry, value string) bool {
		gen++
		s.Apply(state.PositionsMsg{Gen: gen, Positions: []api.Position{{Instrument: "BTC-PERP", Size: d(size), EntryPrice: d(entry), PositionValue: d(value)}}})
		return w.changed(s, state.KindPositions)
	}
	ord := func(unfilled, st string) bool {
		gen++
		s.Apply(state.OrdersMsg{Gen: gen, Orders: []api.OrderRecord{{OrderID: 1, Size: d("1"), Unfilled: d(unfilled), State: st}}})
		return w.changed(s, state.KindOrders)
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
