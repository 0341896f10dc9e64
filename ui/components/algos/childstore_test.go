package algos

import (
	"context"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
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
	s := sim.New(sim.WithSeed(3), sim.WithStep(50*time.Millisecond))
	srv := httptest.NewServer(s)
	ctx, cancel := context.WithCancel(t.Context())
	go func() { _ = s.Run(ctx) }()
	t.Cleanup(func() { cancel(); srv.Close() })
	signer, err := api.SignerFromHex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	ex := &countBookLev{Client: api.New(srv.URL, api.WithSigner(signer))}
	u, _ := api.StreamURL(srv.URL)
	st := api.NewStream(u)
	t.Cleanup(st.Close)
	r := NewRunner(ex, nil)
	r.Streamed(st)
	for _, tp := range []api.Topic{{Channel: api.ChanTicker, Symbol: "all"}, {Channel: api.ChanMids, Symbol: "all"},
		{Channel: api.ChanPositions, User: signer.Address()}, {Channel: api.ChanAccount, User: signer.Address()}} {
		if _, err := st.Subscribe(t.Context(), tp); err != nil {
			t.Fatal(err)
		}
	}
	go func() {
		for ctx.Err() == nil {
			select {
			case <-ctx.Done():
			case <-st.Inbox().Ready():
				for _, ev := range st.Inbox().Drain().Events {
					r.Put(ev)
				}
			}
		}
	}()
	for deadline := time.Now().Add(time.Minute); !r.tape.ApplyTo(state.New(nil), "BTC-PERP"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the stream brought no ticker, mid, account or positions within a minute")
		}
	}
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
