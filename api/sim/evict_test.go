package sim

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

func (e *env) userCount() int {
	e.sim.mu.Lock()
	defer e.sim.mu.Unlock()
	return len(e.sim.eng.users)
}

// TestAccountLimit: queries never open accounts; signers open them up to the limit; past it a
// new signer (or a transfer to a new address) is refused with 503 while open accounts go on;
// once accounts are idle and their nonces are out of the window they are forgotten, except an
// account holding a position; and a forgotten account's old request cannot be replayed.
func TestAccountLimit(t *testing.T) {
	t.Parallel()
	const limitN = 6
	e := quietEnv(t, WithMaxAccounts(limitN))
	alice, bob := e.client("alice"), e.client("bob")
	place(t, alice, limit(1, api.SideSell, "97000", "0.1"))
	place(t, bob, limit(1, api.SideBuy, "97000", "0.1")) // alice and bob now hold positions
	e.open("u0", "u1")
	// A collateral action carries no expiresAfter: only the nonce window stops its replay.
	first := signed(t, "u0", "internalBalanceTransferRequest",
		&api.InternalTransferData{CollateralID: collUSDC, Amount: "1", ToDerivativesAccount: true, Nonce: e.nowMs() + 7})
	if code, out := e.post(t, "/exchange", first); code != 200 {
		t.Fatalf("u0: %d %v", code, out)
	}
	// u1 signs with a nonce nearly a day ahead: it stays in the window longest.
	future := signed(t, "u1", "internalBalanceTransferRequest",
		&api.InternalTransferData{CollateralID: collUSDC, Amount: "1", ToDerivativesAccount: true, Nonce: e.nowMs() + uint64((nonceAhead - time.Hour).Milliseconds())})
	if code, out := e.post(t, "/exchange", future); code != 200 {
		t.Fatalf("u1: %d %v", code, out)
	}
	for i := 2; i < limitN-2; i++ {
		if _, err := e.client(fmt.Sprintf("u%d", i)).CancelAll(ctx()); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 50; i++ { // reading accounts opens none
		addr := fmt.Sprintf("0x%040x", i+1)
		if _, err := alice.AccountSummary(ctx(), addr); err != nil {
			t.Fatal(err)
		}
	}
	if n := e.userCount(); n != limitN {
		t.Fatalf("%d accounts, want %d", n, limitN)
	}
	err := e.sim.Fund(nameAddr(t, "late"), e.sim.cfg.demo)
	if err == nil || !strings.Contains(err.Error(), "limit of 6 accounts") {
		t.Fatalf("funding a new account past the limit: %v", err)
	}
	before, _ := alice.AccountSummary(ctx(), "")
	_, err = alice.DerivativeTransfer(ctx(), collUSDC, "10", "0x00000000000000000000000000000000000000aa")
	if ae, ok := api.AsError(err); !ok || ae.Status != http.StatusServiceUnavailable || !strings.Contains(ae.Message, "destination") {
		t.Fatalf("a transfer to a new account past the limit: %v", err)
	}
	sum, _ := alice.AccountSummary(ctx(), "")
	eqDec(t, "alice's USDC after the refused transfer", sum.Collateral["USDC"].Balance, before.Collateral["USDC"].Balance.String())
	if _, err := bob.CancelAll(ctx()); err != nil {
		t.Fatalf("an open account stopped working: %v", err)
	}

	// Two days and an hour later every account but the two holding positions is idle.
	e.sim.Advance(nonceBehind + accountIdle + time.Minute)
	if _, err := e.client("late").CancelAll(ctx()); err != nil {
		t.Fatalf("after the idle accounts expired: %v", err)
	}
	if n := e.userCount(); n != 4 {
		t.Errorf("%d accounts after eviction, want alice, bob, u1 (its nonce is still in the window) and late", n)
	}
	code, out := e.post(t, "/exchange", future)
	if msg, _ := out["error"].(string); code != http.StatusUnauthorized || !strings.Contains(msg, "already used") {
		t.Errorf("replay of u1's request: %d %v", code, out)
	}
	if ps, _ := alice.Positions(ctx(), ""); len(ps) != 1 {
		t.Errorf("alice's position went with the idle accounts: %+v", ps)
	}
	code, out = e.post(t, "/exchange", first)
	if msg, _ := out["error"].(string); code != http.StatusUnauthorized || !strings.Contains(msg, "outside the accepted window") {
		t.Errorf("replay of a forgotten account's request: %d %v", code, out)
	}
}

// TestEvictionScanIsThrottled: a full simulator with nothing idle does not rescan its accounts
// for every new signer, and scans again once the rescan interval has passed.
func TestEvictionScanIsThrottled(t *testing.T) {
	t.Parallel()
	e := quietEnv(t, WithMaxAccounts(2))
	for _, n := range []string{"a", "b"} {
		if _, err := e.client(n).CancelAll(ctx()); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.sim.Fund(nameAddr(t, "c"), e.sim.cfg.demo); err == nil {
		t.Fatal("a third account opened")
	}
	e.sim.mu.Lock()
	scanned := e.sim.eng.limit.lastScan
	e.sim.mu.Unlock()
	if scanned.IsZero() {
		t.Fatal("no scan recorded")
	}
	e.sim.Advance(nonceBehind + accountIdle)
	if _, err := e.client("c").CancelAll(ctx()); err != nil {
		t.Fatalf("after the rescan interval: %v", err)
	}
}
