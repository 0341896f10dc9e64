package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestASyntheticLadderMovesOnlyWhatMoved (issue #34): a synthetic market's makers change only
// the quotes that moved: with nothing moved a requote places and cancels nothing and the stream
// gets nothing for the market (no book update, no mid, no ticker); a quote a taker took whole is
// quoted again at its price, one order, the other 15 kept; the index moving one level moves one
// price a side, the far bid and the near ask out, a new near bid and far ask in. Guards: every
// quote cancelled and placed again whenever one was taken or the index left the spread (16
// orders and 32 book levels a market, most markets, most steps, with --markets 500).
func TestASyntheticLadderMovesOnlyWhatMoved(t *testing.T) {
	t.Parallel()
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)), WithMarkets(3))
	m := s.eng.markets[len(s.eng.markets)-1]
	pubs := subscribed(t, s, m, `{"channel":"orderbook","symbol":"`+m.name+`"}`, `{"channel":"mids","symbol":"all"}`,
		`{"channel":"ticker","symbol":"`+m.name+`"}`)
	s.Advance(3 * time.Second)
	defer checkBooks(t, s)
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.eng
	e.at = e.now()
	m.paused = true
	pubs() // what the steps so far sent
	if len(m.quotes) != 2*makerLevels || m.ladder.gap < 4 {
		t.Fatalf("%s: %d quotes, levels %d ticks apart; want %d quotes and a wider ladder", m.name, len(m.quotes), m.ladder.gap, 2*makerLevels)
	}

	was, next := quoteIDs(m), e.nextOid
	e.shiftQuotes(m)
	if got := quoteIDs(m); e.nextOid != next || fmt.Sprint(got) != fmt.Sprint(was) {
		t.Errorf("nothing moved: %d orders placed, quotes %v, were %v", e.nextOid-next, got, was)
	}
	if got := pubs(); len(got) != 0 {
		t.Errorf("nothing moved: published %v", got)
	}

	best := bestQuote(m, true)
	price, oid := best.price, best.oid
	e.internalOrder(e.taker, m, false, price, best.rest, api.TifIOC) // a taker takes it whole
	next = e.nextOid
	e.shiftQuotes(m)
	kept, placed := diffIDs(was, quoteIDs(m))
	if placed != 1 || e.nextOid-next != 1 || len(kept) != 2*makerLevels-1 || kept[oid] || bestQuote(m, true).price != price {
		t.Errorf("a quote taken: %d placed, %d kept (the taken one %v), best bid %d, want one placed at %d",
			placed, len(kept), kept[oid], bestQuote(m, true).price, price)
	}
	if got := pubs(); !slices.Contains(got, "orderbook:"+m.name) {
		t.Errorf("a quote taken and quoted again: published %v, want the book", got)
	}

	was = quoteIDs(m)
	farBid, nearAsk := worstQuote(m, true).oid, bestQuote(m, false).oid
	lean := int64(0)
	if l := e.makerLean(m); l != 0 {
		lean = int64(float64(m.ladder.half) * l)
	}
	m.index = m.ladder.center + m.ladder.gap - lean // leaned, one level up
	center := m.ladder.center
	e.shiftQuotes(m)
	kept, placed = diffIDs(was, quoteIDs(m))
	if m.ladder.center != center+m.ladder.gap || placed != 2 || len(kept) != 2*makerLevels-2 || kept[farBid] || kept[nearAsk] {
		t.Errorf("the index one level up: centre %d -> %d (a level is %d), %d placed, %d kept (far bid %v, near ask %v)",
			center, m.ladder.center, m.ladder.gap, placed, len(kept), kept[farBid], kept[nearAsk])
	}
	if got := bestQuote(m, true).price; got != center+m.ladder.gap-m.ladder.half {
		t.Errorf("best bid %d, want %d", got, center+m.ladder.gap-m.ladder.half)
	}
	checkQuotes(t, e, m)
}

// TestSyntheticStepsPlaceFewOrders (issue #34): a second of the market loop with 100 synthetic
// markets places under a fifth of the orders that re-quoting every book would (counted in the
// same test), so the makers' work follows what moved. Guards: requote's whole ladder again for
// every market whose index left the spread or lost a quote (44 % of them with --markets 500).
func TestSyntheticStepsPlaceFewOrders(t *testing.T) {
	t.Parallel()
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)), WithMarkets(100))
	placed, every := ordersAStep(s, 20)
	defer checkBooks(t, s)
	s.mu.Lock()
	defer s.mu.Unlock()
	if placed > every/5 {
		t.Errorf("%d orders placed a step (takers and the default markets' requotes included); re-quoting every book places %d", placed, every)
	}
	for _, m := range s.eng.markets {
		checkQuotes(t, s.eng, m)
	}
}

