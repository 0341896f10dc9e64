package report

import (
	"context"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// pager serves rows (newest first) in pages of p.Limit, like the exchange's paged envelope; from
// the second page on it serves shifted instead (a new fill arrived while page 1 was read).
func pager(rows, shifted []api.Fill) func(context.Context, api.PageParams) (api.Page[api.Fill], error) {
	return func(_ context.Context, p api.PageParams) (api.Page[api.Fill], error) {
		src := rows
		if p.Page > 1 {
			src = shifted
		}
		lo, hi := min((p.Page-1)*p.Limit, len(src)), min(p.Page*p.Limit, len(src))
		return api.Page[api.Fill]{Data: src[lo:hi], Page: p.Page, Limit: p.Limit, HasNext: hi < len(src)}, nil
	}
}

// TestPagesDropDuplicatesAcrossABoundaryAndStopAtSince (issue #41): a fill that moves onto the
// next page while the pages are read is counted once, every page is read, and the walk stops at
// the first page older than since. Guards: fills counted twice (a fee or PnL doubled), the walk
// cut at page 1, rows older than since kept.
func TestPagesDropDuplicatesAcrossABoundaryAndStopAtSince(t *testing.T) {
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var rows []api.Fill
	for i := 1200; i >= 1; i-- { // newest first
		rows = append(rows, api.Fill{TradeID: api.TradeID(i), OrderID: 7, Size: decimal.NewFromInt(1), BlockTime: api.Time{Time: t0.Add(time.Duration(i) * time.Minute)}})
	}
	fresh := api.Fill{TradeID: 1201, OrderID: 7, Size: decimal.NewFromInt(1), BlockTime: api.Time{Time: t0.Add(1201 * time.Minute)}}
	shifted := append([]api.Fill{fresh}, rows...)
	key := func(f api.Fill) string { return FillKey(f) }
	at := func(f api.Fill) time.Time { return f.BlockTime.Time }
	got, err := Pages(context.Background(), pager(rows, shifted), key, at, time.Time{})
	if err != nil || len(got) != 1200 {
		t.Fatalf("%d fills (%v), want 1200 once each", len(got), err)
	}
	since := t0.Add(1000 * time.Minute)
	got, err = Pages(context.Background(), pager(rows, rows), key, at, since)
	if err != nil || len(got) != 201 || got[len(got)-1].BlockTime.Before(since) {
		t.Fatalf("since: %d fills (%v), want the 201 at or after it", len(got), err)
	}
}
