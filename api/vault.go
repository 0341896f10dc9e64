package api

import "context"

// The vault actions (protocol.md's table, as the official SDKs send them: the Python SDK's
// DepositToVaultParams / RedeemFromVaultParams and op codes, the TypeScript SDK's
// vault.method.d.ts): the keys in the order listed, the address EIP-55, the amount and shares
// decimal strings.
const (
	ActionDepositToVault   = "depositToVault"
	ActionRedeemFromVault  = "redeemFromVault"
	TxDepositToVault       = uint16(1401)
	TxRedeemFromVault      = uint16(1402)
	keyVaultAddress        = "vaultAddress"
	vaultActionFieldsCount = 0x83
)

// DepositToVaultData is depositToVault's action.data: amount of the account's derivative
// collateral (USD) into the vault, for shares at the vault's share price.
type DepositToVaultData struct {
	VaultAddress string `json:"vaultAddress"`
	Amount       string `json:"amount"`
	Nonce        uint64 `json:"nonce"`
}

// RedeemFromVaultData is redeemFromVault's action.data: shares of the vault back to the
// account's derivative collateral at the vault's share price.
type RedeemFromVaultData struct {
	VaultAddress string `json:"vaultAddress"`
	Shares       string `json:"shares"`
	Nonce        uint64 `json:"nonce"`
}

// AppendMsgpack appends the signed MessagePack form of depositToVault's data.
func (d *DepositToVaultData) AppendMsgpack(b []byte) []byte {
	b = append(b, vaultActionFieldsCount)
	b = appendStr(b, keyVaultAddress)
	b = appendStr(b, d.VaultAddress)
	b = appendStr(b, "amount")
	b = appendStr(b, d.Amount)
	return appendExpiryNonce(b, 0, d.Nonce)
}

// AppendMsgpack appends the signed MessagePack form of redeemFromVault's data.
func (d *RedeemFromVaultData) AppendMsgpack(b []byte) []byte {
	b = append(b, vaultActionFieldsCount)
	b = appendStr(b, keyVaultAddress)
	b = appendStr(b, d.VaultAddress)
	b = appendStr(b, "shares")
	b = appendStr(b, d.Shares)
	return appendExpiryNonce(b, 0, d.Nonce)
}

// DepositToVault moves amount (a plain positive decimal, USD) of the account's derivative
// collateral into vault. It needs the account's own key (money leaves the account).
func (c *Client) DepositToVault(ctx context.Context, vault, amount string) (TxResponse, error) {
	return c.vaultAction(ctx, ActionDepositToVault, vault, amount)
}

// RedeemFromVault redeems shares (a plain positive decimal) of vault back to the account's
// derivative collateral. It needs the account's own key.
func (c *Client) RedeemFromVault(ctx context.Context, vault, shares string) (TxResponse, error) {
	return c.vaultAction(ctx, ActionRedeemFromVault, vault, shares)
}

func (c *Client) vaultAction(ctx context.Context, action, vault, value string) (TxResponse, error) {
	info := mustAction(action)
	op := "exchange " + info.Name
	if err := c.canTrade(op); err != nil {
		return TxResponse{}, err
	}
	if err := c.agentRefusal(info); err != nil {
		return TxResponse{}, err
	}
	v, err := ChecksumAddress(vault)
	if err != nil {
		return TxResponse{}, invalid(op, "vault: %v", err)
	}
	if err := positiveDecimal(value); err != nil {
		what := "amount"
		if action == ActionRedeemFromVault {
			what = "shares"
		}
		return TxResponse{}, invalid(op, "%s: %v", what, err)
	}
	n, _ := c.nonce()
	if action == ActionRedeemFromVault {
		return c.send(ctx, info, &RedeemFromVaultData{VaultAddress: v, Shares: value, Nonce: n})
	}
	return c.send(ctx, info, &DepositToVaultData{VaultAddress: v, Amount: value, Nonce: n})
}
