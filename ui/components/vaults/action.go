package vaults

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/send"
	"github.com/tradedesk/tradedesk/ui/action"
)

// build checks the typed line and makes the deposit's or the redeem's action.
func (v *View) build() (*action.Action, error) {
	line := strings.TrimSpace(v.input.Value())
	if v.typing == "deposit" {
		addr, amount, ok := strings.Cut(line, " ")
		if !ok {
			return nil, errors.New("type the vault's address and a USD amount: 0xVAULT 100")
		}
		vault, err := api.ChecksumAddress(strings.TrimSpace(addr))
		if err != nil {
			return nil, fmt.Errorf("vault address: %v", err)
		}
		amt, err := decimal.NewFromString(strings.TrimSpace(amount))
		if err != nil || !amt.IsPositive() {
			return nil, fmt.Errorf("amount %q: type a USD amount above zero", strings.TrimSpace(amount))
		}
		if free := v.account().Collateral["USDC"].WithdrawableBalance; amt.GreaterThan(free) {
			return nil, fmt.Errorf("amount %s is more than the %s USDC of derivative collateral free to move", amt, free.StringFixed(2))
		}
		return v.action("deposit", vault, amt), nil
	}
	rows := v.Rows()
	if len(rows) == 0 {
		return nil, errors.New("no vault shares to redeem")
	}
	row := rows[min(v.cursor, len(rows)-1)]
	shares, err := decimal.NewFromString(line)
	if err != nil || !shares.IsPositive() {
		return nil, fmt.Errorf("shares %q: type a number of shares above zero", line)
	}
	if shares.GreaterThan(row.WithdrawableShares) {
		return nil, fmt.Errorf("%s shares is more than the %s held in this vault", shares, row.WithdrawableShares)
	}
	return v.action("redeem", row.Vault, shares), nil
}

// SharePrice is a vault's share worth in USD as the account summary gives it (zero when unknown:
// no shares held).
func SharePrice(b api.VaultBalance) decimal.Decimal {
	if !b.WithdrawableShares.IsPositive() {
		return decimal.Zero
	}
	return b.Amount.Div(b.WithdrawableShares)
}

// action is the confirmed deposit of amount (USD) into vault, or redeem of amount shares from it.
func (v *View) action(what, vault string, amount decimal.Decimal) *action.Action {
	price := SharePrice(v.account().VaultBalances[vault])
	title, lines := "Confirm vault deposit", []string{
		"Deposit   " + amount.String() + " USDC of derivative collateral",
		"Into      vault " + vault,
	}
	desc := "vault deposit of " + amount.String() + " USDC"
	if price.IsPositive() {
		lines = append(lines, "Shares    about "+amount.DivRound(price, 6).String()+" at "+price.StringFixed(6)+" USD a share (the last summary's price)")
	}
	sign := func(ctx context.Context, t Trader) (api.TxResponse, error) {
		return t.DepositToVault(ctx, vault, amount.String())
	}
	if what == "redeem" {
		title = "Confirm vault redeem"
		lines = []string{"Redeem    " + amount.String() + " shares", "From      vault " + vault,
			"For about " + amount.Mul(price).StringFixed(2) + " USDC at " + price.StringFixed(6) + " USD a share (the last summary's price)"}
		desc = "vault redeem of " + amount.String() + " shares"
		sign = func(ctx context.Context, t Trader) (api.TxResponse, error) {
			return t.RedeemFromVault(ctx, vault, amount.String())
		}
	}
	if v.profile != "" {
		lines = append(lines, "Profile   "+v.profile)
	}
	return &action.Action{
		Kind: action.KindTransfer, Confirm: true, What: desc, Title: title, Lines: lines,
		Lane: action.LaneFunds, Refresh: []state.Kind{state.KindAccount, state.KindTransfers},
		Direct: func(ctx context.Context, t api.Trader) (api.TxResponse, error) {
			vt, ok := t.(Trader)
			if !ok {
				return api.TxResponse{}, errors.New("this exchange client has no vault actions")
			}
			return sign(ctx, vt)
		},
		DoKind: send.ActVault, Read: action.ControlRead,
	}
}
