package sim

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestExchangeAccountsInTheOpen (issue #39.5): exchange_accounts lists the house accounts with
// the addresses the package exports and their balances, and the system's sums: after trading, a
// liquidation and a withdrawal, held equals deposited − withdrawn to the unit, and the insurance
// fund's USDC is the one account_summary gives.
func TestExchangeAccountsInTheOpen(t *testing.T) {
	t.Parallel()
	e, alice := liquidatedWithWETH(t)
	if err := e.sim.SetIndexPrice("ETH-PERP", dec("1000")); err != nil {
		t.Fatal(err)
	}
	bob := e.client("bob")
	e.clock.Add(time.Millisecond) // a nonce of its own for bob's withdrawal
	if _, err := bob.DerivativeWithdraw(ctx(), collUSDC, "100", 42161); err != nil {
		t.Fatal(err)
	}
	code, raw := e.postRaw(t, "/info", `{"method":"exchange_accounts","params":{}}`)
	var out struct {
		Accounts []struct {
			Name, Address, Role string
			Derivatives         map[string]decimal.Decimal
		}
		Held, Deposited, Withdrawn map[string]decimal.Decimal
	}
	if err := json.Unmarshal([]byte(raw), &out); err != nil || code != 200 {
		t.Fatalf("exchange_accounts: %d %s", code, raw)
	}
	want := map[string]string{"fees": FeeAccount, "insurance": InsuranceFund, "maker": MakerAccount, "taker": TakerAccount,
		"liquidator": LiquidatorAccount}
	if len(out.Accounts) != len(want) {
		t.Fatalf("%d house accounts, want %d: %s", len(out.Accounts), len(want), raw)
	}
	for _, a := range out.Accounts {
		if want[a.Name] != a.Address || a.Role == "" {
			t.Errorf("%s at %s (%q), want %s", a.Name, a.Address, a.Role, want[a.Name])
		}
		if a.Name == "insurance" {
			eqDec(t, "insurance USDC", a.Derivatives["USDC"], summaryOf(t, alice, InsuranceFund).Collateral["USDC"].Balance.String())
		}
	}
	for sym, held := range out.Held {
		eqDec(t, sym+" held", held, out.Deposited[sym].Sub(out.Withdrawn[sym]).String())
	}
	eqDec(t, "USDC withdrawn", out.Withdrawn["USDC"], "100")
}

// TestREADMEHouseAddresses: the README's table of house accounts gives the addresses the
// package derives.
func TestREADMEHouseAddresses(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for name, addr := range map[string]string{"fees": FeeAccount, "insurance": InsuranceFund, "maker": MakerAccount,
		"taker": TakerAccount, "liquidator": LiquidatorAccount} {
		if !strings.Contains(string(raw), "| "+name+" | `"+addr+"` |") {
			t.Errorf("README's house table lacks %s at %s", name, addr)
		}
	}
}
