package algo

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

// Fixed test keys (never real ones): the trader's and the taker's who trades against it.
const (
	traderKey = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	takerKey  = "8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f"
)

var bg = context.Background()

// rig is a live simulator on loopback (its market moving every 50 ms), the trader's client and
// journal, and a taker's client.
type rig struct {
	t      *testing.T
	sim    *sim.Sim
	trader *api.Client
	taker  *api.Client
	path   string
	j      *journal.Journal
	market Market
	// send is what the trader's executor sends through (the client, or a wrapper of it).
	send exec.Sender
	// stopLoop stops the simulator's market loop and returns once it has (stepOnReads).
	stopLoop func()
}

func newRig(t *testing.T, quiet bool, more ...sim.Option) *rig {
	t.Helper()
	opts := []sim.Option{sim.WithSeed(7), sim.WithStep(50 * time.Millisecond)}
	if quiet {
		opts = append(opts, sim.WithQuietMarkets())
	}
	opts = append(opts, more...)
	s := sim.New(opts...)
	srv := httptest.NewServer(s)
	ctx, cancel := context.WithCancel(bg)
	ran := make(chan struct{})
	go func() { defer close(ran); _ = s.Run(ctx) }()
	t.Cleanup(func() { cancel(); srv.Close() })
	r := &rig{t: t, sim: s, trader: client(t, srv.URL, traderKey), taker: client(t, srv.URL, takerKey)}
	for _, c := range []*api.Client{r.trader, r.taker} {
		must(t, s.Fund(c.Address(), sim.DefaultDemoBalance))
	}
	r.stopLoop = func() { cancel(); <-ran }
	r.send = r.trader
	r.market = &clientMarket{c: r.trader}
	r.path = journal.Path(t.TempDir(), "sim", r.trader.Address())
	r.reopen()
	return r
}

// acrossSims runs runs 0 to n-1 of a test over up to sims rigs at once, each with its own
// simulator (a market of its own, seeded apart), journal, trader and taker: each rig takes the
// next run not taken yet when its last one is over. each sets rig k up and returns its run i.
// Such runs wait on the simulator's answers and the taker far more than they compute, so ten at
// once take about the wall time of a tenth of them; each still has its book to itself, so a
// fill forced into a child's cancel window hits that child.
func acrossSims(t *testing.T, n, sims int, each func(t *testing.T, r *rig, k int) func(i int)) {
	t.Helper()
	var next atomic.Int32
	var wg sync.WaitGroup
	for k := range min(sims, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run(fmt.Sprintf("sim-%d", k), func(t *testing.T) {
				r := newRig(t, false, sim.WithSeed(uint64(7+k)))
				run := each(t, r, k)
				for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
					run(i)
				}
			})
		}()
	}
	wg.Wait()
}

// client is a client for key whose reads are retried quickly and whose 503s are not waited out:
// the simulator's faults answer 503 with Retry-After 1 s, and the read fails at once instead
// (MaxWait), so the algorithm under test sees the fault and looks again at its next step.
func client(t *testing.T, url, key string) *api.Client {
	t.Helper()
	signer, err := api.SignerFromHex(key)
	must(t, err)
	return api.New(url, api.WithSigner(signer), api.WithExpiryWindow(time.Second),
		api.WithRetry(api.RetryPolicy{Attempts: 4, BaseDelay: 5 * time.Millisecond, MaxDelay: 20 * time.Millisecond, MaxWait: 20 * time.Millisecond}))
}

// reopen opens the journal file again, as a restarted process does.
func (r *rig) reopen() {
	r.t.Helper()
	if r.j != nil {
		_ = r.j.Close()
	}
	j, err := journal.Open(r.path)
	must(r.t, err)
	r.j = j
	r.t.Cleanup(func() { _ = j.Close() })
}

// deps is a new executor on the rig's journal and the algorithms' dependencies, as a new
// process has them.
func (r *rig) deps(report func(Progress)) *Deps {
	r.t.Helper()
	e, err := exec.New(exec.Config{Journal: r.j, Send: r.send, Read: r.trader, Account: r.trader.Address(), Skew: 50 * time.Millisecond,
		LookupWait: 20 * time.Millisecond, MaxLookupWait: 200 * time.Millisecond, LookupGrace: 5 * time.Second, SettleEvery: 20 * time.Millisecond})
	must(r.t, err)
	_, err = e.Recover(bg)
	must(r.t, err)
	return &Deps{Exec: e, Journal: r.j, Market: r.market, Read: r.trader, Account: r.trader.Address(),
		Poll: 20 * time.Millisecond, MinReprice: 50 * time.Millisecond, Report: report, Limits: &Limits{PerSecond: 1000, ShareReads: 20 * time.Millisecond},
		PauseEvery: 20 * time.Millisecond}
}

