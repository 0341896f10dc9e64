package algo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// working is the chase's live child as its last report said.
type working struct {
	mu    sync.Mutex
	cloid string
	price decimal.Decimal
	size  decimal.Decimal
}

func (w *working) report(p Progress) {
	w.mu.Lock()
	w.cloid = p.Working
	if p.WorkingPrice != nil {
		w.price, w.size = *p.WorkingPrice, *p.WorkingSize
	}
	w.mu.Unlock()
}

func (w *working) get() (string, decimal.Decimal, decimal.Decimal) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cloid, w.price, w.size
}

// hit sells (or buys) IOC at px from the taker's account: the whole size, or part of it leaving
// at least minLeft.
func (r *rig) hit(rng *rand.Rand, side string, px, size, minLeft decimal.Decimal) {
	take := size
	if rng.IntN(2) == 0 && size.GreaterThan(minLeft.Mul(decimal.NewFromInt(2))) {
		take = minLeft
	}
	_, _ = r.taker.PlaceOrders(bg, []api.OrderWire{{InstrumentID: 1, Side: side, PositionSide: api.PositionSideBoth,
		Price: px.String(), Size: take.String(), Tif: api.TifIOC, Cloid: fmt.Sprintf("taker-%d", rng.Uint64())}})
}

// taker hits the chase's working child now and then until ctx ends.
func (r *rig) hitLoop(ctx context.Context, w *working, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	for ctx.Err() == nil {
		time.Sleep(time.Duration(20+rng.IntN(60)) * time.Millisecond)
		if cloid, px, size := w.get(); cloid != "" && rng.IntN(3) == 0 {
			r.hit(rng, api.SideSell, px, size, decimal.RequireFromString("0.0006"))
		}
	}
}

// watchLive samples the trader's open orders of prefix and counts the most seen at once.
func (r *rig) watchLive(ctx context.Context, prefix string, most *atomic.Int32) {
	for ctx.Err() == nil {
		open, _ := r.ordersQuiet(prefix)
		if n := int32(len(open)); n > most.Load() {
			most.Store(n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestAChaseFillsExactlyItsTarget: a buy chase in a moving market, hit by a taker now and then,
// ends done with its size filled exactly: what it reports filled is the sum of its children's
// fills at the exchange, no two children were ever open at once, and its journal entry says done.
func TestAChaseFillsExactlyItsTarget(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, false)
	w := &working{}
	d := r.deps(w.report)
	size := decimal.RequireFromString("0.004")
	c, err := NewChase(bg, d, "chase-a", ChaseParams{Instrument: "BTC-PERP", Side: "buy", Size: size, Aggressive: true})
	must(t, err)
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	var most atomic.Int32
	go r.hitLoop(ctx, w, 1)
	go r.watchLive(ctx, "chase-a-", &most)
	p, err := c.Run(bounded(t))
	cancel()
	if err != nil || p.State != StateDone {
		t.Fatalf("chase: %+v %v", p, err)
	}
	r.checkChase(t, "chase-a-", p, size, &most)
}

// checkChase checks what a chase that ended reports against the exchange.
func (r *rig) checkChase(t *testing.T, prefix string, p Progress, size decimal.Decimal, most *atomic.Int32) {
	t.Helper()
	open, all := r.orders(prefix)
	atEx := r.filledOf(prefix)
	if !p.Filled.Equal(atEx) || p.Filled.GreaterThan(size) {
		t.Fatalf("reported filled %s, the exchange's fills %s, target %s", p.Filled, atEx, size)
	}
	if p.State == StateDone && !p.Filled.Equal(size) && p.Detail == "" {
		t.Fatalf("done at %s of %s with no word why", p.Filled, size)
	}
	if len(open) != 0 || most.Load() > 1 {
		t.Fatalf("%d children open at the end, at most %d open at once", len(open), most.Load())
	}
	if p.Filled.IsPositive() && p.AvgPrice.IsZero() {
		t.Fatalf("no average: %+v", p)
	}
	if a, ok, err := r.j.GetAlgo(bg, p.ID); !ok || err != nil || a.State != p.State {
		t.Fatalf("journal: %+v %v %v", a, ok, err)
	}
	t.Logf("%s: %d children, %d reprices, filled %s at %s", p.ID, len(all), p.Reprices, p.Filled, p.AvgPrice.Round(2))
}

// ordersQuiet is orders without failing the test (for a watcher goroutine).
func (r *rig) ordersQuiet(prefix string) (open []api.OrderRecord, err error) {
	pg, err := r.trader.OpenOrders(bg, r.trader.Address(), api.PageParams{Page: 1, Limit: 100})
	if err != nil {
		return nil, err
	}
	for _, o := range pg.Data {
		if len(o.Cloid) >= len(prefix) && o.Cloid[:len(prefix)] == prefix {
			open = append(open, o)
		}
	}
	return open, nil
}

// stillBook makes a quiet rig's BTC-PERP book still: the index at 97000, the taker's own bid at
// 96900 and ask at 97100 (0.01 each, client ids prefix-0 and prefix-1, inside a market order's
// default slippage), nothing else trading.
func (r *rig) stillBook(t *testing.T, prefix string) {
	t.Helper()
	must(t, r.sim.SetIndexPrice("BTC-PERP", dec("97000")))
	for i, q := range [][2]string{{api.SideBuy, "96900"}, {api.SideSell, "97100"}} {
		_, err := r.taker.PlaceOrders(bg, []api.OrderWire{{InstrumentID: 1, Side: q[0], PositionSide: api.PositionSideBoth,
			Price: q[1], Size: "0.01", Tif: api.TifGTC, Cloid: fmt.Sprintf("%s-%d", prefix, i)}})
		must(t, err)
	}
}

// TestAChaseFilledAtItsDeadlineIsDone: a chase whose child filled whole just before its time ran
// out ends done, not expired.
func TestAChaseFilledAtItsDeadlineIsDone(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, true)
	r.stillBook(t, "dl-quote")
	d := r.deps(nil)
	c, err := NewChase(bg, d, "dl-1", ChaseParams{Instrument: "BTC-PERP", Side: "buy", Size: dec("0.002"), Aggressive: true})
	must(t, err)
	for c.live == nil {
		_, err := c.step(bg)
		must(t, err)
	}
	_, err = r.taker.PlaceOrders(bg, []api.OrderWire{{InstrumentID: 1, Side: api.SideSell, PositionSide: api.PositionSideBoth,
		Price: c.live.price.String(), Size: "0.002", Tif: api.TifIOC, Cloid: "dl-taker"}})
	must(t, err)
	c.p.Until = time.Now().Add(-time.Second)
	if st, err := c.step(bg); err != nil || st != StateDone {
		t.Fatalf("%q %v (filled %s)", st, err, committed(c.children))
	}
}
