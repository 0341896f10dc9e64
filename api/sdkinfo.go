package api

import (
	"context"

	"github.com/shopspring/decimal"
)

// /info methods of the real exchange beyond the spec's table, as the official SDKs call them
// (protocol.md). The client sends the snake_case names; the npm TypeScript SDK's camelCase names
// (fundingHistory, transferHistory, userFees, accountHistory) reach the same methods.
const (
	MethodFundingHistory  = "funding_history"
	MethodTransferHistory = "transfer_history"
	MethodUserFees        = "user_fees"
	MethodAccountHistory  = "account_history"
	MethodOracle          = "oracle"
)

// FundingPayment is one funding settlement of a position: Payment is negative when the position
// paid, Size signed (negative for a short).
type FundingPayment struct {
	User               string          `json:"user"`
	InstrumentID       InstrumentID    `json:"instrument_id"`
	SettlementCurrency CollateralID    `json:"settlement_currency"`
	Payment            decimal.Decimal `json:"funding_payment"`
	Rate               decimal.Decimal `json:"funding_rate"`
	MarkPrice          decimal.Decimal `json:"mark_price"`
	Size               decimal.Decimal `json:"size"`
	Time               Time            `json:"timestamp"`
}

// Transfer kinds of TransferRecord.Type.
const (
	TransferDeposit            = "deposit"
	TransferSpotWithdraw       = "spot_withdraw"
	TransferDerivativeWithdraw = "derivative_withdraw"
	TransferSpot               = "spot_balance_transfer"
	TransferDerivative         = "derivative_balance_transfer"
	TransferInternal           = "internal_balance_transfer"
	TransferVaultDeposit       = "vault_deposit"
	TransferVaultWithdraw      = "vault_withdraw"
)

// TransferRecord is one movement of collateral into, out of or within an account.
type TransferRecord struct {
	From         string          `json:"from"`
	To           string          `json:"to"`
	CollateralID CollateralID    `json:"collateral_id"`
	Amount       decimal.Decimal `json:"amount"`
	TxHash       string          `json:"tx_hash"`
	Type         string          `json:"type"`
	Time         Time            `json:"timestamp"`
	// Fee is what the sender paid on top of Amount (a withdrawal's fee); zero on a receipt, and
	// when the exchange does not say.
	Fee decimal.Decimal `json:"fee"`
}

// UserFees is the account's fee schedule and its rolling traded volumes. Rates are fractions of
// notional (0.0004 = 0.04%); a negative maker rate is a rebate.
type UserFees struct {
	Account              string          `json:"account"`
	SpotVolume14d        decimal.Decimal `json:"spot_volume_14d"`
	SpotVolume30d        decimal.Decimal `json:"spot_volume_30d"`
	StableSpotVolume14d  decimal.Decimal `json:"stable_spot_volume_14d"`
	StableSpotVolume30d  decimal.Decimal `json:"stable_spot_volume_30d"`
	PerpVolume14d        decimal.Decimal `json:"perp_volume_14d"`
	PerpVolume30d        decimal.Decimal `json:"perp_volume_30d"`
	OptionVolume14d      decimal.Decimal `json:"option_volume_14d"`
	OptionVolume30d      decimal.Decimal `json:"option_volume_30d"`
	TotalVolumeThreshold decimal.Decimal `json:"total_volume_threshold"`
	PerpMaker            decimal.Decimal `json:"perp_maker_fee_rate"`
	PerpTaker            decimal.Decimal `json:"perp_taker_fee_rate"`
	SpotMaker            decimal.Decimal `json:"spot_maker_fee_rate"`
	SpotTaker            decimal.Decimal `json:"spot_taker_fee_rate"`
	StableSpotMaker      decimal.Decimal `json:"stable_spot_maker_fee_rate"`
	StableSpotTaker      decimal.Decimal `json:"stable_spot_taker_fee_rate"`
	OptionMaker          decimal.Decimal `json:"option_maker_fee_rate"`
	OptionTaker          decimal.Decimal `json:"option_taker_fee_rate"`
}

// AccountSnapshot is one point of the account's value over time.
type AccountSnapshot struct {
	Address      string          `json:"address"`
	TotalPnl     decimal.Decimal `json:"total_pnl"`
	TotalVolume  decimal.Decimal `json:"total_volume"`
	AccountValue decimal.Decimal `json:"account_value"`
	Time         Time            `json:"created_at"`
}

// Oracle is an instrument's index and mark price.
type Oracle struct {
	Symbol       string          `json:"symbol"`
	IndexPrice   decimal.Decimal `json:"index_price"`
	ExtMarkPrice decimal.Decimal `json:"ext_mark_price"`
	UpdatedAt    Time            `json:"updated_at"`
}

type userLimitParams struct {
	User  string `json:"user"`
	Limit int    `json:"limit,omitempty"`
}

// FundingHistory fetches one page of user's funding payments, newest first.
func (c *Client) FundingHistory(ctx context.Context, user string, p PageParams) (Page[FundingPayment], error) {
	var out Page[FundingPayment]
	_, err := c.paged(ctx, MethodFundingHistory, user, p, pageOf(&out))
	return out, err
}

// TransferHistory fetches user's deposits, transfers and withdrawals, newest first; limit 0
// means the server's default.
func (c *Client) TransferHistory(ctx context.Context, user string, limit int) ([]TransferRecord, error) {
	var out []TransferRecord
	return out, c.userList(ctx, MethodTransferHistory, user, limit, rowsOf(&out))
}

// AccountHistory fetches user's account value, PnL and volume over time, oldest first; limit 0
// means the server's default.
func (c *Client) AccountHistory(ctx context.Context, user string, limit int) ([]AccountSnapshot, error) {
	var out []AccountSnapshot
	return out, c.userList(ctx, MethodAccountHistory, user, limit, rowsOf(&out))
}

func (c *Client) userList(ctx context.Context, method, user string, limit int, out any) error {
	u, err := c.user(method, user)
	if err != nil {
		return err
	}
	if limit < 0 {
		return invalid("info "+method, "limit %d: want 0 (default) or more", limit)
	}
	return c.info(ctx, method, userLimitParams{u, limit}, out)
}

// UserFees fetches user's fee rates and rolling volumes.
func (c *Client) UserFees(ctx context.Context, user string) (UserFees, error) {
	var out UserFees
	u, err := c.user(MethodUserFees, user)
	if err != nil {
		return out, err
	}
	return out, c.info(ctx, MethodUserFees, userParams{u}, &out)
}

// Oracle fetches an instrument's index and mark (by name).
func (c *Client) Oracle(ctx context.Context, symbol string) (Oracle, error) {
	var out Oracle
	if symbol == "" {
		return out, invalid("info "+MethodOracle, "symbol is empty: want an instrument name such as BTC-PERP")
	}
	return out, c.info(ctx, MethodOracle, symbolParams{symbol}, &out)
}
