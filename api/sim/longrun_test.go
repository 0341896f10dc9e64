package sim

import (
	"runtime"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestLongRunStaysBounded runs the live market (makers, takers, funding) for eight simulated
// hours while two user accounts trade against it every minute: market orders both ways and
// resting orders the takers fill. Every store stays under its cap (trade tapes, candles, fills,
// order histories, funding records, the open order index, book levels), and the heap after the
// fourth hour and after the eighth differ by little: nothing grows with time.
func TestLongRunStaysBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("long run")
	}
	e := newEnv(t, WithStep(15*time.Second))
	s := e.sim
	users := []*account{}
	s.mu.Lock()
	for _, addr := range []string{"0x00000000000000000000000000000000000a11ce", "0x0000000000000000000000000000000000000b0b"} {
		a, err := s.eng.fund(mustCanon(addr), s.cfg.demo)
		if err != nil {
			t.Fatal(err)
		}
		users = append(users, a)
	}
	s.mu.Unlock()
	var heapMid uint64
	const hours, perMinute = 12, 14
	placed := 0
	for minute := 0; minute < hours*60; minute++ {
		s.Advance(time.Minute)
		s.mu.Lock()
		for i := 0; i < perMinute; i++ {
			a := users[i%2]
			m := s.eng.markets[i%3]
			buy := (minute+i)%2 == 0
			w := api.OrderWire{InstrumentID: m.id, Side: api.SideSell, PositionSide: api.PositionSideBoth,
				Size: m.qty(s.eng.lotsFor(m, m.index, 300)).String(), Tif: api.TifIOC, IsMarket: true}
			if buy {
				w.Side = api.SideBuy
			}
			if i == perMinute-1 { // a resting order a little inside the book, for the takers
				w.IsMarket, w.Tif = false, api.TifGTC
				w.Price = m.px(m.mark).String()
			}
			if _, err := s.eng.place(a, &w); err == nil {
				placed++
			}
		}
		s.mu.Unlock()
		if minute == hours*60/2 {
			heapMid = liveHeap()
		}
	}
	heapEnd := liveHeap()
	s.mu.Lock()
	defer s.mu.Unlock()
	if placed < hours*60*perMinute/2 {
		t.Fatalf("only %d orders placed: the run did not trade", placed)
	}
	for _, m := range s.eng.markets {
		if len(m.trades) > maxTradesKept+maxTradesKept/4 {
			t.Errorf("%s keeps %d trades", m.name, len(m.trades))
		}
		for k := range m.charts.s {
			for _, sr := range m.charts.s[k] {
				if len(sr.bars) > sr.res.keep+sr.res.keep/4 {
					t.Errorf("%s %s: %d bars", m.name, sr.res.name, len(sr.bars))
				}
			}
		}
		if n := len(m.book.bids) + len(m.book.asks); n > 4*makerLevels+2*hours*60 {
			t.Errorf("%s: %d book levels", m.name, n)
		}
	}
	for _, a := range users {
		if len(a.fills) != maxFillsKept {
			t.Errorf("%s keeps %d fills, want the cap %d (the run should have filled more)", a.addr, len(a.fills), maxFillsKept)
		}
		if len(a.history)-len(a.open) > maxClosedKept+maxClosedKept/4 {
			t.Errorf("%s keeps %d closed orders", a.addr, len(a.history)-len(a.open))
		}
		if len(a.funding) > maxFillsKept {
			t.Errorf("%s keeps %d funding records", a.addr, len(a.funding))
		}
	}
	if n := len(s.eng.orders); n > 2*makerLevels*len(s.eng.markets)+hours*60 {
		t.Errorf("%d open orders indexed", n)
	}
	if heapEnd > heapMid+heapMid/2+4<<20 {
		t.Errorf("live heap grew from %d KB after %d h to %d KB after %d h", heapMid>>10, hours/2, heapEnd>>10, hours)
	}
	t.Logf("%d user orders; live heap %d KB after %d h, %d KB after %d h", placed, heapMid>>10, hours/2, heapEnd>>10, hours)
}

func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
