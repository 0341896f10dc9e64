package api

import (
	"github.com/shopspring/decimal"
)

// InstrumentID identifies an instrument. It decodes from a JSON number or a numeric string.
type InstrumentID int64

// OrderID is the exchange's order id (oid). It decodes from a JSON number or a numeric string.
type OrderID uint64

// TradeID is the exchange's id of one trade. It decodes from a JSON number or a numeric string.
type TradeID uint64

// CollateralID identifies a collateral asset. It decodes from a JSON number or a numeric string.
type CollateralID int64

// Int is an integer field that decodes from a JSON number or a numeric string.
type Int int64

// Side values of orders and fills.
const (
	SideBuy  = "b"
	SideSell = "s"
)

// Time-in-force values.
const (
	TifGTC = "GTC"
	TifIOC = "IOC"
	TifFOK = "FOK"
)

// PositionSideBoth is the position side of one-way mode.
const PositionSideBoth = "BOTH"

// Order states as they appear in order history.
const (
	StateOpen      = "open"
	StateFilled    = "filled"
	StateCancelled = "cancelled"
	StateTriggered = "triggered"
)

// Trigger kinds (tpsl).
const (
	TpslTakeProfit = "tp"
	TpslStopLoss   = "sl"
)

// Fill directions.
const (
	DirOpenLong   = "openLong"
	DirOpenShort  = "openShort"
	DirCloseLong  = "closeLong"
	DirCloseShort = "closeShort"
)

// Margin modes.
const (
	MarginCross    = "cross"
	MarginIsolated = "isolated"
)

// OrderRecord is one order as order_history and open_orders return it.
type OrderRecord struct {
	OrderID      OrderID         `json:"order_id"`
	User         string          `json:"user"`
	InstrumentID InstrumentID    `json:"instrument_id"`
	Instrument   string          `json:"instrument"`
	Side         string          `json:"side"`
	PositionSide string          `json:"position_side"`
	LimitPrice   decimal.Decimal `json:"limit_price"`
	Size         decimal.Decimal `json:"size"`
	Unfilled     decimal.Decimal `json:"unfilled"`
	State        string          `json:"state"`
	Cloid        string          `json:"cloid"`
	Tif          string          `json:"tif"`
	PostOnly     bool            `json:"post_only"`
	ReduceOnly   bool            `json:"reduce_only"`
	TriggerPx    OptDecimal      `json:"trigger_px"`
	IsMarket     bool            `json:"is_market"`
	Tpsl         string          `json:"tpsl"`
	Grouping     string          `json:"grouping"`
	Timestamp    Time            `json:"timestamp"`
}

// RestingLimit reports whether o is a limit order resting on the book: neither a market order nor
// a trigger order waiting for its price.
func (o OrderRecord) RestingLimit() bool {
	return !o.IsMarket && !(o.TriggerPx.Valid && o.TriggerPx.Decimal.IsPositive())
}

// Fill is one execution of one of the account's orders.
type Fill struct {
	InstrumentID  InstrumentID    `json:"instrument_id"`
	Instrument    string          `json:"instrument"`
	Account       string          `json:"account"`
	OrderID       OrderID         `json:"order_id"`
	Cloid         string          `json:"cloid"`
	TradeID       TradeID         `json:"trade_id"`
	Side          string          `json:"side"`
	PositionSide  string          `json:"position_side"`
	Direction     string          `json:"direction"`
	Price         decimal.Decimal `json:"price"`
	Size          decimal.Decimal `json:"size"`
	ClosedPnl     decimal.Decimal `json:"closed_pnl"`
	StartSize     decimal.Decimal `json:"start_size"`
	StartPrice    decimal.Decimal `json:"start_price"`
	Fee           decimal.Decimal `json:"fee"`
	BrokerFee     decimal.Decimal `json:"broker_fee"`
	FeeTokenID    Int             `json:"fee_token_id"`
	Crossed       bool            `json:"crossed"`
	TxHash        string          `json:"tx_hash"`
	FillType      Int             `json:"fill_type"`
	NotionalValue decimal.Decimal `json:"notional_value"`
	BlockTime     Time            `json:"block_timestamp"`
}

