package api

import (
	"context"
	"errors"
)

// LookupHistoryPages bounds how many pages of order history FindCloid reads after the open
// orders: an order whose answer was lost a moment ago is near the top of its history.
const LookupHistoryPages = 5

// FindCloid looks user's order up by its client order id: every page of open orders, then up to
// LookupHistoryPages pages of order history, newest first. The match is exact (a cloid is free
// text to the exchange, so case counts). It returns nil and no error when the exchange has no
// such order, which means an order whose answer was lost was not placed.
//
// Every front end asks "was my order placed?" through this one function; it never sends anything.
func FindCloid(ctx context.Context, info Info, user, cloid string) (*OrderRecord, error) {
	if cloid == "" {
		// Orders placed without a cloid would all match: an empty one finds nothing reliably.
		return nil, errors.New("find order by cloid: the cloid is empty")
	}
	open, err := AllPages(ctx, func(ctx context.Context, p PageParams) (Page[OrderRecord], error) {
		return info.OpenOrders(ctx, user, p)
	}, 0, nil)
	if err != nil {
		return nil, err
	}
	if o := matchCloid(open, cloid); o != nil {
		return o, nil
	}
	for page := 1; page <= LookupHistoryPages; page++ {
		pg, err := info.OrderHistory(ctx, user, PageParams{Page: page, Limit: DefaultPageSize})
		if err != nil {
			return nil, err
		}
		if o := matchCloid(pg.Data, cloid); o != nil {
			return o, nil
		}
		if !pg.HasNext || len(pg.Data) == 0 {
			break
		}
	}
	return nil, nil
}

// matchCloid is the first order in list whose cloid is exactly cloid.
func matchCloid(list []OrderRecord, cloid string) *OrderRecord {
	for i := range list {
		if list[i].Cloid == cloid {
			return &list[i]
		}
	}
	return nil
}
