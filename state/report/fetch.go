// Package report is the execution report card of each order and algorithm, and the trading
// journal's round trips and daily PnL, computed from the exchange's fills (and funding payments)
// and the arrival the journal recorded at send time (record.Arrival). Console and headless both
// read it from here.
package report

import (
	"context"
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// pageLimit is the page size the report fetches with.
const pageLimit = 500

// maxPages bounds a fetch: a server that pages without end cannot hold the report forever.
const maxPages = 1000

// FillKey identifies one fill: a trade has one fill per order that took part.
func FillKey(f api.Fill) string { return fmt.Sprintf("%d/%d", f.TradeID, f.OrderID) }

func fundingKey(p api.FundingPayment) string {
	return fmt.Sprintf("%d/%d", p.InstrumentID, p.Time.UnixMilli())
}

// Pages walks fetch's pages (newest first) until a page holds nothing at or after since (zero:
// every page), dropping rows whose key was already seen: a row that moves to the next page while
// the walk runs (new fills arrive) is kept once.
func Pages[T any](ctx context.Context, fetch func(context.Context, api.PageParams) (api.Page[T], error),
	key func(T) string, at func(T) time.Time, since time.Time) ([]T, error) {
	seen := map[string]bool{}
	var out []T
	for page := 1; page <= maxPages; page++ {
		pg, err := fetch(ctx, api.PageParams{Page: page, Limit: pageLimit})
		if err != nil {
			return nil, err
		}
		recent := false
		for _, r := range pg.Data {
			if !since.IsZero() && at(r).Before(since) {
				continue
			}
			recent = true
			if k := key(r); !seen[k] {
				seen[k] = true
				out = append(out, r)
			}
		}
		if !pg.HasNext || len(pg.Data) == 0 || !recent {
			return out, nil
		}
	}
	return out, fmt.Errorf("fills: more than %d pages; give a shorter --since", maxPages)
}

// Fills is every fill of user at or after since (zero: all), newest first, without duplicates.
func Fills(ctx context.Context, info api.Info, user string, since time.Time) ([]api.Fill, error) {
	return Pages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.Fill], error) {
		return info.Fills(ctx, user, p)
	},
		FillKey, func(f api.Fill) time.Time { return f.BlockTime.Time }, since)
}

// Funding is every funding payment of user at or after since (zero: all), newest first.
func Funding(ctx context.Context, info api.Info, user string, since time.Time) ([]api.FundingPayment, error) {
	return Pages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.FundingPayment], error) {
		return info.FundingHistory(ctx, user, p)
	}, fundingKey, func(p api.FundingPayment) time.Time { return p.Time.Time }, since)
}
