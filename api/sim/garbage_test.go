package sim

import (
	"runtime"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestAStepsPublishReusesItsLists (issue #34): a publish of every market of --markets 500 to a
// subscriber of every ticker and every mid allocates its frames' buffer and little else: the
// messages, tickers and mids lists are the tap's own, used in turn, and so is the hub's list of
// frames. Guards: the lists made anew every publish (120 KB a step, about half the frames' size
// again).
func TestAStepsPublishReusesItsLists(t *testing.T) {
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)), WithMarkets(500))
	drain, sent := everyTickerAndMid(s)
	publishAll := func() { // every market moved, as Sim.publish publishes
		s.mu.Lock()
		for _, w := range s.ws.tap.markets {
			w.top = [6]int64{}
		}
		s.mu.Unlock()
		s.publish(true)
		drain()
	}
	publishAll()
	publishAll()
	n := testing.AllocsPerRun(5, publishAll)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	*sent = 0
	publishAll()
	runtime.ReadMemStats(&m1)
	alloc := m1.TotalAlloc - m0.TotalAlloc
	t.Logf("%.0f allocs, %d bytes for %d sent", n, alloc, *sent)
	if alloc > uint64(*sent)*5/4 {
		t.Errorf("a publish of %d bytes of frames allocated %d bytes, want under 1.25 times the frames (their buffer)", *sent, alloc)
	}
}

// TestAnUnchangedFundingRateIsNoNewDecimal (issue #34): accruing a premium that leaves the
// predicted funding rate where it was keeps the rate's decimal: no allocation. Guards: a new
// decimal for every market every step (509 allocations a step with --markets 500).
func TestAnUnchangedFundingRateIsNoNewDecimal(t *testing.T) {
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)), WithQuietMarkets())
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.eng.markets[0]
	bid, ask := m.index-m.index/1000, m.index+m.index/1000
	m.accrue(bid, ask, true)
	was := m.funding
	if n := testing.AllocsPerRun(20, func() { m.accrue(bid, ask, true) }); n != 0 || !m.funding.Equal(was) {
		t.Errorf("accruing the same premium: %.0f allocations, rate %s -> %s; want none and the same rate", n, was, m.funding)
	}
	m.accrue(bid+m.index/100, ask+m.index/100, true)
	if m.funding.Equal(was) || !m.funding.Equal(m.funding.Round(8)) || m.funding.Exponent() != -8 {
		t.Errorf("a new premium: rate %s -> %s, want a new rate to 8 places", was, m.funding)
	}
}

// TestTheTakersWriteOverTheirLastOrder (issue #34): the takers' market orders are one order
// written over, not a new one each (their orders are closed when placed and kept nowhere).
// Guards: a new order for each (180 a step with --markets 500).
func TestTheTakersWriteOverTheirLastOrder(t *testing.T) {
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)), WithMarkets(3))
	s.Advance(2 * time.Second)
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.eng
	m := e.markets[len(e.markets)-1]
	for _, o := range m.quotes {
		if o.state == "open" {
			e.cancel(o) // an empty book: the takers' orders find nothing and are cancelled
		}
	}
	e.at = e.now()
	before := e.nextOid
	n := testing.AllocsPerRun(5, func() {
		for range 40 {
			e.randomTaker(m)
		}
	})
	if e.nextOid-before < 20 || n != 0 {
		t.Errorf("%d taker orders: %.0f allocations per 40 tries, want none", e.nextOid-before, n)
	}
	if o := e.spareTaker; o == nil || e.orders[o.oid] != nil || e.taker.open[o.oid] != nil || o.state != "cancelled" {
		t.Errorf("the takers' last order is still listed or open: %+v", o)
	}
}

// TestAnOpeningFillLeavesTheBalance (issue #34): a fill that only opens (no PnL to book) leaves
// the account's balance as it was, not added a zero: one decimal fewer for every such fill of
// the house accounts (most of the takers' and makers' fills). It allocates only what growing the
// position's cost allocates (measured in the same test). Guards: the zero added anyway.
func TestAnOpeningFillLeavesTheBalance(t *testing.T) {
	s := New(WithSeed(1), WithClock(NewTestClock(testStart)), WithQuietMarkets())
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.eng
	e.at = e.now()
	m, a := e.markets[0], e.maker
	was := a.deriv[collUSDC]
	var f fillRec
	fill := testing.AllocsPerRun(20, func() { e.applyPerpFill(a, m, true, m.index, 3, decimal.Zero, &f) })
	p := a.pos[m.id]
	cost := testing.AllocsPerRun(20, func() { e.openPart(a, m, p, m.index, 3) })
	if fill > cost || !a.deriv[collUSDC].Equal(was) || f.closedPnl.Sign() != 0 {
		t.Errorf("an opening fill: %.0f allocations, growing the cost alone %.0f; balance %s -> %s", fill, cost, was, a.deriv[collUSDC])
	}
}
