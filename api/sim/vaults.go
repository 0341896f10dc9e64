package sim

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// Strict field kinds and keys of the vault actions (protocol.md's table, as the SDKs send them).
func init() {
	vault := field{name: "vaultAddress", kind: fAgentAddress}
	nonce := field{name: "nonce", kind: fInt}
	dataFields[api.TxDepositToVault] = []field{vault, {name: "amount", kind: fDecimal}, nonce}
	dataFields[api.TxRedeemFromVault] = []field{vault, {name: "shares", kind: fDecimal}, nonce}
}

// The vault transfers' kinds in transfer_history (the SDK's names).
const (
	xferVaultDeposit  = api.TransferVaultDeposit
	xferVaultWithdraw = api.TransferVaultWithdraw
)

// vault is one vault: its own account holds the USDC deposited (its equity is that account's),
// and its shares are owned by depositors. A share's price is the vault's equity over its shares
// (1 USD while it has none), so a deposit buys shares and a redeem sells them at that price.
type vault struct {
	acct   *account
	shares map[string]decimal.Decimal // by depositor
	total  decimal.Decimal
}

// AddVault makes addr a vault the accounts can deposit into and redeem from (depositToVault,
// redeemFromVault) and which their account_summary's vault_balances show. A vault's USDC is in
// its own account, so the money the simulator holds is conserved. Vaults are not kept in the
// state file.
func (s *Sim) AddVault(addr string) error {
	a, err := canonical(addr)
	if err != nil {
		return fmt.Errorf("vault: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.eng.vaults == nil {
		s.eng.vaults = map[string]*vault{}
	}
	if s.eng.vaults[a] != nil {
		return fmt.Errorf("vault %s exists", a)
	}
	acct, err := s.eng.openAccount(a)
	if err != nil {
		return err
	}
	s.eng.vaults[a] = &vault{acct: acct, shares: map[string]decimal.Decimal{}}
	return nil
}

// price is a share's worth in USDC: equity over shares, 1 with no shares.
func (v *vault) price() decimal.Decimal {
	if !v.total.IsPositive() {
		return decimal.NewFromInt(1)
	}
	return v.acct.deriv[collUSDC].Div(v.total)
}

func (e *engine) vaultOf(addr string) (*vault, error) {
	a, _ := canonical(addr)
	v := e.vaults[a]
	if v == nil {
		return nil, fmt.Errorf("vaultAddress %s is no vault on this exchange", trunc(addr, 60))
	}
	return v, nil
}

// depositToVault moves amount of the account's free derivative USDC into the vault for shares.
func (e *engine) depositToVault(a *account, d *api.DepositToVaultData) (any, error) {
	v, err := e.vaultOf(d.VaultAddress)
	if err != nil {
		return nil, err
	}
	if v.acct == a {
		return nil, errors.New("a vault does not deposit into itself")
	}
	c, amt, err := e.amount(collUSDC, d.Amount)
	if err != nil {
		return nil, err
	}
	if err := e.owes(a, collUSDC); err != nil {
		return nil, err
	}
	if free := e.derivFree(a, collUSDC); amt.GreaterThan(free) {
		return nil, short("derivative", c.rec.Symbol, amt, free)
	}
	shares := amt.DivRound(v.price(), 12)
	a.deriv[collUSDC] = a.deriv[collUSDC].Sub(amt)
	v.acct.deriv[collUSDC] = v.acct.deriv[collUSDC].Add(amt)
	v.shares[a.addr] = v.shares[a.addr].Add(shares)
	v.total = v.total.Add(shares)
	e.noteTransfer(transferRec{kind: xferVaultDeposit, coll: c, amount: amt, fee: decimal.Zero}, a, v.acct)
	return map[string]string{"vault": v.acct.addr, "shares": shares.String(), "amount": amt.String()}, nil
}

// redeemFromVault sells shares of the vault back for the account's derivative USDC.
func (e *engine) redeemFromVault(a *account, d *api.RedeemFromVaultData) (any, error) {
	v, err := e.vaultOf(d.VaultAddress)
	if err != nil {
		return nil, err
	}
	shares, err := decimal.NewFromString(strings.TrimSpace(d.Shares))
	if err != nil || !shares.IsPositive() {
		return nil, fmt.Errorf("shares %q: want a decimal above zero", trunc(d.Shares, 30))
	}
	if have := v.shares[a.addr]; shares.GreaterThan(have) {
		return nil, fmt.Errorf("insufficient vault shares: need %s, %s held", shares, have)
	}
	amt := shares.Mul(v.price()).Truncate(int32(e.collByID[collUSDC].rec.Decimals))
	v.shares[a.addr] = v.shares[a.addr].Sub(shares)
	if v.shares[a.addr].IsZero() {
		delete(v.shares, a.addr)
	}
	v.total = v.total.Sub(shares)
	v.acct.deriv[collUSDC] = v.acct.deriv[collUSDC].Sub(amt)
	a.deriv[collUSDC] = a.deriv[collUSDC].Add(amt)
	e.noteTransfer(transferRec{kind: xferVaultWithdraw, coll: e.collByID[collUSDC], amount: amt, fee: decimal.Zero}, v.acct, a)
	return map[string]string{"vault": v.acct.addr, "shares": shares.String(), "amount": amt.String()}, nil
}

// vaultBalances are the account's shares in each vault, for its account_summary.
func (e *engine) vaultBalances(a *account) map[string]api.VaultBalance {
	out := map[string]api.VaultBalance{}
	addrs := make([]string, 0, len(e.vaults))
	for addr := range e.vaults {
		addrs = append(addrs, addr)
	}
	sort.Strings(addrs)
	for _, addr := range addrs {
		v := e.vaults[addr]
		if n := v.shares[a.addr]; n.IsPositive() {
			out[addr] = api.VaultBalance{WithdrawableShares: n, TotalShares: v.total, Amount: n.Mul(v.price()).Truncate(6)}
		}
	}
	return out
}
