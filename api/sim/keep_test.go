package sim

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// trade makes n pairs of crossing orders between two funded accounts on BTC-PERP (every pair a
// trade: a fill for each account, and two closed orders).
func tradePairs(t *testing.T, e *engine, a, b *account, n int) {
	t.Helper()
	for i := range n {
		px := e.byID[1].markPx().String()
		sell := api.OrderWire{InstrumentID: 1, Side: "s", Price: px, Size: "0.001", Tif: "GTC"}
		buy := api.OrderWire{InstrumentID: 1, Side: "b", Price: px, Size: "0.001", Tif: "GTC"}
		if i%2 == 1 {
			sell.Side, buy.Side = "b", "s"
		}
		if _, err := e.place(a, &sell); err != nil {
			t.Fatal(err)
		}
		if _, err := e.place(b, &buy); err != nil {
			t.Fatal(err)
		}
	}
}

// WithKeepFills and WithKeepOrders set what each account keeps: more fills than the default
// 2,000 are all kept up to the cap, and past it the oldest go; closed orders likewise.
func TestKeepFillsAndOrdersAreHonoured(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ fills, orders, pairs int }{{2600, 3000, 2500}, {40, 10, 60}} {
		s := New(WithSeed(2), WithClock(NewTestClock(testStart)), WithQuietMarkets(), WithKeepFills(c.fills), WithKeepOrders(c.orders))
		e := s.eng
		a, _ := e.fund(mustCanon("0x00000000000000000000000000000000000a11ce"), s.cfg.demo)
		b, _ := e.fund(mustCanon("0x0000000000000000000000000000000000000b0b"), s.cfg.demo)
		tradePairs(t, e, a, b, c.pairs)
		wantFills := min(c.pairs, c.fills)
		if len(a.fills) != wantFills {
			t.Errorf("keep %d fills, %d trades: %d kept, want %d", c.fills, c.pairs, len(a.fills), wantFills)
		}
		if f := a.fillAt(0); f.trade != e.nextTid-1 {
			t.Errorf("keep %d fills: the newest kept is trade %d, want %d", c.fills, f.trade, e.nextTid-1)
		}
		if f := a.fillAt(len(a.fills) - 1); f.trade != e.nextTid-api.TradeID(wantFills) {
			t.Errorf("keep %d fills: the oldest kept is trade %d, want %d", c.fills, f.trade, e.nextTid-api.TradeID(wantFills))
		}
		if n := len(a.history); n < min(c.pairs, c.orders) || n > c.orders+c.orders/4 {
			t.Errorf("keep %d closed orders, %d closed: %d in the history", c.orders, c.pairs, n)
		}
	}
}

// Out-of-range counts are refused by CheckKeep with what to give, and WithKeep* ignores them.
func TestKeepOutOfRange(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, -3, MaxKeep + 1} {
		if err := CheckKeep("fills", n); err == nil || !strings.Contains(err.Error(), "want 1 to 100000") {
			t.Errorf("CheckKeep(fills, %d) = %v", n, err)
		}
	}
	s := New(WithKeepFills(0), WithKeepOrders(MaxKeep+1))
	if s.eng.keep != (keep{DefaultKeepFills, DefaultKeepOrders}) {
		t.Errorf("out-of-range counts kept %+v, want the defaults", s.eng.keep)
	}
}
