package algo

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// errKilled is every call of a process that was killed.
var errKilled = errors.New("killed")

// crashNet is the trader's network and journal as a process sees them that is killed at its
// at-th action: the action reaches the exchange (deliver) or not, and from then on nothing the
// process does reaches the exchange or the journal file (the journal is closed).
type crashNet struct {
	*api.Client
	r       *rig
	at      int32
	deliver bool
	n       atomic.Int32
	dead    atomic.Bool
}

func (c *crashNet) act(f func() (api.TxResponse, error)) (api.TxResponse, error) {
	if c.dead.Load() {
		return api.TxResponse{}, errKilled
	}
	if c.n.Add(1) < c.at {
		return f()
	}
	if c.deliver {
		_, _ = f()
	}
	c.dead.Store(true)
	_ = c.r.j.Close()
	return api.TxResponse{}, errKilled
}

func (c *crashNet) PlaceOrders(ctx context.Context, o []api.OrderWire) (api.TxResponse, error) {
	return c.act(func() (api.TxResponse, error) { return c.Client.PlaceOrders(ctx, o) })
}

func (c *crashNet) CancelByCloid(ctx context.Context, cs []api.CancelCloid) (api.TxResponse, error) {
	return c.act(func() (api.TxResponse, error) { return c.Client.CancelByCloid(ctx, cs) })
}

func (c *crashNet) OpenOrders(ctx context.Context, u string, p api.PageParams) (api.Page[api.OrderRecord], error) {
	if c.dead.Load() {
		return api.Page[api.OrderRecord]{}, errKilled
	}
	return c.Client.OpenOrders(ctx, u, p)
}

func (c *crashNet) OrderHistory(ctx context.Context, u string, p api.PageParams) (api.Page[api.OrderRecord], error) {
	if c.dead.Load() {
		return api.Page[api.OrderRecord]{}, errKilled
	}
	return c.Client.OrderHistory(ctx, u, p)
}

func (c *crashNet) Fills(ctx context.Context, u string, p api.PageParams) (api.Page[api.Fill], error) {
	if c.dead.Load() {
		return api.Page[api.Fill]{}, errKilled
	}
	return c.Client.Fills(ctx, u, p)
}

// deadMarket is the market as the killed process reads it.
type deadMarket struct {
	m   Market
	net *crashNet
}

func (m deadMarket) Store(ctx context.Context, s string) (*state.Store, error) {
	if m.net.dead.Load() {
		return nil, errKilled
	}
	return m.m.Store(ctx, s)
}

func (m deadMarket) OrderBook(ctx context.Context, s string, n int) (api.OrderBook, error) {
	if m.net.dead.Load() {
		return api.OrderBook{}, errKilled
	}
	return m.m.OrderBook(ctx, s, n)
}

// TestAKilledChaseResumesToExactlyItsTarget: chases killed at a random action (the action reaching
// the exchange or not, the journal closed there, nothing after it reaching either) are resumed by
// a new process from the journal and the exchange alone: each finishes done at exactly its target
// (or says why it stopped short: a remainder under the minimum order value), no client id is at
// the exchange twice, no two children were open at once, and nothing is left open. The chases
// run lanes at a time, each alone on its simulator. Under the race detector 20 chases, not 50:
// the first 20 of the same draw still kill at each of the five actions, delivered and not; the
// plain run keeps 50.
func TestAKilledChaseResumesToExactlyItsTarget(t *testing.T) {
	t.Parallel() // its own simulators and journals
	n := 50
	switch {
	case testing.Short():
		n = 8
	case raceDetector:
		n = 20
	}
	type kill struct {
		size    decimal.Decimal
		at      int32
		deliver bool
	}
	rng := rand.New(rand.NewPCG(4, 4))
	kills := make([]kill, n)
	for i := range kills {
		size := decimal.New(int64(10+rng.IntN(40)), -4)
		kills[i] = kill{size: size, at: int32(1 + rng.IntN(5)), deliver: rng.IntN(2) == 0}
	}
	acrossSims(t, n, lanes, func(t *testing.T, r *rig, _ int) func(int) {
		return func(i int) {
			r.killAndResume(t, fmt.Sprintf("kc-%03d", i), kills[i].size, kills[i].at, kills[i].deliver, uint64(100+i))
		}
	})
}

// killAndResume runs chase id of size in a process killed at its at-th action (delivered or
// not), then resumes it in a new one, and checks what it did at the exchange.
func (r *rig) killAndResume(t *testing.T, id string, size decimal.Decimal, at int32, deliver bool, seed uint64) {
	t.Helper()
	w := &working{}
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	var most atomic.Int32
	go r.hitLoop(ctx, w, seed)
	go r.watchLive(ctx, id+"-", &most)
	// The first process, killed at its at-th action.
	net := &crashNet{Client: r.trader, r: r, at: at, deliver: deliver}
	r.send = net
	d := r.deps(w.report)
	d.Read, d.Market = net, deadMarket{m: r.market, net: net}
	c, err := NewChase(bg, d, id, ChaseParams{Instrument: "BTC-PERP", Side: "buy", Size: size, Aggressive: true})
	must(t, err)
	p, err := c.Run(bounded(t))
	if err == nil && !net.dead.Load() {
		// It finished before the kill point: nothing to resume.
		cancel()
		r.checkChase(t, id+"-", p, size, &most)
		return
	}
	// The second process: the journal opened again, what was left open settled, the chase resumed.
	r.reopen()
	r.send = r.trader
	d = r.deps(w.report)
	run, err := Running(bg, d)
	if err != nil || len(run) != 1 || run[0].ID != id {
		t.Fatalf("%s: running after the kill: %+v %v", id, run, err)
	}
	rn, _, err := Restart(bg, d, run[0], OnRestartResume)
	must(t, err)
	p, err = rn.Run(bounded(t))
	cancel()
	if err != nil || p.State != StateDone {
		t.Fatalf("%s resumed: %+v %v", id, p, err)
	}
	r.checkChase(t, id+"-", p, size, &most)
	r.onceEach(t, id+"-")
}

// onceEach fails when a client id of prefix is at the exchange more than once.
func (r *rig) onceEach(t *testing.T, prefix string) {
	t.Helper()
	_, all := r.orders(prefix)
	seen := map[string]bool{}
	for _, o := range all {
		if seen[o.Cloid] {
			t.Fatalf("%s is at the exchange twice", o.Cloid)
		}
		seen[o.Cloid] = true
	}
}
