package sim

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// TestMoneyReconcilesAcrossARestart (issue #39, "what must hold"): twenty accounts trade at once
// (TestMoneyIsConserved's traders; index shocks through POST /control, the market control,
// liquidating the levered) against a simulator with a state database; half way it is replaced by
// a new one started from the database behind the same address. The books balance to the unit before and after the restart, the whole system read
// over /info exchange_accounts balances, and every account reconciles from its own records
// (fills, funding, transfers with the insurance fund's seizures) and the test's own transfers.
func TestMoneyReconcilesAcrossARestart(t *testing.T) {
	t.Parallel() // its own simulator, clock and state file: its waits (the file's syncs) overlap the others'
	// Under -race 15 actions each per round, not 25 (each request writes the state file, checked:
	// most of the package's race CPU); the twenty still act at once and the run still liquidates
	// and pays funding (asserted below); the plain run keeps the full volume.
	const traders = 20
	actions := 25
	if raceBuild {
		actions = 15
	}
	clock := NewTestClock(testStart)
	opts := []Option{WithSeed(22), WithClock(clock), WithStep(10 * time.Second), WithFundingInterval(5 * time.Minute),
		WithStateFile(filepath.Join(t.TempDir(), "sim.db")), WithStartNonceFloor(), withStoreCheck()}
	var cur atomic.Pointer[Sim]
	cur.Store(New(opts...))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { cur.Load().ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	e := &env{t: t, sim: cur.Load(), clock: clock, srv: srv}
	all := make([]*trader, traders)
	for i := range all {
		all[i] = &trader{c: e.client(fmt.Sprintf("conserve-%d", i)), rng: rand.New(rand.NewPCG(22, uint64(i))), e: e,
			all: all, flows: &flows{}}
	}
	conserveRound(e, all, actions)
	before := checkBooks(t, e.sim)
	clock.Add(time.Second)
	e.sim = New(opts...)
	if err := e.sim.StateError(); err != nil {
		t.Fatal(err)
	}
	cur.Store(e.sim)
	after := checkBooks(t, e.sim)
	for sym, v := range before.Held {
		if !after.Held[sym].Equal(v) {
			t.Errorf("%s held %s after the restart, %s before", sym, after.Held[sym], v)
		}
	}
	conserveRound(e, all, actions)
	e.sim.Advance(5 * time.Minute)

	b := checkBooks(t, e.sim)
	out := decimal.Zero
	for _, tr := range all {
		out = out.Add(tr.flows.withdrawn)
	}
	checkFlows(t, b, map[string]decimal.Decimal{"USDC": DefaultDemoBalance.Mul(decimal.NewFromInt(2 * traders))}, map[string]decimal.Decimal{"USDC": out})
	checkSystemOverInfo(t, e)
	liqs, funded := 0, 0
	for _, tr := range all {
		l, _, f := reconcile(t, e, tr)
		liqs, funded = liqs+l, funded+f
	}
	t.Logf("%d liquidation fills, %d funding payments", liqs, funded)
	if liqs == 0 || funded == 0 {
		t.Errorf("the run must liquidate and pay funding to test them: %d, %d", liqs, funded)
	}
}

// conserveRound runs TestMoneyIsConserved's market driver and each trader's actions at once.
func conserveRound(e *env, all []*trader, actions int) {
	stop := make(chan struct{})
	var driver sync.WaitGroup
	driver.Add(1)
	go func() {
		defer driver.Done()
		rng := rand.New(rand.NewPCG(22, 99))
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			e.sim.Advance(30 * time.Second)
			if i%4 == 3 {
				m := conserveMarkets[rng.IntN(3)]
				if ts, err := all[0].c.Ticker(ctx(), m.name); err == nil && len(ts) == 1 {
					f := dec("0.88")
					if rng.IntN(2) == 0 {
						f = dec("1.12")
					}
					tick := map[api.InstrumentID]int32{1: 1, 2: 2, 5: 3}[m.id]
					px := ts[0].IndexPrice.Mul(f).Round(tick)
					body := fmt.Sprintf(`{"instrument":%q,"index":%q}`, m.name, px) // the market control, over HTTP
					if resp, err := http.Post(e.srv.URL+"/control", "application/json", strings.NewReader(body)); err == nil {
						resp.Body.Close()
					}
				}
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	var wg sync.WaitGroup
	for _, tr := range all {
		wg.Add(1)
		go func(tr *trader) {
			defer wg.Done()
			for range actions {
				tr.act()
			}
		}(tr)
	}
	wg.Wait()
	close(stop)
	driver.Wait()
}

// checkSystemOverInfo reads exchange_accounts: per collateral, what every account holds (house
// included) is what came in less what went out, to the unit.
func checkSystemOverInfo(t *testing.T, e *env) {
	t.Helper()
	code, raw := e.postRaw(t, "/info", `{"method":"exchange_accounts"}`)
	var out struct{ Held, Deposited, Withdrawn map[string]decimal.Decimal }
	if err := json.Unmarshal([]byte(raw), &out); err != nil || code != 200 {
		t.Fatalf("exchange_accounts: %d %s", code, raw)
	}
	for sym, held := range out.Held {
		if want := out.Deposited[sym].Sub(out.Withdrawn[sym]); !held.Equal(want) {
			t.Errorf("over /info, %s held %s, deposited − withdrawn %s", sym, held, want)
		}
	}
}