// Position is one open position (size is negative for a short).
type Position struct {
	User          string          `json:"user"`
	InstrumentID  InstrumentID    `json:"instrument_id"`
	Instrument    string          `json:"instrument"`
	PositionSide  string          `json:"position_side"`
	Size          decimal.Decimal `json:"size"`
	EntryPrice    decimal.Decimal `json:"entry_price"`
	PositionValue decimal.Decimal `json:"position_value"`
	MarginMode    string          `json:"margin_mode"`
	Leverage      decimal.Decimal `json:"leverage"`
	Margin        decimal.Decimal `json:"margin"` // isolated margin, or the initial margin in cross
	UpdatedAt     Time            `json:"updated_at"`
}

// InstrumentLeverage is the account's leverage setting on one instrument.
type InstrumentLeverage struct {
	Address      string          `json:"address"`
	InstrumentID InstrumentID    `json:"instrument_id"`
	Instrument   string          `json:"instrument"`
	MarginType   string          `json:"margin_type"`
	Leverage     decimal.Decimal `json:"leverage"`
	UpdatedAt    Time            `json:"updated_at"`
}

// CollateralBalance is one collateral's balance in an account.
type CollateralBalance struct {
	Balance             decimal.Decimal `json:"balance"`
	WithdrawableBalance decimal.Decimal `json:"withdrawable_balance"`
}

// VaultBalance is the account's share of one vault.
type VaultBalance struct {
	WithdrawableShares decimal.Decimal `json:"withdrawable_shares"`
	TotalShares        decimal.Decimal `json:"total_shares"`
	Amount             decimal.Decimal `json:"amount"`
}

// LegLeverage is the leverage of one position leg.
type LegLeverage struct {
	Type  string          `json:"type"`
	Value decimal.Decimal `json:"value"`
}

// PositionLeg is one leg of a position summary.
type PositionLeg struct {
	InstrumentID   InstrumentID    `json:"instrument_id"`
	InstrumentName string          `json:"instrument_name"`
	Side           string          `json:"side"`
	Size           decimal.Decimal `json:"size"`
	EntryPrice     decimal.Decimal `json:"entry_price"`
	Leverage       LegLeverage     `json:"leverage"`
	PositionValue  decimal.Decimal `json:"position_value"`
}

// PositionSummary is one instrument's entry in AccountSummary.PerpPositions.
type PositionSummary struct {
	PositionType     string          `json:"position_type"`
	Legs             []PositionLeg   `json:"legs"`
	LiquidationPrice decimal.Decimal `json:"liquidation_price"`
	MM               decimal.Decimal `json:"mm"`
	IM               decimal.Decimal `json:"im"`
	Upnl             decimal.Decimal `json:"upnl"`
}

// AccountSummary is the account's balances, margin and positions in one record.
type AccountSummary struct {
	Address                      string                       `json:"address"`
	MarginMode                   string                       `json:"margin_mode"`
	MultiAssetMode               bool                         `json:"multi_asset_mode"`
	HedgeMode                    bool                         `json:"hedge_mode"`
	SpotCollateral               map[string]CollateralBalance `json:"spot_collateral"`
	Collateral                   map[string]CollateralBalance `json:"collateral"`
	VaultBalances                map[string]VaultBalance      `json:"vault_balances"`
	StakedCollateral             decimal.Decimal              `json:"staked_collateral"`
	PerpPositions                map[string]PositionSummary   `json:"perp_positions"`
	InitialMarginUtilization     decimal.Decimal              `json:"initial_margin_utilization"`
	MaintenanceMarginUtilization decimal.Decimal              `json:"maintenance_margin_utilization"`
	Upnl                         decimal.Decimal              `json:"upnl"`
	TotalAccountEquity           decimal.Decimal              `json:"total_account_equity"`
	MarginBalance                decimal.Decimal              `json:"margin_balance"`
	InitialMargin                decimal.Decimal              `json:"initial_margin"`
	MaintenanceMargin            decimal.Decimal              `json:"maintenance_margin"`
	TotalVolume                  decimal.Decimal              `json:"total_volume"`
	TotalPnl                     decimal.Decimal              `json:"total_pnl"`
	AvailableBalance             decimal.Decimal              `json:"available_balance"`
	TransferMarginReq            decimal.Decimal              `json:"transfer_margin_req"`
	MaxDrawdown                  decimal.Decimal              `json:"max_drawdown"`
	SpotAccountEquity            decimal.Decimal              `json:"spot_account_equity"`
	DerivativeAccountEquity      decimal.Decimal              `json:"derivative_account_equity"`
	SpotVolume                   decimal.Decimal              `json:"spot_volume"`
}

