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
	AccountSummary(ctx context.Context, user string) (AccountSummary, error)
	BrokersCheck(ctx context.Context, user, broker string, p PageParams) (Page[BrokerApproval], error)
	Instruments(ctx context.Context, kind string) (Instruments, error)
	Chart(ctx context.Context, p ChartParams) ([]Candle, error)
	Fills(ctx context.Context, user string, p PageParams) (Page[Fill], error)
	OrderHistory(ctx context.Context, user string, p PageParams) (Page[OrderRecord], error)
	OpenOrders(ctx context.Context, user string, p PageParams) (Page[OrderRecord], error)
	InstrumentLeverage(ctx context.Context, user, symbol string) (InstrumentLeverage, error)
	SupportedCollateral(ctx context.Context, symbol string) ([]Collateral, error)
	Positions(ctx context.Context, user string) ([]Position, error)
	Ticker(ctx context.Context, symbol string) ([]Ticker, error)
	Mids(ctx context.Context, symbol string) ([]Mid, error)
	OrderBook(ctx context.Context, symbol string, depth int) (OrderBook, error)
}

// Trader is the signed side of the exchange (/exchange). Nonce and expiry are filled in by the client.
type Trader interface {
	PlaceOrders(ctx context.Context, orders []OrderWire) (TxResponse, error)
	CancelByOid(ctx context.Context, cancels []CancelOid) (TxResponse, error)
	CancelByCloid(ctx context.Context, cancels []CancelCloid) (TxResponse, error)
	CancelByInstrument(ctx context.Context, id InstrumentID) (TxResponse, error)
	CancelAll(ctx context.Context) (TxResponse, error)
	SpotTransfer(ctx context.Context, collateral CollateralID, amount, destination string) (TxResponse, error)
	DerivativeTransfer(ctx context.Context, collateral CollateralID, amount, destination string) (TxResponse, error)
	InternalTransfer(ctx context.Context, collateral CollateralID, amount string, toDerivatives bool) (TxResponse, error)
	SpotWithdraw(ctx context.Context, collateral CollateralID, amount string, chainID int64) (TxResponse, error)
	DerivativeWithdraw(ctx context.Context, collateral CollateralID, amount string, chainID int64) (TxResponse, error)
}

// Exchange is everything the console needs of an exchange. *Client satisfies it; tests may use
// the simulator through a Client or a fake.
type Exchange interface {
	Info
	Trader
	// Address is the account this client acts for ("" when it has neither key nor address).
	Address() string
	// CanTrade reports whether the client holds a signer.
	CanTrade() bool
}
