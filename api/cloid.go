package api

import (
	"context"
	"errors"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/tradedesk/tradedesk/api/text"
)

// MaxCloidLen is the longest client order id the exchange takes, in bytes.
const MaxCloidLen = 128

// CheckCloid accepts any client order id the exchange does: free text (the official SDKs' examples
// use ids like "ts-order-1769690420567"; tradedesk makes UUIDs for its own orders), not empty, at
// most MaxCloidLen bytes of UTF-8, with no control character and nothing shaped like a key (a run
// of text.KeyRun hex digits). The error says what to fix without repeating the id.
func CheckCloid(id string) error {
	switch {
	case id == "":
		return errors.New("the client order id is empty")
	case len(id) > MaxCloidLen:
		return fmt.Errorf("the client order id is %d bytes long; the exchange takes at most %d", len(id), MaxCloidLen)
	case !utf8.ValidString(id):
		return errors.New("the client order id is not valid UTF-8 text")
	case text.HideKeys(id) != id:
		// Sent, it would be stored at the exchange and echoed everywhere: never send key material.
		return fmt.Errorf("the client order id holds a run of %d or more hex digits, the shape of a private key; use a UUID or short text", text.KeyRun)
	}
	for i, r := range id {
		if unicode.IsControl(r) {
			return fmt.Errorf("the client order id has a control character (U+%04X) at byte %d", r, i)
		}
	}
	return nil
}

// OrderReader is the part of Info that finds an order: open orders and order history.
type OrderReader interface {
	OpenOrders(ctx context.Context, user string, p PageParams) (Page[OrderRecord], error)
	OrderHistory(ctx context.Context, user string, p PageParams) (Page[OrderRecord], error)
}

// FillReader is the part of Info that reads fills.
type FillReader interface {
	Fills(ctx context.Context, user string, p PageParams) (Page[Fill], error)
}

// LookupHistoryPages bounds how many pages of order history FindCloid reads after the open
// orders: an order whose answer was lost a moment ago is near the top of its history.
const LookupHistoryPages = 5

// FindCloid looks user's order up by its client order id: every page of open orders, then up to
// LookupHistoryPages pages of order history, newest first. The match is exact (a cloid is free
// text to the exchange, so case counts). It returns nil and no error when the exchange has no
// such order, which means an order whose answer was lost was not placed.
//
// Every front end asks "was my order placed?" through this one function; it never sends anything.
func FindCloid(ctx context.Context, info OrderReader, user, cloid string) (*OrderRecord, error) {
	if err := CheckCloid(cloid); err != nil {
		// Orders placed without a cloid would all match: an empty one finds nothing reliably.
		return nil, fmt.Errorf("find order by cloid: %w", err)
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

// OrderFills is the account's fills of one order among its latest (the first page of fills):
// what the order did, in the exchange's own record. Every front end asks through this one function.
func OrderFills(ctx context.Context, info FillReader, user string, oid OrderID) ([]Fill, error) {
	pg, err := info.Fills(ctx, user, PageParams{Page: 1, Limit: 100})
	if err != nil {
		return nil, err
	}
	var out []Fill
	for _, f := range pg.Data {
		if f.OrderID == oid {
			out = append(out, f)
		}
	}
	return out, nil
}
