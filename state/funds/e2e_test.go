package funds

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
)

// Fixed test keys (never real accounts).
const (
	aliceKey = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	bobKey   = "8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63"
)

type simEnv struct {
	sim        *sim.Sim
	alice, bob *api.Client
	coll       []api.Collateral
}

func newSimEnv(t *testing.T) *simEnv {
	t.Helper()
	clock := sim.NewTestClock(time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC))
	s := sim.New(sim.WithSeed(7), sim.WithClock(clock), sim.WithQuietMarkets())
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	client := func(key string) *api.Client {
		signer, err := api.SignerFromHex(key)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
			t.Fatal(err)
		}
		return api.New(srv.URL+"/", api.WithSigner(signer), api.WithClock(clock.Now), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	}
	e := &simEnv{sim: s, alice: client(aliceKey), bob: client(bobKey)}
	coll, err := e.alice.SupportedCollateral(context.Background(), "all")
	if err != nil {
		t.Fatal(err)
	}
	e.coll = coll
	return e
}

func (e *simEnv) summary(t *testing.T, c *api.Client) api.AccountSummary {
	t.Helper()
	s, err := c.AccountSummary(context.Background(), c.Address())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// send checks req with the account's live balances, then sends it through an executor
// (Checked.Do): journaled as a transfer or withdrawal before it is signed, and done.
func (e *simEnv) send(t *testing.T, from *api.Client, req Request) Checked {
	t.Helper()
	bal := BalancesOf(e.summary(t, from))
	bal.Account = from.Address()
	c, errs := Check(req, e.coll, bal)
	if len(errs) > 0 {
		t.Fatalf("check failed: %v", errs)
	}
	j, err := journal.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	x, err := exec.New(exec.Config{Journal: j, Send: from, Read: from, Account: from.Address()})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Do(context.Background(), x, from, exec.Ask{Who: journal.WhoHeadless})
	if err != nil || res.Kind != exec.Done || !strings.HasPrefix(res.TxHash, "0x") {
		t.Fatalf("send: %+v %v", res, err)
	}
	kind := exec.ActTransfer
	if req.Op.Withdraws() {
		kind = exec.ActWithdraw
	}
	en, ok, err := j.Get(context.Background(), res.ID)
	if !ok || err != nil || en.Intent.Kind != kind || en.Intent.What != c.Words() || en.State != journal.StateSent || en.Outcome == nil || en.Outcome.Kind != "done" {
		t.Fatalf("journal entry: %+v %v", en, err)
	}
	return c
}

func balanceOf(m map[string]api.CollateralBalance, sym string) string {
	return m[sym].Balance.String()
}

// TestTransferAndWithdrawAgainstSimulator moves collateral through the real client and the
// simulator and checks every balance moved by the amount and its fee.
func TestTransferAndWithdrawAgainstSimulator(t *testing.T) {
	e := newSimEnv(t)
	ctx := context.Background()
	if err := e.sim.Deposit(e.alice.Address(), 2, d("1000"), false); err != nil { // 1000 USDT spot
		t.Fatal(err)
	}
	a0, b0 := e.summary(t, e.alice), e.summary(t, e.bob)

	// A spot transfer of USDT to bob, given a lower-case address: 0.05% fee on top.
	c := e.send(t, e.alice, Request{Op: SpotTransfer, Collateral: "USDT", Amount: "200", Destination: strings.ToLower(e.bob.Address())})
	if c.Fee.String() != "0.1" || c.Destination != e.bob.Address() {
		t.Fatalf("fee %s destination %s", c.Fee, c.Destination)
	}
	// A derivative withdrawal of USDC to Arbitrum: 1 USDC fee on top.
	w := e.send(t, e.alice, Request{Op: DerivativeWithdraw, Collateral: "USDC", Amount: "2500", Chain: 42161})
	if w.Fee.String() != "1" {
		t.Fatalf("withdrawal fee %s", w.Fee)
	}
	// An internal move from spot to derivative.
	e.send(t, e.alice, Request{Op: ToDerivative, Collateral: "USDC", Amount: "10.5"})

	a1, b1 := e.summary(t, e.alice), e.summary(t, e.bob)
	checks := []struct{ what, got, want string }{
		{"alice spot USDT", balanceOf(a1.SpotCollateral, "USDT"), "799.9"},
		{"bob spot USDT", balanceOf(b1.SpotCollateral, "USDT"), "200"},
		{"alice derivative USDC", balanceOf(a1.Collateral, "USDC"),
			a0.Collateral["USDC"].Balance.Sub(d("2501")).Add(d("10.5")).String()},
		{"alice spot USDC", balanceOf(a1.SpotCollateral, "USDC"), a0.SpotCollateral["USDC"].Balance.Sub(d("10.5")).String()},
		{"bob derivative USDC", balanceOf(b1.Collateral, "USDC"), balanceOf(b0.Collateral, "USDC")},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %s, want %s", c.what, c.got, c.want)
		}
	}

	// The checks hold the exchange's own limits: asking for more than is withdrawable is refused
	// before anything is signed, and the simulator would refuse it too.
	bal := BalancesOf(a1)
	bal.Account = e.alice.Address()
	_, errs := Check(Request{Op: SpotTransfer, Collateral: "USDT", Amount: "799.9", Destination: e.bob.Address()}, e.coll, bal)
	if len(errs) != 1 || errs[0].Field != FieldAmount || errs[0].Suggest != "799.5" {
		t.Fatalf("want the fee-aware limit (799.500249) at the display precision, got %v", errs)
	}
	// The suggestion, typed back, passes (QA item 10: it is rounded down, never up).
	if _, errs := Check(Request{Op: SpotTransfer, Collateral: "USDT", Amount: "799.5", Destination: e.bob.Address()}, e.coll, bal); len(errs) != 0 {
		t.Fatalf("the suggested amount does not pass: %v", errs)
	}
	if _, err := e.alice.SpotTransfer(ctx, 2, "799.9", e.bob.Address()); err == nil {
		t.Fatal("the simulator accepted a transfer whose fee is not covered")
	}
	// A disabled chain is refused by the check and by the simulator alike.
	if _, errs := Check(Request{Op: SpotWithdraw, Collateral: "USDC", Amount: "1", Chain: 56}, e.coll, bal); len(errs) != 1 || errs[0].Field != FieldChain {
		t.Fatalf("disabled chain passed the check: %v", errs)
	}
	if _, err := e.alice.SpotWithdraw(ctx, 1, "1", 56); err == nil {
		t.Fatal("the simulator accepted a withdrawal to a disabled chain")
	}
}
