package api

import "context"

// ChartParams selects candles for the chart method.
type ChartParams struct {
	InstrumentID InstrumentID
	ChartType    string // mark, index or ltp
	Resolution   string // 1, 5, 15, 30, 60, 240, 1D, 1W
	From, To     int64  // Unix seconds
}

// PageParams selects one page of a paged method; zero values mean page 1 and the server's default limit.
type PageParams struct {
	Page  int
	Limit int
}

// Info is the read side of the exchange (/info).
type Info interface {
	// AccountSummary is the account's equity, margin and collateral balances.
	AccountSummary(ctx context.Context, user string) (AccountSummary, error)
	// BrokersCheck is one page of the brokers the user approved (broker "" for every broker).
	BrokersCheck(ctx context.Context, user, broker string, p PageParams) (Page[BrokerApproval], error)
	// Instruments lists the instruments of a kind: "perps", "spot" or "all" ("" = all).
	Instruments(ctx context.Context, kind string) (Instruments, error)
	// Chart returns the candles p selects.
	Chart(ctx context.Context, p ChartParams) ([]Candle, error)
	// Fills is one page of the user's fills, newest first.
	Fills(ctx context.Context, user string, p PageParams) (Page[Fill], error)
	// OrderHistory is one page of the user's orders in any state, newest first.
	OrderHistory(ctx context.Context, user string, p PageParams) (Page[OrderRecord], error)
	// OpenOrders is one page of the user's open orders.
	OpenOrders(ctx context.Context, user string, p PageParams) (Page[OrderRecord], error)
	// InstrumentLeverage is the user's leverage and margin mode on one instrument.
	InstrumentLeverage(ctx context.Context, user, symbol string) (InstrumentLeverage, error)
	// SupportedCollateral lists the collateral the exchange accepts ("all", or one symbol).
	SupportedCollateral(ctx context.Context, symbol string) ([]Collateral, error)
	// Positions lists the user's open positions.
	Positions(ctx context.Context, user string) ([]Position, error)
	// Ticker returns market summaries ("all", or one symbol).
	Ticker(ctx context.Context, symbol string) ([]Ticker, error)
	// Mids returns mid prices ("all", or one symbol).
	Mids(ctx context.Context, symbol string) ([]Mid, error)
	// OrderBook returns one instrument's book to the given depth.
	OrderBook(ctx context.Context, symbol string, depth int) (OrderBook, error)
	// Trades returns one instrument's recent trades, newest first (limit 0: the server's default).
	Trades(ctx context.Context, symbol string, limit int) ([]Trade, error)
	// BBO returns one instrument's best bid and offer.
	BBO(ctx context.Context, symbol string) (BBO, error)
	// UserFees returns the account's fee rates and rolling volumes.
	UserFees(ctx context.Context, user string) (UserFees, error)
	// FundingHistory is one page of the user's funding payments, newest first.
	FundingHistory(ctx context.Context, user string, p PageParams) (Page[FundingPayment], error)
	// TransferHistory is the user's latest deposits, transfers and withdrawals, newest first
	// (limit 0: the server's default).
	TransferHistory(ctx context.Context, user string, limit int) ([]TransferRecord, error)
	// AccountHistory is the user's account value over time, oldest first (limit 0: the
	// server's default).
	AccountHistory(ctx context.Context, user string, limit int) ([]AccountSnapshot, error)
}

// Trader is the signed side of the exchange (/exchange). Nonce and expiry are filled in by the client.
type Trader interface {
	// PlaceOrders signs and sends orders as one action.
	PlaceOrders(ctx context.Context, orders []OrderWire) (TxResponse, error)
	// CancelByOid cancels orders by exchange order id.
	CancelByOid(ctx context.Context, cancels []CancelOid) (TxResponse, error)
	// CancelByCloid cancels orders by client order id.
	CancelByCloid(ctx context.Context, cancels []CancelCloid) (TxResponse, error)
	// CancelByInstrument cancels every open order on one instrument.
	CancelByInstrument(ctx context.Context, id InstrumentID) (TxResponse, error)
	// CancelAll cancels every open order on the account.
	CancelAll(ctx context.Context) (TxResponse, error)
	// SpotTransfer sends spot collateral to another address.
	SpotTransfer(ctx context.Context, collateral CollateralID, amount, destination string) (TxResponse, error)
	// DerivativeTransfer sends derivative collateral to another address.
	DerivativeTransfer(ctx context.Context, collateral CollateralID, amount, destination string) (TxResponse, error)
	// InternalTransfer moves collateral between the account's spot and derivative balances.
	InternalTransfer(ctx context.Context, collateral CollateralID, amount string, toDerivatives bool) (TxResponse, error)
	// SpotWithdraw withdraws spot collateral to a chain.
	SpotWithdraw(ctx context.Context, collateral CollateralID, amount string, chainID int64) (TxResponse, error)
	// DerivativeWithdraw withdraws derivative collateral to a chain.
	DerivativeWithdraw(ctx context.Context, collateral CollateralID, amount string, chainID int64) (TxResponse, error)
}

// Exchange is everything the console needs of an exchange. *Client satisfies it; tests may use
// the simulator through a Client or a fake.
type Exchange interface {
	Info
	Trader
	Control
	// Address is the account this client acts for ("" when it has neither key nor address).
	Address() string
	// CanTrade reports whether the client holds a signer.
	CanTrade() bool
}
