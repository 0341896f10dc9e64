package report_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/state/report"
)

// testKey is a fixed test key (never a real one).
const testKey = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

var bg = context.Background()

// rig is a simulator that stands still (a test clock, quiet markets) on loopback, a client
// trading on it, an executor journaling to a file, and a store loaded for checking orders.
type rig struct {
	t      *testing.T
	url    string
	clock  *sim.TestClock
	sim    *sim.Sim
	client *api.Client
	j      *journal.Journal
	e      *exec.Executor
}

func newRig(t *testing.T) *rig {
	t.Helper()
	clock := sim.NewTestClock(time.Now())
	s := sim.New(sim.WithSeed(11), sim.WithClock(clock))
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	signer, err := api.SignerFromHex(testKey)
	must(t, err)
	c := api.New(srv.URL, api.WithSigner(signer), api.WithClock(clock.Now)) // nonces on the exchange's clock, which a test moves
	must(t, s.Fund(c.Address(), sim.DefaultDemoBalance))
	j, err := journal.Open(filepath.Join(t.TempDir(), "j.db"))
	must(t, err)
	t.Cleanup(func() { _ = j.Close() })
	j.SetClock(clock.Now) // send and fill times on one clock
	e, err := exec.New(exec.Config{Journal: j, Send: c, Read: c, Account: c.Address(), Skew: 50 * time.Millisecond,
		LookupWait: 10 * time.Millisecond, MaxLookupWait: 100 * time.Millisecond, LookupGrace: 5 * time.Second})
	must(t, err)
	return &rig{t: t, url: srv.URL, clock: clock, sim: s, client: c, j: j, e: e}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (r *rig) store() *state.Store {
	r.t.Helper()
	st := state.New(nil)
	ins, err := r.client.Instruments(bg, "all")
	must(r.t, err)
	st.Apply(state.InstrumentsMsg{Instruments: ins})
	ts, err := r.client.Ticker(bg, "all")
	must(r.t, err)
	st.Apply(state.TickersMsg{Tickers: ts})
	ms, err := r.client.Mids(bg, "all")
	must(r.t, err)
	st.Apply(state.MidsMsg{Mids: ms})
	a, err := r.client.AccountSummary(bg, r.client.Address())
	must(r.t, err)
	st.Apply(state.AccountMsg{Summary: a})
	cs, err := r.client.SupportedCollateral(bg, "all")
	must(r.t, err)
	st.Apply(state.CollateralMsg{Collateral: cs})
	return st
}

// withBook is the store with sym's book loaded, for the preview's walk.
func (r *rig) withBook(sym string) *state.Store {
	r.t.Helper()
	st := r.store()
	b, err := r.client.OrderBook(bg, sym, 0)
	must(r.t, err)
	st.Apply(state.BookMsg{Book: b})
	return st
}

// send sends a market order of intent (its size, side, instrument and client id), then moves the
// test clock on a second.
func (r *rig) send(in state.OrderIntent) exec.Result {
	r.t.Helper()
	in.Type = state.Market
	c, errs := r.e.Check(r.withBook(in.Instrument), in)
	if len(errs) > 0 {
		r.t.Fatalf("check %+v: %v", in, errs)
	}
	res, err := r.e.Place(bg, c, exec.Ask{Who: journal.WhoHeadless, What: in.Side + " " + in.Size, Confirmed: true})
	must(r.t, err)
	r.clock.Add(time.Second)
	return res
}

// market sends a market order of size on sym with the book loaded for the preview's walk, and
// returns the checked order and the result; the test clock then moves on a second.
func (r *rig) market(sym, side string, size decimal.Decimal) (state.CheckedOrder, exec.Result) {
	r.t.Helper()
	st := r.withBook(sym)
	c, errs := r.e.Check(st, state.OrderIntent{Instrument: sym, Side: side, Type: state.Market, Size: size.String()})
	if len(errs) > 0 {
		r.t.Fatalf("check %s %s %s: %v", side, size, sym, errs)
	}
	res, err := r.e.Place(bg, c, exec.Ask{Who: journal.WhoHeadless, What: side + " " + size.String() + " " + sym, Confirmed: true})
	must(r.t, err)
	if !res.Outcome.Filled.IsPositive() {
		r.t.Fatalf("%s %s %s did not fill: %+v", side, size, sym, res)
	}
	r.clock.Add(time.Second)
	return c.Order(), res
}

func (r *rig) fills() []api.Fill {
	r.t.Helper()
	fs, err := report.Fills(bg, r.client, r.client.Address(), time.Time{})
	must(r.t, err)
	return fs
}

func ticksOf(st *state.Store) report.Ticks {
	return func(name string) (decimal.Decimal, bool) {
		in, ok := st.Instrument(name)
		return in.TickSize, ok
	}
}
