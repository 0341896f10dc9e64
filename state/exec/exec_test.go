package exec

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
)

// testKey is a fixed test key (never a real one).
const testKey = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

var bg = context.Background()

// dropper passes requests to the simulator, but drops the connection of the next /exchange
// request without an answer and without the simulator seeing it (a lost request).
type dropper struct {
	sim    http.Handler
	before atomic.Bool
	// late, when set, holds the next /exchange request that long before the simulator sees it
	// (the client has given up on it by then).
	late atomic.Int64
}

func (d *dropper) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/exchange") && d.before.Swap(false) {
		panic(http.ErrAbortHandler)
	}
	if late := time.Duration(d.late.Swap(0)); late > 0 && strings.HasPrefix(r.URL.Path, "/exchange") {
		body, _ := io.ReadAll(r.Body)
		time.Sleep(late)
		req := httptest.NewRequest(r.Method, r.URL.String(), bytes.NewReader(body))
		req.Header = r.Header.Clone()
		d.sim.ServeHTTP(httptest.NewRecorder(), req)
		return
	}
	d.sim.ServeHTTP(w, r)
}

// rig is a simulator on loopback, a client trading on it with a short expiry window, a journal
// file and a store loaded for checking orders.
type rig struct {
	t      *testing.T
	sim    *sim.Sim
	drop   *dropper
	client *api.Client
	path   string
	j      *journal.Journal
	st     *state.Store
}

func newRig(t *testing.T) *rig {
	t.Helper()
	s := sim.New(sim.WithSeed(5), sim.WithQuietMarkets())
	d := &dropper{sim: s}
	srv := httptest.NewServer(d)
	t.Cleanup(srv.Close)
	c := rigClient(t, srv.URL)
	if err := s.Fund(c.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, sim: s, drop: d, client: c, path: journal.Path(t.TempDir(), "sim", c.Address())}
	r.reopen()
	r.st = r.store()
	return r
}

// rigClient is a client trading at url with the test key, a one-second expiry window and quick
// retries of reads.
func rigClient(t *testing.T, url string) *api.Client {
	t.Helper()
	signer, err := api.SignerFromHex(testKey)
	if err != nil {
		t.Fatal(err)
	}
	return api.New(url, api.WithSigner(signer), api.WithExpiryWindow(time.Second),
		api.WithRetry(api.RetryPolicy{Attempts: 3, BaseDelay: 5 * time.Millisecond, MaxDelay: 20 * time.Millisecond}))
}

// reopen opens the journal file again, as a restarted process does.
func (r *rig) reopen() {
	r.t.Helper()
	if r.j != nil {
		_ = r.j.Close()
	}
	j, err := journal.Open(r.path)
	if err != nil {
		r.t.Fatal(err)
	}
	r.j = j
	r.t.Cleanup(func() { _ = j.Close() })
}

// executor is a new executor on the rig's journal, sending through send (nil: the client).
func (r *rig) executor(send Sender) *Executor {
	r.t.Helper()
	if send == nil {
		send = r.client
	}
	e, err := New(Config{Journal: r.j, Send: send, Read: r.client, Account: r.client.Address(), Skew: 50 * time.Millisecond,
		LookupWait: 10 * time.Millisecond, MaxLookupWait: 100 * time.Millisecond, LookupGrace: 5 * time.Second})
	if err != nil {
		r.t.Fatal(err)
	}
	return e
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

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// bid is a checked buy of 0.001 BTC-PERP 2% under the mid with the given cloid and time in force.
func (r *rig) bid(e *Executor, cloid, tif string) Checked {
	r.t.Helper()
	in, _ := r.st.Instrument("BTC-PERP")
	mid, _ := r.st.Mid("BTC-PERP")
	px := state.FloorToStep(mid.Mul(decimal.RequireFromString("0.98")), in.TickSize)
	c, errs := e.Check(r.st, state.OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: state.Limit, Price: px.String(), Size: "0.001", Tif: tif, Cloid: cloid})
	if len(errs) > 0 {
		r.t.Fatalf("check: %v", errs)
	}
	return c
}

// atExchange counts the account's orders with each cloid, open and in history.
func (r *rig) atExchange() map[string]int {
	r.t.Helper()
	n := map[string]int{}
	user := r.client.Address()
	open, err := api.AllPages(bg, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return r.client.OpenOrders(ctx, user, p)
	}, 0, nil)
	must(r.t, err)
	hist, err := api.AllPages(bg, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
		return r.client.OrderHistory(ctx, user, p)
	}, 0, nil)
	must(r.t, err)
	seen := map[api.OrderID]bool{}
	for _, o := range append(open, hist...) {
		if !seen[o.OrderID] {
			seen[o.OrderID] = true
			n[o.Cloid]++
		}
	}
	return n
}

