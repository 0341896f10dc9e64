package headless

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// fakeExchange answers the reads an order needs from fixed data and records what is sent.
type fakeExchange struct {
	mu      sync.Mutex
	placed  [][]api.OrderWire
	placeFn func([]api.OrderWire) (api.TxResponse, error)
	open    []api.OrderRecord
}

var _ api.Exchange = (*fakeExchange)(nil)

var errFake = errors.New("not in the fake")

func dd(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func (f *fakeExchange) Address() string { return "0x1111111111111111111111111111111111111111" }
func (f *fakeExchange) CanTrade() bool  { return true }

func (f *fakeExchange) AccountSummary(context.Context, string) (api.AccountSummary, error) {
	return api.AccountSummary{Address: f.Address(), MarginMode: "cross", MarginBalance: dd("10000"),
		TotalAccountEquity: dd("10000"), AvailableBalance: dd("10000")}, nil
}
func (f *fakeExchange) BrokersCheck(context.Context, string, string, api.PageParams) (api.Page[api.BrokerApproval], error) {
	return api.Page[api.BrokerApproval]{}, errFake
}
func (f *fakeExchange) Instruments(context.Context, string) (api.Instruments, error) {
	return api.Instruments{Perps: []api.PerpInstrument{{ID: 1, Name: "BTC-PERP", TickSize: dd("0.5"), LotSize: dd("0.001"),
		MinNotionalUSD: dd("10"), MaxLeverage: dd("50")}}}, nil
}
func (f *fakeExchange) Chart(context.Context, api.ChartParams) ([]api.Candle, error) {
	return nil, errFake
}
func (f *fakeExchange) Fills(context.Context, string, api.PageParams) (api.Page[api.Fill], error) {
	return api.Page[api.Fill]{Page: 1}, nil
}
func (f *fakeExchange) OrderHistory(context.Context, string, api.PageParams) (api.Page[api.OrderRecord], error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return api.Page[api.OrderRecord]{Page: 1, Data: f.open}, nil
}
func (f *fakeExchange) OpenOrders(ctx context.Context, u string, p api.PageParams) (api.Page[api.OrderRecord], error) {
	return f.OrderHistory(ctx, u, p)
}
func (f *fakeExchange) InstrumentLeverage(context.Context, string, string) (api.InstrumentLeverage, error) {
	return api.InstrumentLeverage{}, errFake
}
func (f *fakeExchange) SupportedCollateral(context.Context, string) ([]api.Collateral, error) {
	return []api.Collateral{{ID: 1, Symbol: "USDC"}}, nil
}
func (f *fakeExchange) Positions(context.Context, string) ([]api.Position, error) { return nil, nil }
func (f *fakeExchange) Ticker(context.Context, string) ([]api.Ticker, error) {
	return []api.Ticker{{Symbol: "BTC-PERP", MarkPrice: dd("50000"), MidPrice: dd("50000"), BestBidPrice: dd("49999.5"), BestAskPrice: dd("50000.5")}}, nil
}
func (f *fakeExchange) Mids(context.Context, string) ([]api.Mid, error) {
	return []api.Mid{{Symbol: "BTC-PERP", MidPrice: dd("50000")}}, nil
}
func (f *fakeExchange) OrderBook(context.Context, string, int) (api.OrderBook, error) {
	return api.OrderBook{}, errFake
}
func (f *fakeExchange) Trades(context.Context, string, int) ([]api.Trade, error) {
	return nil, errFake
}
func (f *fakeExchange) BBO(context.Context, string) (api.BBO, error) { return api.BBO{}, errFake }
func (f *fakeExchange) UserFees(context.Context, string) (api.UserFees, error) {
	return api.UserFees{}, errFake
}
func (f *fakeExchange) FundingHistory(context.Context, string, api.PageParams) (api.Page[api.FundingPayment], error) {
	return api.Page[api.FundingPayment]{}, errFake
}
func (f *fakeExchange) TransferHistory(context.Context, string, int) ([]api.TransferRecord, error) {
	return nil, errFake
}
func (f *fakeExchange) AccountHistory(context.Context, string, int) ([]api.AccountSnapshot, error) {
	return nil, errFake
}
func (f *fakeExchange) PlaceOrders(_ context.Context, o []api.OrderWire) (api.TxResponse, error) {
	f.mu.Lock()
	f.placed = append(f.placed, o)
	fn := f.placeFn
	f.mu.Unlock()
	if fn != nil {
		return fn(o)
	}
	// The order rests whole, as its record says: `order` looks a bare id up and need not wait.
	sz, _ := decimal.NewFromString(o[0].Size)
	f.mu.Lock()
	f.open = append(f.open, api.OrderRecord{OrderID: 42, Cloid: o[0].Cloid, State: "open", Size: sz, Unfilled: sz})
	f.mu.Unlock()
	return api.TxResponse{TxHash: "0xabc", Data: []byte(`{"status":{"oid":42}}`)}, nil
}
func (f *fakeExchange) CancelByOid(context.Context, []api.CancelOid) (api.TxResponse, error) {
	return api.TxResponse{}, errFake
}
func (f *fakeExchange) CancelByCloid(context.Context, []api.CancelCloid) (api.TxResponse, error) {
	return api.TxResponse{}, errFake
}
func (f *fakeExchange) CancelByInstrument(context.Context, api.InstrumentID) (api.TxResponse, error) {
	return api.TxResponse{}, errFake
}
func (f *fakeExchange) CancelAll(context.Context) (api.TxResponse, error) {
	return api.TxResponse{}, errFake
}
func (f *fakeExchange) SpotTransfer(context.Context, api.CollateralID, string, string) (api.TxResponse, error) {
	return api.TxResponse{}, errFake
}
func (f *fakeExchange) DerivativeTransfer(context.Context, api.CollateralID, string, string) (api.TxResponse, error) {
	return api.TxResponse{}, errFake
}
func (f *fakeExchange) InternalTransfer(context.Context, api.CollateralID, string, bool) (api.TxResponse, error) {
	return api.TxResponse{}, errFake
}
func (f *fakeExchange) SpotWithdraw(context.Context, api.CollateralID, string, int64) (api.TxResponse, error) {
	return api.TxResponse{}, errFake
}
func (f *fakeExchange) DerivativeWithdraw(context.Context, api.CollateralID, string, int64) (api.TxResponse, error) {
	return api.TxResponse{}, errFake
}

func (f *fakeExchange) AddAgent(context.Context, *api.Signer, string, time.Time) (api.TxResponse, error) {
	return api.TxResponse{}, errFake
}
func (f *fakeExchange) RevokeAgent(context.Context, string) (api.TxResponse, error) {
	return api.TxResponse{}, errFake
}
func (f *fakeExchange) Agents(context.Context, string) ([]api.Agent, error) { return nil, errFake }
func (f *fakeExchange) UpdateLeverage(context.Context, api.InstrumentID, int) (api.TxResponse, error) {
	return api.TxResponse{}, errFake
}
func (f *fakeExchange) ApproveBrokerFee(context.Context, string, string) (api.TxResponse, error) {
	return api.TxResponse{}, errFake
}
func (f *fakeExchange) IsAgent() bool { return false }
