package sim

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

func tickerJSON(t *testing.T, e *env) string {
	t.Helper()
	return e.infoRaw(t, `{"method":"ticker","params":{"symbol":"all"}}`)
}

func TestMarketMoves(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := e.client("viewer")
	before, _ := c.Ticker(ctx(), "SOL-PERP")
	start := time.Now()
	e.sim.Advance(5 * time.Minute)
	t.Logf("5 minutes of market in %v", time.Since(start))
	after, _ := c.Ticker(ctx(), "SOL-PERP")
	b, a := before[0], after[0]
	if a.IndexPrice.Equal(b.IndexPrice) || a.MarkPrice.Equal(b.MarkPrice) {
		t.Errorf("index/mark did not move: %s/%s -> %s/%s", b.IndexPrice, b.MarkPrice, a.IndexPrice, a.MarkPrice)
	}
	if !a.Volume24h.GreaterThan(b.Volume24h) || a.LastPrice.Equal(b.LastPrice) || !a.OpenInterest.IsPositive() {
		t.Errorf("no trading: volume %s -> %s, last %s -> %s, oi %s", b.Volume24h, a.Volume24h, b.LastPrice, a.LastPrice, a.OpenInterest)
	}
	if !a.LastUpdated.Equal(e.clock.Now()) {
		t.Errorf("last_updated %v, clock %v", a.LastUpdated, e.clock.Now())
	}
	// The book requoted around the new index.
	if a.BestBidPrice.GreaterThan(a.IndexPrice) || a.BestAskPrice.LessThan(a.IndexPrice) {
		t.Errorf("quotes %s/%s not around the index %s", a.BestBidPrice, a.BestAskPrice, a.IndexPrice)
	}
	now := e.clock.Now()
	cs, _ := c.Chart(ctx(), api.ChartParams{InstrumentID: 3, ChartType: "ltp", Resolution: "1", From: now.Add(-6 * time.Minute).Unix(), To: now.Unix()})
	if len(cs) < 6 || !cs[len(cs)-1].Volume.IsPositive() {
		t.Errorf("live one-minute candles: %+v", cs)
	}
}

func TestDeterministic(t *testing.T) {
	t.Parallel()
	run := func(seed uint64) string {
		e := newEnv(t, WithSeed(seed))
		alice := e.client("alice")
		place(t, alice, limit(3, api.SideBuy, "187", "5"))
		e.sim.Advance(2 * time.Minute)
		h, _ := json.Marshal(history(t, alice))
		return tickerJSON(t, e) + string(h)
	}
	a, b, c := run(42), run(42), run(43)
	if a != b {
		t.Error("same seed, different answers")
	}
	if a == c {
		t.Error("different seeds, same answers")
	}
}

// A resting user order fills when the market moves through it.
func TestMarketFillsUserOrders(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.client("alice")
	tk, _ := alice.Ticker(ctx(), "ETH-PERP")
	id := oid(t, place(t, alice, limit(2, api.SideBuy, tk[0].BestBidPrice.String(), "1")))
	for i := 0; i < 60 && findOrder(t, alice, id).State == api.StateOpen; i++ {
		e.sim.Advance(time.Minute)
	}
	if o := findOrder(t, alice, id); o.State != api.StateFilled {
		t.Fatalf("order at the best bid still %s after an hour", o.State)
	}
	ps, _ := alice.Positions(ctx(), "")
	if len(ps) != 1 || !ps[0].Size.Equal(dec("1")) {
		t.Errorf("positions %+v", ps)
	}
}

