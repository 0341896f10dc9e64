package sim

import (
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestStateSurvivesARestart (issue #39.1): a simulator with a state file trades, transfers,
// withdraws, pays funding and liquidates; a new one started later from the file answers the
// same balances, positions, fills, funding, transfers and house accounts, the whole system
// still balances to the unit, the faucet remembers whom it funded, and a body acted on before
// the restart (one with a nonce ahead of the clock too) is refused after it.
func TestStateSurvivesARestart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "sim.json")
	first := envAt(t, testStart, WithStateFile(file), WithStartNonceFloor(), WithDemoBalance(dec("5000")))
	alice, bob := first.client("alice"), first.client("bob")
	first.clock.Add(time.Millisecond) // nonces after the start
	place(t, bob, limit(1, api.SideSell, "97250", "0.3"))
	place(t, alice, limit(1, api.SideBuy, "97250", "0.3"))
	first.clock.Add(time.Millisecond)
	if _, err := alice.InternalTransfer(ctx(), collUSDC, "1000", true); err != nil {
		t.Fatal(err)
	}
	first.clock.Add(time.Millisecond)
	if _, err := bob.DerivativeWithdraw(ctx(), collUSDC, "100", 42161); err != nil {
		t.Fatal(err)
	}
	first.sim.Advance(time.Hour) // funding
	if err := first.sim.SetIndexPrice("BTC-PERP", dec("76000")); err != nil {
		t.Fatal(err)
	}
	if s := summaryOf(t, alice, ""); len(s.PerpPositions) != 0 {
		t.Fatalf("alice should have been liquidated: %+v", s.PerpPositions)
	}
	if code, raw := first.postRaw(t, "/faucet", fmt.Sprintf(`{"user":%q}`, nameAddr(t, "carol"))); code != 200 {
		t.Fatalf("faucet: %d %s", code, raw)
	}
	n := first.nowMs() + 10*60*1000 // ten minutes ahead of the clock, inside the window
	ahead := signed(t, "bob", api.ActionPlaceOrder, &api.PlaceOrderData{
		Orders: []api.OrderWire{limit(1, api.SideBuy, "70000", "0.1")}, ExpiresAfter: n + 60000, Nonce: n})
	if code, out := first.post(t, "/exchange", ahead); code != http.StatusOK {
		t.Fatalf("a body signed ahead of the clock: %d %v", code, out)
	}
	users := []string{alice.Address(), bob.Address(), nameAddr(t, "carol")}
	before := recordsOf(t, first, users)
	if err := first.sim.StateError(); err != nil {
		t.Fatal(err)
	}

	second := envAt(t, first.clock.Now().Add(time.Second), WithStateFile(file), WithStartNonceFloor(), WithDemoBalance(dec("5000")))
	if err := second.sim.StateError(); err != nil {
		t.Fatal(err)
	}
	after := recordsOf(t, second, users)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s after the restart:\n%s\nbefore:\n%s", k, after[k], v)
		}
	}
	checkBooks(t, second.sim)
	if code, raw := second.postRaw(t, "/faucet", fmt.Sprintf(`{"user":%q}`, nameAddr(t, "carol"))); code == 200 {
		t.Errorf("the faucet funded carol again after the restart: %s", raw)
	}
	if code, out := second.post(t, "/exchange", ahead); code != http.StatusUnauthorized {
		t.Errorf("the body signed ahead of the clock, replayed after the restart: %d %v", code, out)
	}
}

// recordsOf reads what each account and the house show over /info, as raw JSON by method.
func recordsOf(t *testing.T, e *env, users []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, u := range users {
		for _, m := range []string{"account_summary", "positions", "fills", "funding_history", "transfer_history"} {
			code, raw := e.postRaw(t, "/info", fmt.Sprintf(`{"method":%q,"params":{"user":%q}}`, m, u))
			if code != 200 {
				t.Fatalf("%s %s: %d %s", m, u, code, raw)
			}
			out[m+" "+u] = raw
		}
	}
	_, out["exchange_accounts"] = e.postRaw(t, "/info", `{"method":"exchange_accounts"}`)
	return out
}