// BrokerApproval is one broker the account has approved, with its fee cap.
type BrokerApproval struct {
	Account    string          `json:"account"`
	Broker     string          `json:"broker"`
	MaxFeeRate decimal.Decimal `json:"max_fee_rate"`
	UpdatedAt  Time            `json:"updated_at"`
}

// MarginTier is one notional bracket of a perpetual's margin schedule.
type MarginTier struct {
	NotionalUSDThreshold decimal.Decimal `json:"notional_usd_threshold"`
	MaxLeverage          decimal.Decimal `json:"max_leverage"`
	MMR                  decimal.Decimal `json:"mmr"`
	MMD                  decimal.Decimal `json:"mmd"`
}

// PerpInstrument is a perpetual future's contract terms.
type PerpInstrument struct {
	ID                 InstrumentID    `json:"id"`
	Name               string          `json:"name"`
	PriceIndex         string          `json:"price_index"`
	LotSize            decimal.Decimal `json:"lot_size"`
	TickSize           decimal.Decimal `json:"tick_size"`
	SettlementCurrency CollateralID    `json:"settlement_currency"`
	OnlyIsolated       bool            `json:"only_isolated"`
	MaxLeverage        decimal.Decimal `json:"max_leverage"`
	Delisted           bool            `json:"delisted"`
	MinNotionalUSD     decimal.Decimal `json:"min_notional_usd"`
	MarginTiers        []MarginTier    `json:"margin_tiers"`
	ListedAt           Time            `json:"listed_at_block_timestamp"`
}

// SpotInstrument is a spot pair's terms.
type SpotInstrument struct {
	ID                  InstrumentID    `json:"id"`
	Name                string          `json:"name"`
	PriceIndex          string          `json:"price_index"`
	LotSize             decimal.Decimal `json:"lot_size"`
	TickSize            decimal.Decimal `json:"tick_size"`
	BaseAsset           CollateralID    `json:"base_asset"`
	QuoteAsset          CollateralID    `json:"quote_asset"`
	StablePair          bool            `json:"stable_pair"`
	MinSizeInQuoteAsset decimal.Decimal `json:"min_size_in_quote_asset"`
	ListedAt            Time            `json:"listed_at_block_timestamp"`
}

// Instruments is the instruments result: perpetuals and spot pairs.
type Instruments struct {
	Perps []PerpInstrument `json:"perps"`
	Spot  []SpotInstrument `json:"spot"`
}

// Bridge is one chain a collateral can be bridged to and withdrawn on.
type Bridge struct {
	BridgeChainType       Int    `json:"bridge_chain_type"`
	BridgeChainID         Int    `json:"bridge_chain_id"`
	TokenAddress          string `json:"token_address"`
	BridgeContractAddress string `json:"bridge_contract_address"`
	Enabled               bool   `json:"enabled"`
}

// WeightTier is one amount bracket of a collateral's weight.
type WeightTier struct {
	Amount decimal.Decimal `json:"amount"`
	Weight decimal.Decimal `json:"weight"`
}