func TestAPlacedOrderIsJournaledAndSettled(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	e := r.executor(nil)
	res, err := e.Place(bg, r.bid(e, "rest-1", api.TifGTC), Ask{Who: journal.WhoHeadless, What: "buy 0.001 BTC-PERP"})
	if err != nil || res.Kind != Placed || !res.Outcome.Resting || res.Outcome.Oid == 0 || res.ID != "rest-1" {
		t.Fatalf("place: %+v %v", res, err)
	}
	en, ok, err := r.j.Get(bg, "rest-1")
	if !ok || err != nil || en.State != journal.StateSent || en.Nonce == 0 || en.ExpiresAfter != en.Nonce+1000 ||
		en.Outcome == nil || en.Outcome.Kind != "placed" || !en.Outcome.Settled || en.Outcome.Oid != uint64(res.Outcome.Oid) ||
		!strings.Contains(string(en.Request), `"cloid":"rest-1"`) || en.Intent.Who != journal.WhoHeadless {
		t.Fatalf("journal entry: %+v %v", en, err)
	}
	// The same client id again is refused before anything is signed.
	again, err := e.Place(bg, r.bid(e, "rest-1", api.TifGTC), Ask{Who: journal.WhoHeadless})
	if err != nil || again.Kind != Refused || again.Sent || !strings.Contains(again.Reason, "used before") {
		t.Fatalf("a client id used twice: %+v %v", again, err)
	}
	c, err := e.Cancel(bg, Cancel{InstrumentID: 1, Cloid: "rest-1"}, Ask{Who: journal.WhoHeadless, What: "cancel rest-1"})
	if err != nil || c.Kind != Cancelled {
		t.Fatalf("cancel: %+v %v", c, err)
	}
	if n := r.atExchange(); n["rest-1"] != 1 {
		t.Fatalf("at the exchange: %v", n)
	}
	noKeyIn(t, filepath.Dir(r.path))
}

func TestTheGateRefusesWithoutATypedConfirmation(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	g := state.DefaultGuard()
	g.MaxNotional = decimal.NewFromInt(10)
	e, err := New(Config{Journal: r.j, Send: r.client, Read: r.client, Account: r.client.Address(), Guard: &g})
	must(t, err)
	c := r.bid(e, "big-1", api.TifGTC)
	res, err := e.Place(bg, c, Ask{Who: journal.WhoHeadless})
	if err != nil || res.Kind != Refused || res.Sent || !strings.Contains(res.Reason, "needs confirmation") {
		t.Fatalf("over the guard's notional: %+v %v", res, err)
	}
	if es, _ := r.j.Recent(bg, 10); len(es) != 0 {
		t.Fatalf("a refused order was journaled: %+v", es)
	}
	if res, err = e.Place(bg, c, Ask{Who: journal.WhoHeadless, Confirmed: true}); err != nil || res.Kind != Placed {
		t.Fatalf("confirmed: %+v %v", res, err)
	}
	if _, err := e.Place(bg, Checked{}, Ask{Who: journal.WhoHeadless}); err == nil {
		t.Fatal("an unchecked order was taken")
	}
	loose, _ := Check(r.st, state.OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: state.Limit, Price: "50000", Size: "0.001"}, state.Guard{})
	if _, err := e.Place(bg, loose, Ask{Who: journal.WhoHeadless, Confirmed: true}); err == nil || !strings.Contains(err.Error(), "another guard") {
		t.Fatalf("an order checked against a looser guard was taken: %v", err)
	}
}

// TestALateRequestIsNotCalledNotPlaced: a request that reaches the exchange after the client gave
// up on its answer is not found at first; it is not called "not placed" before its expiresAfter,
// and the lookups that go on find it.
func TestALateRequestIsNotCalledNotPlaced(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	signer, _ := api.SignerFromHex(testKey)
	impatient := api.New(r.client.BaseURL(), api.WithSigner(signer), api.WithExpiryWindow(time.Second), api.WithTimeout(100*time.Millisecond))
	e := r.executor(impatient)
	must(t, e.ensureRecovered(bg))
	r.drop.late.Store(int64(400 * time.Millisecond))
	res, err := e.Place(bg, r.bid(e, "late-1", api.TifGTC), Ask{Who: journal.WhoHeadless})
	if err != nil || res.Kind != Placed || !res.AnswerLost || res.Found == nil {
		t.Fatalf("a late request: %+v %v", res, err)
	}
	if n := r.atExchange(); n["late-1"] != 1 {
		t.Fatalf("at the exchange: %v", n)
	}
}