// A long run keeps memory bounded: charts, books and histories stay under their caps.
func TestBoundedMemory(t *testing.T) {
	t.Parallel()
	e := newEnv(t, WithStep(30*time.Second))
	for i := 0; i < 30; i++ {
		e.sim.Advance(time.Hour)
	}
	s := e.sim
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.eng.markets {
		for k := range m.charts.s {
			for _, sr := range m.charts.s[k] {
				if len(sr.bars) > sr.res.keep+sr.res.keep/4 {
					t.Errorf("%s %s: %d bars kept", m.name, sr.res.name, len(sr.bars))
				}
			}
		}
		if n := len(m.book.bids) + len(m.book.asks); n > 4*makerLevels {
			t.Errorf("%s: %d book levels", m.name, n)
		}
	}
	if n := len(s.eng.orders); n > 2*makerLevels*len(s.eng.markets) {
		t.Errorf("%d open orders", n)
	}
	// An account's own history is capped too.
	eng := s.eng
	eng.quiet = true
	a, _ := eng.fund(mustCanon("0x00000000000000000000000000000000000a11ce"), s.cfg.demo)
	b, _ := eng.fund(mustCanon("0x0000000000000000000000000000000000000b0b"), s.cfg.demo)
	for i := 0; i < 3000; i++ {
		ws := eng.byID[1].markPx().String()
		sell := api.OrderWire{InstrumentID: 1, Side: "s", Price: ws, Size: "0.001", Tif: "GTC"}
		buy := api.OrderWire{InstrumentID: 1, Side: "b", Price: ws, Size: "0.001", Tif: "GTC"}
		if i%2 == 1 {
			sell.Side, buy.Side = "b", "s"
		}
		if _, err := eng.place(a, &sell); err != nil {
			t.Fatal(err)
		}
		if _, err := eng.place(b, &buy); err != nil {
			t.Fatal(err)
		}
	}
	if len(a.fills) != maxFillsKept || len(a.history) > maxClosedKept+maxClosedKept/4 {
		t.Errorf("kept %d fills and %d orders", len(a.fills), len(a.history))
	}
	if f := a.fillAt(0); f.trade != eng.nextTid-1 {
		t.Errorf("newest fill is trade %d, want %d", f.trade, eng.nextTid-1)
	}
}

// One seed's 24-hour change and volume are the same whatever second of the minute the exchange
// starts at, three seconds in and a minute later (the window's slots count whole minutes from the
// start), and the window does move: a minute later the figures differ. Guards 24-hour figures
// read from the clock's minutes (a start at :58.5 steps its window 1.5 s in, one at :07 53 s in,
// so their first screens differed) and a window frozen at the start.
func TestTicker24hSameAtAnySecond(t *testing.T) {
	t.Parallel()
	read := func(e *env) string {
		ts, err := e.client("viewer").Ticker(ctx(), "")
		if err != nil {
			t.Fatal(err)
		}
		out := ""
		for _, x := range ts {
			out += x.Symbol + " " + x.Change24h.String() + "% " + x.Volume24h.String() + "\n"
		}
		return out
	}
	var runs [][2]string
	for _, after := range []time.Duration{7 * time.Second, 58500 * time.Millisecond} {
		e := newEnv(t, WithClock(NewTestClock(testStart.Add(after))))
		e.sim.Advance(3 * time.Second)
		first := read(e)
		e.sim.Advance(time.Minute)
		runs = append(runs, [2]string{first, read(e)})
	}
	for i, what := range []string{"3 s in", "a minute later"} {
		if runs[0][i] != runs[1][i] {
			t.Errorf("%s, started at :07 and at :58.5:\n%s\nvs\n%s", what, runs[0][i], runs[1][i])
		}
	}
	if runs[0][0] == runs[0][1] {
		t.Errorf("the 24-hour figures did not move in a minute:\n%s", runs[0][0])
	}
}

// TestRequoteCostsOnlyItsOrders: re-quoting the markets allocates about what cancelling their
// quotes and placing as many orders allocates (measured in the same test), not a decimal-to-float
// conversion per quote besides (each of 509 markets' 16 quotes was sized through big.Rat every
// second). Guards: the tick and lot read as floats per quote again.
func TestRequoteCostsOnlyItsOrders(t *testing.T) {
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)), WithMarkets(100))
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.eng
	e.at = testStart
	base := testing.AllocsPerRun(5, func() {
		for _, m := range e.markets {
			qs := append([]*order(nil), m.quotes...)
			for _, o := range qs {
				if e.maker.open[o.oid] == o {
					e.cancel(o)
				}
			}
			m.quotes = m.quotes[:0]
			for _, o := range qs {
				m.quotes = append(m.quotes, e.internalOrder(e.maker, m, o.buy, o.price, o.size, api.TifGTC))
			}
		}
	})
	got := testing.AllocsPerRun(5, func() {
		for _, m := range e.markets {
			e.requote(m)
		}
	})
	if got > base+float64(len(e.markets)) { // one allocation a market to spare
		t.Errorf("requote: %.0f allocations for %d markets; cancelling and placing their quotes: %.0f", got, len(e.markets), base)
	}
}