// ordersAStep steps s's market loop 5 s, then steps more seconds, and returns the orders placed a
// step in those, and the orders re-quoting every book a step would place.
func ordersAStep(s *Sim, steps int) (placed, every int) {
	s.Advance(5 * time.Second)
	s.mu.Lock()
	before, every := s.eng.nextOid, 2*makerLevels*len(s.eng.markets)
	s.mu.Unlock()
	s.Advance(time.Duration(steps) * time.Second)
	s.mu.Lock()
	defer s.mu.Unlock()
	return int(s.eng.nextOid-before) / steps, every
}

// checkQuotes fails the test unless m's book holds exactly its open orders at their prices and
// sizes, the makers' open orders on m are its quotes, and its quotes are at distinct prices.
func checkQuotes(t *testing.T, e *engine, m *market) {
	t.Helper()
	prices := map[int64]bool{}
	for _, o := range m.quotes {
		if o.state != api.StateOpen {
			continue
		}
		if prices[o.price] || e.maker.open[o.oid] != o || !o.inBook {
			t.Errorf("%s: quote %d at %d: a second at its price %v, listed %v, on the book %v", m.name, o.oid, o.price,
				prices[o.price], e.maker.open[o.oid] == o, o.inBook)
		}
		prices[o.price] = true
	}
	for _, o := range e.maker.open {
		if o.mkt == m && !prices[o.price] {
			t.Errorf("%s: the makers' order %d at %d is not one of its quotes", m.name, o.oid, o.price)
		}
	}
	for _, l := range append(append([]*level(nil), m.book.bids...), m.book.asks...) {
		sum := int64(0)
		for _, o := range l.orders {
			sum += o.rest
			if o.price != l.price || !o.inBook || o.state != api.StateOpen {
				t.Errorf("%s: level %d holds order %d at %d (%s)", m.name, l.price, o.oid, o.price, o.state)
			}
		}
		if sum != l.size || len(l.orders) == 0 {
			t.Errorf("%s: level %d: %d lots in %d orders, size says %d", m.name, l.price, sum, len(l.orders), l.size)
		}
	}
}

// subscribed subscribes a client of s's stream to the channels (subscribe params) and returns
// a function that collects what changed since it last ran, as the stream's topics about m (a
// list of mids, when it holds m's).
func subscribed(t *testing.T, s *Sim, m *market, params ...string) func() []string {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	c := &wsClient{out: make(chan []byte, wsQueue), ctx: ctx, cancel: cancel, subs: map[string]bool{}}
	s.ws.add(c)
	t.Cleanup(func() { s.ws.remove(c) })
	for i, p := range params {
		s.wsSubscribe(c, rpcIn{JSONRPC: "2.0", ID: json.RawMessage(fmt.Sprint(i)), Method: "subscribe", Params: json.RawMessage(p)})
	}
	return func() []string { // under s.mu
		var out []string
		for _, p := range s.ws.tap.collect(s.eng, false) {
			if mids, ok := p.data.(*midsTicks); ok && slices.ContainsFunc(*mids, func(x midTicks) bool { return x.m == m }) ||
				strings.HasSuffix(p.topic, ":"+m.name) {
				out = append(out, p.topic)
			}
		}
		return out
	}
}

func quoteIDs(m *market) []api.OrderID {
	var out []api.OrderID
	for _, o := range m.quotes {
		out = append(out, o.oid)
	}
	return out
}

// diffIDs is which of was are still in now, and how many of now are new.
func diffIDs(was, now []api.OrderID) (kept map[api.OrderID]bool, placed int) {
	old := map[api.OrderID]bool{}
	for _, id := range was {
		old[id] = true
	}
	kept = map[api.OrderID]bool{}
	for _, id := range now {
		if old[id] {
			kept[id] = true
		} else {
			placed++
		}
	}
	return kept, placed
}

// bestQuote is the makers' open quote on m nearest the index on a side.
func bestQuote(m *market, buy bool) *order { return edgeQuote(m, buy, true) }

// worstQuote is the makers' open quote on m farthest from the index on a side.
func worstQuote(m *market, buy bool) *order { return edgeQuote(m, buy, false) }

func edgeQuote(m *market, buy, near bool) *order {
	var out *order
	for _, o := range m.quotes {
		if o.buy != buy || o.state != api.StateOpen {
			continue
		}
		if out == nil || (o.price > out.price) == (buy == near) {
			out = o
		}
	}
	return out
}