// stepOnReads stops the simulator's own market loop and has the algorithms' book reads move the
// market instead (the rig's market, for deps made after): each read first runs the market steps
// due by now (sim.Advance), so the market moves between two reads as it did, but never between a
// read and the order priced off it. A loaded machine may take longer than a step (50 ms) from a
// read to its order reaching the book; with the loop running, an IOC priced off that read then
// often meets a book that moved away from it, and misses.
func (r *rig) stepOnReads() {
	r.stopLoop()
	r.market = steppedMarket{Market: r.market, s: r.sim}
}

// steppedMarket is a market whose simulator steps when its book is read (stepOnReads).
type steppedMarket struct {
	Market
	s *sim.Sim
}

func (m steppedMarket) OrderBook(ctx context.Context, symbol string, depth int) (api.OrderBook, error) {
	m.s.Advance(0)
	return m.Market.OrderBook(ctx, symbol, depth)
}

// clientMarket loads a store the way a front end does, from the client.
type clientMarket struct {
	c    *api.Client
	mu   sync.Mutex
	inst *api.Instruments
}

func (m *clientMarket) Store(ctx context.Context, symbol string) (*state.Store, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st := state.New(nil)
	if m.inst == nil {
		ins, err := m.c.Instruments(ctx, "all")
		if err != nil {
			return nil, err
		}
		m.inst = &ins
	}
	st.Apply(state.InstrumentsMsg{Instruments: *m.inst})
	ts, err := m.c.Ticker(ctx, "all")
	if err != nil {
		return nil, err
	}
	st.Apply(state.TickersMsg{Tickers: ts})
	ms, err := m.c.Mids(ctx, "all")
	if err != nil {
		return nil, err
	}
	st.Apply(state.MidsMsg{Mids: ms})
	a, err := m.c.AccountSummary(ctx, m.c.Address())
	if err != nil {
		return nil, err
	}
	st.Apply(state.AccountMsg{Summary: a})
	ps, err := m.c.Positions(ctx, m.c.Address())
	if err != nil {
		return nil, err
	}
	st.Apply(state.PositionsMsg{Positions: ps})
	cs, err := m.c.SupportedCollateral(ctx, "all")
	if err != nil {
		return nil, err
	}
	st.Apply(state.CollateralMsg{Collateral: cs})
	return st, nil
}

func (m *clientMarket) OrderBook(ctx context.Context, symbol string, depth int) (api.OrderBook, error) {
	return m.c.OrderBook(ctx, symbol, depth)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// orders are the trader's orders whose client id starts with prefix, open and in history.
func (r *rig) orders(prefix string) (open, all []api.OrderRecord) {
	r.t.Helper()
	user := r.trader.Address()
	o, err := api.AllPages(bg, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return r.trader.OpenOrders(ctx, user, p)
	}, 0, nil)
	must(r.t, err)
	h, err := api.AllPages(bg, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return r.trader.OrderHistory(ctx, user, p)
	}, 0, nil)
	must(r.t, err)
	seen := map[api.OrderID]bool{}
	for _, x := range o {
		if strings.HasPrefix(x.Cloid, prefix) {
			open = append(open, x)
		}
	}
	for _, x := range append(o, h...) {
		if strings.HasPrefix(x.Cloid, prefix) && !seen[x.OrderID] {
			seen[x.OrderID] = true
			all = append(all, x)
		}
	}
	return open, all
}

// filledOf adds up the trader's fills of orders whose client id starts with prefix.
func (r *rig) filledOf(prefix string) decimal.Decimal {
	r.t.Helper()
	fs, err := api.AllPages(bg, func(ctx context.Context, p api.PageParams) (api.Page[api.Fill], error) {
		return r.trader.Fills(ctx, r.trader.Address(), p)
	}, 0, nil)
	must(r.t, err)
	var n decimal.Decimal
	for _, f := range fs {
		if strings.HasPrefix(f.Cloid, prefix) {
			n = n.Add(f.Size)
		}
	}
	return n
}

// bounded is a context that stops a chase that has run for a minute: a chase that never ends
// (one that places again and again) then ends stopped, and the test's checks say why.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(bg, time.Minute)
	t.Cleanup(cancel)
	return ctx
}
