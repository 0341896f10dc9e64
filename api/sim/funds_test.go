package sim

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

func balances(t *testing.T, c *api.Client) (spot, deriv map[string]api.CollateralBalance) {
	t.Helper()
	s, err := c.AccountSummary(ctx(), "")
	if err != nil {
		t.Fatal(err)
	}
	return s.SpotCollateral, s.Collateral
}

func TestTransfers(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice, bob := e.client("alice"), e.client("bob")
	if _, err := alice.SpotTransfer(ctx(), 1, "250.5", bob.Address()); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.DerivativeTransfer(ctx(), 1, "1000", bob.Address()); err != nil {
		t.Fatal(err)
	}
	as, ad := balances(t, alice)
	bs, bd := balances(t, bob)
	eqDec(t, "alice spot", as["USDC"].Balance, "99749.5")
	eqDec(t, "alice deriv", ad["USDC"].Balance, "99000")
	eqDec(t, "bob spot", bs["USDC"].Balance, "100250.5")
	eqDec(t, "bob deriv", bd["USDC"].Balance, "101000")

	if _, err := alice.InternalTransfer(ctx(), 1, "500", true); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.InternalTransfer(ctx(), 1, "200", false); err != nil {
		t.Fatal(err)
	}
	as, ad = balances(t, alice)
	eqDec(t, "alice spot after internal", as["USDC"].Balance, "99449.5")
	eqDec(t, "alice deriv after internal", ad["USDC"].Balance, "99300")

	// A collateral with a transfer fee charges it on top.
	if err := e.sim.Deposit(alice.Address(), collUSDT, dec("1000"), false); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.SpotTransfer(ctx(), 2, "100", bob.Address()); err != nil {
		t.Fatal(err)
	}
	as, _ = balances(t, alice)
	eqDec(t, "alice USDT", as["USDT"].Balance, "899.95")

	errs := []struct {
		call func() error
		want string
	}{
		{func() error { _, err := alice.SpotTransfer(ctx(), 1, "1000000", bob.Address()); return err }, "insufficient spot USDC: need 1000000, 99449.5 available"},
		{func() error { _, err := alice.DerivativeTransfer(ctx(), 9, "1", bob.Address()); return err }, "unknown collateral id 9"},
		{func() error { _, err := alice.SpotTransfer(ctx(), 1, "1", alice.Address()); return err }, "destination is this account"},
		{func() error { _, err := alice.InternalTransfer(ctx(), 1, "1.0000001", true); return err }, "more than 6 decimals"},
		{func() error { _, err := alice.InternalTransfer(ctx(), 1, "200000", false); return err }, "insufficient derivative USDC"},
	}
	for _, c := range errs {
		if err := c.call(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

func TestWithdrawals(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	alice := e.client("alice")
	r, err := alice.SpotWithdraw(ctx(), 1, "1000", 42161)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := r.WithdrawalNonce(); err != nil || n == 0 {
		t.Errorf("withdrawal nonce %d %v (%s)", n, err, r.Data)
	}
	if _, err := alice.DerivativeWithdraw(ctx(), 1, "2000", 1); err != nil {
		t.Fatal(err)
	}
	as, ad := balances(t, alice)
	eqDec(t, "spot after withdraw (1 USDC fee)", as["USDC"].Balance, "98999")
	eqDec(t, "deriv after withdraw", ad["USDC"].Balance, "97999")

	cases := []struct {
		call func() error
		want string
	}{
		{func() error { _, err := alice.SpotWithdraw(ctx(), 1, "98999", 1); return err }, "insufficient spot USDC: need 99000, 98999 available"},
		{func() error { _, err := alice.SpotWithdraw(ctx(), 1, "10", 56); return err }, "USDC withdrawals to chain 56 are disabled"},
		{func() error { _, err := alice.SpotWithdraw(ctx(), 1, "10", 7777); return err }, "USDC cannot be withdrawn to chain 7777: supported chains are 1, 42161, 8453"},
		{func() error { _, err := alice.DerivativeWithdraw(ctx(), 3, "1", 1); return err }, "insufficient derivative WETH"},
	}
	for _, c := range cases {
		if err := c.call(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	// Margin in use cannot be withdrawn: only what is available goes.
	place(t, alice, limit(1, api.SideBuy, "97000", "9"))
	_, ad = balances(t, alice)
	eqDec(t, "withdrawable with an open order", ad["USDC"].WithdrawableBalance, "10474") // 97999 - 9*97250/10
	if _, err := alice.DerivativeWithdraw(ctx(), 1, "10474", 1); err == nil || !strings.Contains(err.Error(), "insufficient derivative USDC: need 10475") {
		t.Errorf("withdraw of margin in use: %v", err)
	}
}

func TestDemoBalanceOff(t *testing.T) {
	t.Parallel()
	e := quietEnv(t, WithDemoBalance(dec("0")))
	alice := e.client("alice")
	as, ad := balances(t, alice)
	if len(as) != 0 || len(ad) != 0 {
		t.Errorf("balances with demo off: %v %v", as, ad)
	}
	if msg := placeErr(t, alice, limit(1, api.SideBuy, "97000", "0.1")); !strings.Contains(msg, "insufficient margin") {
		t.Errorf("order with no funds: %q", msg)
	}
}
