package risk

import (
	"context"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// Exchange is what ExchangeSource reads: *api.Client is one.
type Exchange interface {
	AccountSummary(ctx context.Context, user string) (api.AccountSummary, error)
	Positions(ctx context.Context, user string) ([]api.Position, error)
	OpenOrders(ctx context.Context, user string, p api.PageParams) (api.Page[api.OrderRecord], error)
	Ticker(ctx context.Context, symbol string) ([]api.Ticker, error)
}

// ExchangeSource reads the gate's account and quotes from the exchange at the moment of each
// check, never from a caller's copy.
func ExchangeSource(x Exchange, account string) Source { return exchangeSource{x: x, account: account} }

type exchangeSource struct {
	x       Exchange
	account string
}

func (s exchangeSource) Account(ctx context.Context) (Account, error) {
	sum, err := s.x.AccountSummary(ctx, s.account)
	if err != nil {
		return Account{}, err
	}
	pos, err := s.x.Positions(ctx, s.account)
	if err != nil {
		return Account{}, err
	}
	page, err := s.x.OpenOrders(ctx, s.account, api.PageParams{Page: 1, Limit: 500})
	if err != nil {
		return Account{}, err
	}
	return AccountOf(sum, pos, max(page.TotalCount, len(page.Data))), nil
}

// AccountOf is the gate's account from the exchange's summary, positions and open orders'
// count: what the gate reads fresh, and what the console observes as its data arrives.
func AccountOf(sum api.AccountSummary, pos []api.Position, openOrders int) Account {
	out := Account{Equity: sum.TotalAccountEquity, PnL: sum.TotalPnl, Upnl: sum.Upnl,
		Positions: map[string]decimal.Decimal{}, Values: map[string]decimal.Decimal{}, OpenOrders: openOrders}
	for _, p := range pos {
		name := strings.ToUpper(p.Instrument)
		out.Positions[name] = out.Positions[name].Add(p.Size)
		out.Values[name] = out.Values[name].Add(p.PositionValue.Abs())
	}
	return out
}

func (s exchangeSource) Quote(ctx context.Context, instrument string) (Quote, error) {
	ts, err := s.x.Ticker(ctx, instrument)
	if err != nil {
		return Quote{}, err
	}
	for _, t := range ts {
		if strings.EqualFold(t.Symbol, instrument) {
			return Quote{Mark: t.MarkPrice, Bid: t.BestBidPrice, Ask: t.BestAskPrice}, nil
		}
	}
	return Quote{}, fmt.Errorf("no ticker for %s", instrument)
}