// CollateralRisk is a collateral's risk parameters.
type CollateralRisk struct {
	WeightTiers           []WeightTier    `json:"weight_tiers"`
	MaxMarginCap          decimal.Decimal `json:"max_margin_cap"`
	StalePriceGuardWeight decimal.Decimal `json:"stale_price_guard_weight"`
	Enabled               bool            `json:"enabled"`
}

// Collateral is one supported collateral asset.
type Collateral struct {
	ID                  CollateralID    `json:"id"`
	Symbol              string          `json:"symbol"`
	Name                string          `json:"name"`
	Decimals            Int             `json:"decimals"`
	DefaultCollWeight   decimal.Decimal `json:"default_coll_weight"`
	PriceIndex          string          `json:"price_index"`
	Type                Int             `json:"type"`
	BridgeByChain       []Bridge        `json:"bridge_by_chain"`
	CollRisk            CollateralRisk  `json:"coll_risk"`
	TransferNotionalFee decimal.Decimal `json:"transfer_notional_fee"`
	WithdrawalFee       decimal.Decimal `json:"withdrawal_fee"`
	AddedAtBlock        Int             `json:"added_at_block"`
}

// Ticker is one instrument's market summary.
type Ticker struct {
	Type            string          `json:"type"`
	Symbol          string          `json:"symbol"`
	MarkPrice       decimal.Decimal `json:"mark_price"`
	MidPrice        decimal.Decimal `json:"mid_price"`
	IndexPrice      decimal.Decimal `json:"index_price"`
	BestBidPrice    decimal.Decimal `json:"best_bid_price"`
	BestAskPrice    decimal.Decimal `json:"best_ask_price"`
	BestBidSize     decimal.Decimal `json:"best_bid_size"`
	BestAskSize     decimal.Decimal `json:"best_ask_size"`
	FundingRate     decimal.Decimal `json:"funding_rate"`
	OpenInterest    decimal.Decimal `json:"open_interest"`
	Volume24h       decimal.Decimal `json:"volume_24h"`
	Change24h       decimal.Decimal `json:"change_24h"`
	MaxTradingPrice decimal.Decimal `json:"max_trading_price"`
	MinTradingPrice decimal.Decimal `json:"min_trading_price"`
	LastPrice       decimal.Decimal `json:"last_price"`
	LastUpdated     Time            `json:"last_updated"`
}

// Mid is one instrument's mid price (the average of best bid and best ask).
type Mid struct {
	Symbol   string          `json:"symbol"`
	MidPrice decimal.Decimal `json:"mid_price"`
}

// Candle is one OHLCV bar; Time is the bar's open.
type Candle struct {
	Time   Time            `json:"time"`
	Open   decimal.Decimal `json:"open"`
	High   decimal.Decimal `json:"high"`
	Low    decimal.Decimal `json:"low"`
	Close  decimal.Decimal `json:"close"`
	Volume decimal.Decimal `json:"volume"`
}

// BookLevel is one price level of an order book.
type BookLevel struct {
	Price decimal.Decimal `json:"price"`
	Size  decimal.Decimal `json:"size"`
}

// OrderBook is the orderbook method's result. The SDKs name the instrument instrument_name (an
// older answer named it symbol: UnmarshalJSON reads either) and carry the book's sequence_number.
type OrderBook struct {
	Symbol   string      `json:"instrument_name"`
	Bids     []BookLevel `json:"bids"`
	Asks     []BookLevel `json:"asks"`
	Time     Time        `json:"timestamp"`
	Sequence uint64      `json:"sequence_number"`
}

// Page is the paged envelope of fills, order_history, brokers_check and open_orders.
type Page[T any] struct {
	Data       []T  `json:"data"`
	Page       int  `json:"page"`
	Limit      int  `json:"limit"`
	TotalCount int  `json:"total_count"`
	TotalPages int  `json:"total_pages"`
	HasNext    bool `json:"has_next"`
	HasPrev    bool `json:"has_prev"`
}
