package api

import (
	"context"
	"fmt"
)

// MaxPages bounds how many pages AllPages reads before it gives up.
const MaxPages = 10000

// AllPages fetches every page of a paged method (limit records per page, 0 = 100) and returns all
// records in order. progress, when not nil, is called after each page with the records fetched so
// far and the server's total_count. It stops at the last page (has_next false and page at or past
// total_pages) or at an empty page, and fails if the server answers another page than asked for
// or claims more than MaxPages pages.
//
// Example: orders, err := api.AllPages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
// return c.OrderHistory(ctx, "", p) }, 0, nil)
func AllPages[T any](ctx context.Context, fetch func(context.Context, PageParams) (Page[T], error), limit int, progress func(done, total int)) ([]T, error) {
	var all []T
	err := walkPages(ctx, fetch, limit, MaxPages, func(pg Page[T]) bool {
		all = append(all, pg.Data...)
		if progress != nil {
			progress(len(all), max(pg.TotalCount, len(all)))
		}
		return true
	})
	return all, err
}

// AllPagesUpTo is AllPages for a list the console polls and holds (open orders, broker
// approvals): more than maxRecords records in all is a KindTooLarge *Error, not data, so a server
// that says has_next forever cannot fill the memory.
func AllPagesUpTo[T any](ctx context.Context, fetch func(context.Context, PageParams) (Page[T], error), limit, maxRecords int) ([]T, error) {
	var all []T
	over := false
	err := walkPages(ctx, fetch, limit, MaxPages, func(pg Page[T]) bool {
		all = append(all, pg.Data...)
		over = len(all) > maxRecords
		return !over
	})
	if over {
		return nil, &Error{Kind: KindTooLarge, Op: "paged result", Message: fmt.Sprintf("over %d records in all pages", maxRecords)}
	}
	return all, err
}

// walkPages fetches the pages in turn and hands each to each, until the last, an empty page, or
// each returns false.
func walkPages[T any](ctx context.Context, fetch func(context.Context, PageParams) (Page[T], error), limit, maxPages int, each func(Page[T]) bool) error {
	if limit <= 0 {
		limit = DefaultPageSize
	}
	for page := 1; ; page++ {
		if page > maxPages {
			return fmt.Errorf("paged result has more than %d pages of %d: stopped", maxPages, limit)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		pg, err := fetch(ctx, PageParams{Page: page, Limit: limit})
		if err != nil {
			return err
		}
		if pg.Page != 0 && pg.Page != page {
			return fmt.Errorf("asked for page %d, the server answered page %d", page, pg.Page)
		}
		if !each(pg) {
			return nil
		}
		if len(pg.Data) == 0 || (!pg.HasNext && page >= pg.TotalPages) {
			return nil
		}
	}
}
