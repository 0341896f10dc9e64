package algos

import (
	"context"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
)

// countState counts the reads of the prices, the account and the positions.
type countState struct {
	*api.Client
	n atomic.Int32
}

func (c *countState) Ticker(ctx context.Context, s string) ([]api.Ticker, error) {
	c.n.Add(1)
	return c.Client.Ticker(ctx, s)
}

func (c *countState) Mids(ctx context.Context, s string) ([]api.Mid, error) {
	c.n.Add(1)
	return c.Client.Mids(ctx, s)
}

func (c *countState) AccountSummary(ctx context.Context, u string) (api.AccountSummary, error) {
	c.n.Add(1)
	return c.Client.AccountSummary(ctx, u)
}

func (c *countState) Positions(ctx context.Context, u string) ([]api.Position, error) {
	c.n.Add(1)
	return c.Client.Positions(ctx, u)
}

// TestChildrenReadTheAccountFromTheStream: with the console's stream handed to the runner (its
// records put as the console's feed puts them), the store a child is checked against takes the
// prices, the account and the positions from the stream: none of them is read from the exchange,
// and the store knows the instrument's ticker and the account.
func TestChildrenReadTheAccountFromTheStream(t *testing.T) {
	ex := &countState{}
	r := streamedRunner(t, func(c *api.Client) api.Exchange { ex.Client = c; return ex })
	for range 2 {
		store, err := r.market.Store(t.Context(), "BTC-PERP")
		if err != nil {
			t.Fatal(err)
		}
		if tk, ok := store.Ticker("BTC-PERP"); !ok || !tk.BestBidPrice.IsPositive() || store.Account().Address == "" {
			t.Fatalf("the store lacks the ticker (%v) or the account (%+v)", ok, store.Account())
		}
	}
	if n := ex.n.Load(); n != 0 {
		t.Fatalf("with the stream up the children's stores read prices or the account %d times", n)
	}
}

// streamedRunner is a runner on the simulator over loopback, its exchange wrap's of the client
// (a counter of reads), with the console's stream handed to it and its records put as the
// console's feed puts them; it returns once the stream brought the ticker, the mids, the
// account and the positions.
func streamedRunner(t *testing.T, wrap func(*api.Client) api.Exchange) *Runner {
	t.Helper()
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
	u, _ := api.StreamURL(srv.URL)
	st := api.NewStream(u)
	t.Cleanup(st.Close)
	r := NewRunner(wrap(api.New(srv.URL, api.WithSigner(signer))), nil)
	r.Streamed(st)
	for _, tp := range []api.Topic{{Channel: api.ChanTicker, Symbol: "all"}, {Channel: api.ChanMids, Symbol: "all"},
		{Channel: api.ChanPositions, User: signer.Address()}, {Channel: api.ChanAccount, User: signer.Address()}} {
		if _, err := st.Subscribe(t.Context(), tp); err != nil {
			t.Fatal(err)
		}
	}
	go func() { // the console's feed: every streamed record to the runner
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
	return r
}
