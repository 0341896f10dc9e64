package sim

import (
	"bytes"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// TestVaultDepositAndRedeem (issue #42): two funded accounts and a vault on one simulator. a
// deposits 1,000 USDC (1,000 shares at 1 USD), b deposits 500 (500 shares); a's account summary's
// vault_balances shows its shares, the vault's total and their worth, and its derivative USDC is
// 1,000 less; a redeems 400 shares for 400 USDC; over-redeeming, an unknown vault and an agent
// key are refused, and the money the simulator holds is unchanged (the vault is an account).
func TestVaultDepositAndRedeem(t *testing.T) {
	t.Parallel()
	e := quietEnv(t)
	vaultAddr := nameAddr(t, "vault")
	if err := e.sim.AddVault(vaultAddr); err != nil {
		t.Fatal(err)
	}
	a, b := e.client("a"), e.client("b")
	before, _ := a.AccountSummary(ctx(), a.Address())
	if _, err := a.DepositToVault(ctx(), vaultAddr, "1000"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.DepositToVault(ctx(), vaultAddr, "500"); err != nil {
		t.Fatal(err)
	}
	s, err := a.AccountSummary(ctx(), a.Address())
	if err != nil {
		t.Fatal(err)
	}
	vb, ok := s.VaultBalances[vaultAddr]
	if !ok || len(s.VaultBalances) != 1 {
		t.Fatalf("vault_balances %v", s.VaultBalances)
	}
	eqDec(t, "a's shares", vb.WithdrawableShares, "1000")
	eqDec(t, "the vault's shares", vb.TotalShares, "1500")
	eqDec(t, "their worth", vb.Amount, "1000")
	eqDec(t, "a's USDC after", s.Collateral["USDC"].Balance, before.Collateral["USDC"].Balance.Sub(dec("1000")).String())
	if _, err := a.RedeemFromVault(ctx(), vaultAddr, "400"); err != nil {
		t.Fatal(err)
	}
	s, _ = a.AccountSummary(ctx(), a.Address())
	eqDec(t, "a's shares after redeeming", s.VaultBalances[vaultAddr].WithdrawableShares, "600")
	eqDec(t, "a's USDC after redeeming", s.Collateral["USDC"].Balance, before.Collateral["USDC"].Balance.Sub(dec("600")).String())
	if _, err := a.RedeemFromVault(ctx(), vaultAddr, "601"); err == nil || !contains(err.Error(), "insufficient vault shares") {
		t.Fatalf("over-redeem: %v", err)
	}
	if _, err := a.DepositToVault(ctx(), nameAddr(t, "nobody"), "1"); err == nil || !contains(err.Error(), "no vault") {
		t.Fatalf("unknown vault: %v", err)
	}
	vs, _ := b.AccountSummary(ctx(), vaultAddr)
	eqDec(t, "the vault's USDC", vs.Collateral["USDC"].Balance, "1100")
}

// TestVaultActionsSignAsTheSDKs: depositToVault and redeemFromVault are tx types 1401 and 1402
// and their signed MessagePack is a three-key map in the SDKs' order: vaultAddress, amount or
// shares, nonce.
func TestVaultActionsSignAsTheSDKs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		action string
		tx     uint16
		data   api.ActionData
		keys   []string
	}{
		{api.ActionDepositToVault, 1401, &api.DepositToVaultData{VaultAddress: "0xV", Amount: "1", Nonce: 7}, []string{"vaultAddress", "amount", "nonce"}},
		{api.ActionRedeemFromVault, 1402, &api.RedeemFromVaultData{VaultAddress: "0xV", Shares: "1", Nonce: 7}, []string{"vaultAddress", "shares", "nonce"}},
	} {
		info, ok := api.LookupAction(c.action)
		if !ok || info.TxType != c.tx {
			t.Fatalf("%s: %v %d", c.action, ok, info.TxType)
		}
		b := c.data.AppendMsgpack(nil)
		if b[0] != 0x83 {
			t.Fatalf("%s: map header %x", c.action, b[0])
		}
		last := 0
		for _, k := range c.keys {
			i := bytes.Index(b, append([]byte{byte(0xa0 | len(k))}, k...))
			if i < last {
				t.Fatalf("%s: key %s at %d, before %d: %x", c.action, k, i, last, b)
			}
			last = i
		}
	}
}
