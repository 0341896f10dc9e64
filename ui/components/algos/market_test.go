package algos

import (
	"context"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state/algo"
)

// countInstruments counts the instrument lists read from the exchange.
type countInstruments struct {
	*api.Client
	n atomic.Int32
}

func (c *countInstruments) Instruments(ctx context.Context, kind string) (api.Instruments, error) {
	c.n.Add(1)
	return c.Client.Instruments(ctx, kind)
}

// TestChildrenShareTheInstrumentList: the stores two children are checked against (on the
// simulator over HTTP) each know the instrument and the account, and the instrument list, the
// collateral and the fees behind them were read once for both, not once a child.
func TestChildrenShareTheInstrumentList(t *testing.T) {
	s := sim.New(sim.WithSeed(3))
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	signer, err := api.SignerFromHex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	ex := &countInstruments{Client: api.New(srv.URL, api.WithSigner(signer))}
	m := &algo.StreamMarket{Ex: ex}
	for range 2 {
		st, err := m.Store(t.Context(), "BTC-PERP")
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := st.FindInstrument("BTC-PERP"); !ok {
			t.Fatal("the store lacks BTC-PERP")
		}
		if st.Account().Address == "" {
			t.Fatal("the store lacks the account")
		}
	}
	if n := ex.n.Load(); n != 1 {
		t.Fatalf("the instruments were read %d times for two children", n)
	}
}