// TestSyntheticBooksRequoteOnlyWhenMoved: a step re-quotes a synthetic market only when its index
// left the spread its quotes were placed with or one of them is gone, so far fewer orders are
// placed a step than re-quoting every book would place (counted in the same test); a moved index
// or a quote taken whole is re-quoted at the next step, and a default market every step. Guards:
// every book re-quoted every step (509 a second with --markets 500); a stale book kept after its
// index moved away; the default markets' flow changed.
func TestSyntheticBooksRequoteOnlyWhenMoved(t *testing.T) {
	t.Parallel()
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)), WithMarkets(100))
	placed, every := ordersAStep(s, 10)
	s.mu.Lock()
	e := s.eng
	moved, taken := e.markets[len(e.markets)-1], e.markets[len(e.markets)-2]
	moved.paused, taken.paused = true, true
	moved.index = moved.quotedAt + 2*max(int64(float64(moved.quotedAt)*makerSpread), 1)
	gone := taken.quotes[0].oid // the order's id: a requote writes the new quotes over the old
	e.cancel(taken.quotes[0])
	listed := e.markets[0] // a default market: re-quoted every step, as the seeded demo's flow has it
	listed.paused = true
	kept := listed.quotes[0].oid
	s.mu.Unlock()
	if placed > every*3/4 {
		t.Errorf("%d orders placed a step; re-quoting every book places %d", placed, every)
	}
	s.Advance(time.Second)
	s.mu.Lock()
	defer s.mu.Unlock()
	if moved.quotedAt != moved.index {
		t.Errorf("%s: quoted around %d, its index is %d: want re-quoted", moved.name, moved.quotedAt, moved.index)
	}
	if listed.quotes[0].oid == kept {
		t.Errorf("%s: not re-quoted in a step", listed.name)
	}
	if taken.quotes[0].oid == gone {
		t.Errorf("%s: a quote gone and not re-quoted", taken.name)
	}
}

// A requote writes its new quotes over the last ones (closed by then: cancelled, or filled), not
// into new orders, and at new prices into the levels the last ones emptied: the same 16 orders, each open again under a new id, on the book at its new
// price, in the makers' open orders and the order map, the old ids in neither; the book's levels
// hold exactly the open quotes. Guards: an order reused while the book or a map still holds it
// under its old id, or a level still on the book; 16 new orders and levels a requote (most of the
// simulator's garbage at 500 markets).
func TestARequoteReusesTheClosedQuotes(t *testing.T) {
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)), WithMarkets(3))
	s.Advance(3 * time.Second)
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.eng
	m := e.markets[len(e.markets)-1]
	old := map[*order]api.OrderID{}
	for _, o := range m.quotes {
		old[o] = o.oid
	}
	levels := map[*level]bool{}
	for _, l := range append(append([]*level(nil), m.book.bids...), m.book.asks...) {
		levels[l] = true
	}
	e.cancel(m.quotes[0]) // one closed before the requote, the rest cancelled by it
	e.requote(m)
	reusedLevels := 0
	for _, l := range append(append([]*level(nil), m.book.bids...), m.book.asks...) {
		if levels[l] {
			reusedLevels++
		}
		sum := int64(0)
		for _, o := range l.orders {
			sum += o.rest
			if o.price != l.price || !o.inBook {
				t.Errorf("level %d holds order %d at %d (in book %v)", l.price, o.oid, o.price, o.inBook)
			}
		}
		if sum != l.size || len(l.orders) == 0 {
			t.Errorf("level %d: %d lots in %d orders, size says %d", l.price, sum, len(l.orders), l.size)
		}
	}
	if reusedLevels == 0 {
		t.Error("no level of the last quotes was filled again: a new level and queue a quote")
	}
	for _, o := range m.quotes {
		was, reused := old[o]
		switch {
		case !reused:
			t.Errorf("quote %d is a new order, not one of the last quotes", o.oid)
		case o.oid == was || o.state != api.StateOpen || !o.inBook || e.orders[o.oid] != o || e.maker.open[o.oid] != o:
			t.Errorf("quote %d (was %d): state %s, in book %v, listed %v", o.oid, was, o.state, o.inBook, e.orders[o.oid] == o)
		}
		if e.orders[was] != nil || e.maker.open[was] != nil {
			t.Errorf("the old id %d is still listed", was)
		}
	}
	onBook := 0
	for _, buy := range []bool{true, false} {
		for _, l := range m.book.depth(buy, 100) {
			onBook += int(l[1])
		}
	}
	quoted := 0
	for _, o := range m.quotes {
		quoted += int(o.rest)
	}
	if onBook < quoted || len(m.quotes) != 2*makerLevels {
		t.Errorf("%d quotes, %d lots quoted, %d lots on the book", len(m.quotes), quoted, onBook)
	}
}
