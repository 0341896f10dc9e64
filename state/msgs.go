package state

import (
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// Every message carries Gen (the poll's generation: Apply ignores a Gen older than the last one
// applied for the same kind) and At (when the data was fetched; zero means "now" by the store's
// clock).

// TickersMsg carries the result of `ticker all`.
type TickersMsg struct {
	Gen     uint64
	At      time.Time
	Tickers []api.Ticker
}

// MidsMsg carries the result of `mids all`.
type MidsMsg struct {
	Gen  uint64
	At   time.Time
	Mids []api.Mid
}

// InstrumentsMsg carries the instruments result (perps and spot).
type InstrumentsMsg struct {
	Gen         uint64
	At          time.Time
	Instruments api.Instruments
}

// CollateralMsg carries the supported collateral list.
type CollateralMsg struct {
	Gen        uint64
	At         time.Time
	Collateral []api.Collateral
}

// AccountMsg carries the account summary.
type AccountMsg struct {
	Gen     uint64
	At      time.Time
	Summary api.AccountSummary
}

// PositionsMsg carries the account's open positions.
type PositionsMsg struct {
	Gen       uint64
	At        time.Time
	Positions []api.Position
}

// OrdersMsg carries the account's open orders (all of them: it replaces the list).
type OrdersMsg struct {
	Gen    uint64
	At     time.Time
	Orders []api.OrderRecord
}

// FillsMsg carries one page of fills. Page 1 (the newest) is merged on top without duplicates;
// later pages are appended below.
type FillsMsg struct {
	Gen  uint64
	At   time.Time
	Page api.Page[api.Fill]
}

// HistoryMsg carries one page of order history, merged like FillsMsg (by order id; a newer copy of
// an order replaces the older one).
type HistoryMsg struct {
	Gen  uint64
	At   time.Time
	Page api.Page[api.OrderRecord]
}

// ChartKey names one chart series.
type ChartKey struct {
	Symbol     string // instrument name
	ChartType  string // mark, index or ltp
	Resolution string // 1, 5, 15, 30, 60, 240, 1D, 1W
}

// ChartMsg carries the candles of one chart series (it replaces that series).
type ChartMsg struct {
	Gen     uint64
	At      time.Time
	Key     ChartKey
	Candles []api.Candle
}

// BrokersMsg carries one page of the account's broker approvals (page 1 replaces, later pages append).
type BrokersMsg struct {
	Gen  uint64
	At   time.Time
	Page api.Page[api.BrokerApproval]
}

// LeverageMsg carries the account's leverage setting on one instrument.
type LeverageMsg struct {
	Gen      uint64
	At       time.Time
	Leverage api.InstrumentLeverage
}

// FailedMsg reports that a poll of Kind failed: the kind is marked stale with Err and its old data
// is kept.
type FailedMsg struct {
	Gen  uint64
	At   time.Time
	Kind Kind
	Err  error
}
