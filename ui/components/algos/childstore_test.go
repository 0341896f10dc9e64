package algos

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// countBookLev counts the reads of the book and of the leverage setting.
type countBookLev struct {
	*api.Client
	books, levs atomic.Int32
}

func (c *countBookLev) OrderBook(ctx context.Context, s string, depth int) (api.OrderBook, error) {
	c.books.Add(1)
	return c.Client.OrderBook(ctx, s, depth)
}

func (c *countBookLev) InstrumentLeverage(ctx context.Context, u, s string) (api.InstrumentLeverage, error) {
	c.levs.Add(1)
	return c.Client.InstrumentLeverage(ctx, u, s)
}

// TestAChildsStoreReadsTheBookOnlyWhenItsCheckDoes: with the console's stream up, a post-only
// child's store (StoreWithoutBook) reads no book, and the leverage setting is read once for
// many children, then again after a child is refused (ForgetLeverage) or once the streamed
// positions show another leverage; each store still carries the leverage. A store for a child
// that can take still reads the book.
func TestAChildsStoreReadsTheBookOnlyWhenItsCheckDoes(t *testing.T) {
	ex := &countBookLev{}
	r := streamedRunner(t, func(c *api.Client) api.Exchange { ex.Client = c; return ex })
	children := func(n int) {
		t.Helper()
		for range n {
			store, err := r.market.StoreWithoutBook(t.Context(), "BTC-PERP")
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := store.Leverage("BTC-PERP"); !ok {
				t.Fatal("a child's store has no leverage setting")
			}
		}
	}
	children(5)
	if b, l := ex.books.Load(), ex.levs.Load(); b != 0 || l != 1 {
		t.Fatalf("5 post-only children read the book %d times and the leverage %d times; want 0 and 1", b, l)
	}
	r.tape.ForgetLeverage("BTC-PERP") // a child refused
	children(2)
	if l := ex.levs.Load(); l != 2 {
		t.Fatalf("after a refusal the leverage was read %d times in all; want 2", l)
	}
	r.Put(api.StreamEvent{Data: []api.Position{{Instrument: "BTC-PERP", Size: decimal.RequireFromString("0.1"), Leverage: decimal.NewFromInt(3)}}})
	children(2)
	if l := ex.levs.Load(); l < 3 { // a streamed record since may show the old one again: 4
		t.Fatalf("after the positions showed another leverage it was read %d times in all; want 3", l)
	}
	if _, err := r.market.Store(t.Context(), "BTC-PERP"); err != nil || ex.books.Load() != 1 {
		t.Fatalf("a child that can take: %v, %d book reads; want 1", err, ex.books.Load())
	}
}
