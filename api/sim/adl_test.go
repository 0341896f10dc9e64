package sim

import (
	"os"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// TestDeleveragingRefillsTheInsuranceFund (issue #39, the insurance fund's rules): alice's
// liquidation (4,000 USDC, a 4,820 loss, 15.56 and 170.40 of fees) leaves the insurance fund at
// −835.56 USDC; the most profitable short opposite the liquidator's long (bob's, +12.4% against
// carol's +11.3%) is closed against it at the mark as far as the deficit needs (0.0694 of 0.4
// BTC), and 835.56 of its 836.27 profit goes to the fund, which is
// back at zero. Bob's fill (fill_type 2, closeShort, no fee) shows the PnL he kept, his balance
// follows from his fills alone, carol is untouched, and the books balance to the unit. Guards
// the fund left below zero, a ranking by the least profitable, and a haircut past the deficit.
func TestDeleveragingRefillsTheInsuranceFund(t *testing.T) {
	t.Parallel()
	e := moneyEnv(t)
	alice, bob, carol, dave := e.client("alice"), e.client("bob"), e.client("carol"), e.client("dave")
	e.deposit(t, alice, collUSDC, "4000")
	e.deposit(t, bob, collUSDC, "100000")
	e.deposit(t, carol, collUSDC, "10000")
	e.deposit(t, dave, collUSDC, "100000")
	place(t, carol, limit(1, api.SideSell, "96000", "0.1"))
	place(t, dave, limit(1, api.SideBuy, "96000", "0.1"))
	place(t, bob, limit(1, api.SideSell, "97250", "0.4"))
	place(t, alice, limit(1, api.SideBuy, "97250", "0.4"))
	if err := e.sim.SetIndexPrice("BTC-PERP", dec("85200")); err != nil {
		t.Fatal(err)
	}
	eqDec(t, "insurance fund USDC after deleveraging", summaryOf(t, alice, InsuranceFund).Collateral["USDC"].Balance, "0")
	f := fillsOf(t, bob, "")[0]
	if int64(f.FillType) != fillDeleverage || f.Direction != api.DirCloseShort || f.Side != api.SideBuy {
		t.Fatalf("bob's newest fill %+v, want the deleveraging (fill_type 2, closeShort)", f)
	}
	eqDec(t, "deleveraged size", f.Size, "0.0694")
	eqDec(t, "deleveraged at the mark", f.Price, "85200")
	eqDec(t, "closed PnL kept (836.27 less the 835.56 haircut)", f.ClosedPnl, "0.71")
	eqDec(t, "deleveraging fee", f.Fee, "0")
	sum := dec("100000")
	for _, f := range fillsOf(t, bob, "") {
		sum = sum.Add(f.ClosedPnl).Sub(f.Fee)
	}
	eqDec(t, "bob's USDC from his fills", sum, "100004.6")
	eqDec(t, "bob's USDC", summaryOf(t, bob, "").Collateral["USDC"].Balance, "100004.6")
	eqDec(t, "bob's short left", positionSize(t, e, bob.Address()), "-0.3306")
	eqDec(t, "carol's short (less profitable) untouched", positionSize(t, e, carol.Address()), "-0.1")
	eqDec(t, "the liquidator's long left", positionSize(t, e, LiquidatorAccount), "0.3306")
	checkBooks(t, e.sim)
}

// TestInsuranceFundMayStayBelowZero: when the only position opposite the liquidator's is not in
// profit (bob shorted at 80,000, below the crash's 85,200), nobody is deleveraged and the fund
// stays below zero, as the simulator's doc says it may.
func TestInsuranceFundMayStayBelowZero(t *testing.T) {
	t.Parallel()
	e := moneyEnv(t)
	alice, bob, dave := e.client("alice"), e.client("bob"), e.client("dave")
	e.deposit(t, alice, collUSDC, "4000")
	e.deposit(t, bob, collUSDC, "100000")
	e.deposit(t, dave, collUSDC, "100000")
	if err := e.sim.SetIndexPrice("BTC-PERP", dec("80000")); err != nil {
		t.Fatal(err)
	}
	place(t, bob, limit(1, api.SideSell, "80000", "0.4"))
	place(t, dave, limit(1, api.SideBuy, "80000", "0.4"))
	if err := e.sim.SetIndexPrice("BTC-PERP", dec("97250")); err != nil {
		t.Fatal(err)
	}
	place(t, dave, limit(1, api.SideSell, "97250", "0.4")) // dave is flat; bob's short is in loss
	place(t, alice, limit(1, api.SideBuy, "97250", "0.4"))
	if err := e.sim.SetIndexPrice("BTC-PERP", dec("85200")); err != nil {
		t.Fatal(err)
	}
	eqDec(t, "insurance fund USDC", summaryOf(t, alice, InsuranceFund).Collateral["USDC"].Balance, "-835.56")
	eqDec(t, "bob's short (in loss) untouched", positionSize(t, e, bob.Address()), "-0.4")
	eqDec(t, "the liquidator keeps alice's long", positionSize(t, e, LiquidatorAccount), "0.4")
	checkBooks(t, e.sim)
}

// positionSize is an account's signed BTC-PERP size (0 when flat), read from the engine.
func positionSize(t *testing.T, e *env, addr string) decimal.Decimal {
	t.Helper()
	e.sim.mu.Lock()
	defer e.sim.mu.Unlock()
	m := e.sim.eng.byID[1]
	if a := e.sim.eng.accounts[addr]; a != nil && a.pos[1] != nil {
		return m.qty(a.pos[1].size)
	}
	return decimal.Zero
}

// TestDeleveragingIsDocumented: `tradedesk sim --help`, exchange_accounts' roles, the package
// doc and the README say that the insurance fund may go below zero and that it is refilled by
// auto-deleveraging; --help, the doc and the README name exchange_accounts.
func TestDeleveragingIsDocumented(t *testing.T) {
	t.Parallel()
	texts := map[string]string{"--help": CommandHelp}
	for _, r := range houseRoles {
		texts["role "+r.name] += r.role
	}
	for _, f := range []string{"doc.go", "../../README.md"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[f] = strings.Join(strings.Fields(strings.ReplaceAll(string(b), "//", "")), " ")
	}
	for name, text := range texts {
		if name == "role fees" || name == "role maker" || name == "role taker" {
			continue
		}
		if !strings.Contains(strings.Join(strings.Fields(text), " "), "auto-deleverag") {
			t.Errorf("%s does not say that the insurance fund is refilled by auto-deleveraging", name)
		}
	}
	for _, name := range []string{"--help", "doc.go", "../../README.md"} {
		if !strings.Contains(texts[name], "exchange_accounts") {
			t.Errorf("%s does not name the exchange_accounts method that lists the house accounts", name)
		}
	}
	for name, text := range map[string]string{"--help": CommandHelp, "README": texts["../../README.md"]} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), "below zero") || !strings.Contains(text, "2") {
			t.Errorf("%s does not say that the fund may go below zero", name)
		}
	}
}
