package launch

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/ui"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// liveStandIn is a simulator standing in for the live exchange (its makers quote a book), behind
// a loopback server that counts the /exchange requests it gets.
func liveStandIn(t *testing.T) (*sim.Sim, string, *atomic.Int64) {
	t.Helper()
	s := fundedSim(t)
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/exchange") {
			n.Add(1)
		}
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return s, srv.URL + "/", &n
}

func waitLive(t *testing.T, c *Connection) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if c.Mirror.Status().Live {
			return
		}
	}
	t.Fatalf("the shadow's mirror never followed the live market: %+v", c.Mirror.Status())
}

// TestShadowTradesAPaperWalletOnTheMirror: --shadow --url opens a paper wallet of
// --shadow-balance on an embedded mirror of that exchange, in SHADOW mode under a network of its
// own (its journal is not the live one's); a paper market order fills and the live exchange gets
// no /exchange request.
func TestShadowTradesAPaperWalletOnTheMirror(t *testing.T) {
	_, url, sent := liveStandIn(t)
	c, err := Connect(context.Background(), options{Connection: headless.Connection{URL: url}, Shadow: true, ShadowBalance: "2500"},
		&bytes.Buffer{}, KeyEnv{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Mode != ui.ModeShadow || !strings.HasPrefix(c.Network, "shadow-") || c.Client.BaseURL() == url {
		t.Fatalf("mode %v, network %q, base %s: want shadow on the mirror under shadow-...", c.Mode, c.Network, c.Client.BaseURL())
	}
	waitLive(t, c)
	sum, err := c.Client.AccountSummary(context.Background(), c.Client.Address())
	if err != nil || !sum.Collateral["USDC"].Balance.Equal(decimal.NewFromInt(2500)) {
		t.Fatalf("the paper wallet: %+v %v, want 2500 USDC", sum.Collateral, err)
	}
	r, err := c.Client.PlaceOrders(context.Background(), []api.OrderWire{{InstrumentID: 1, Side: api.SideBuy,
		PositionSide: api.PositionSideBoth, Price: "120000", Size: "0.01", Tif: api.TifIOC, IsMarket: true}})
	st, _ := r.OrderStatuses()
	if err != nil || len(st) != 1 || !st[0].TotalSize.Decimal.Equal(decimal.RequireFromString("0.01")) {
		t.Fatalf("a paper market buy: %+v %v", st, err)
	}
	if n := sent.Load(); n != 0 {
		t.Fatalf("the live exchange got %d /exchange requests from a shadow session", n)
	}
}

// TestShadowCopiesTheAddressReadOnly: --shadow --address starts the paper wallet from a copy of
// that live account's balances and position.
func TestShadowCopiesTheAddressReadOnly(t *testing.T) {
	_, url, sent := liveStandIn(t)
	signer, _ := api.SignerFromHex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	lc := api.New(url, api.WithSigner(signer))
	if _, err := lc.PlaceOrders(context.Background(), []api.OrderWire{{InstrumentID: 1, Side: api.SideBuy,
		PositionSide: api.PositionSideBoth, Price: "120000", Size: "0.02", Tif: api.TifIOC, IsMarket: true}}); err != nil {
		t.Fatal(err)
	}
	before := sent.Load()
	c, err := Connect(context.Background(), options{Connection: headless.Connection{URL: url, Address: signer.Address()}, Shadow: true,
		ShadowBalance: "1"}, &bytes.Buffer{}, KeyEnv{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pos, err := c.Client.Positions(context.Background(), c.Client.Address())
	if err != nil || len(pos) != 1 || !pos[0].Size.Equal(decimal.RequireFromString("0.02")) {
		t.Fatalf("the paper copy's positions: %+v %v, want the live 0.02 BTC-PERP long", pos, err)
	}
	livePos, _ := lc.Positions(context.Background(), signer.Address())
	if len(livePos) != 1 || !pos[0].EntryPrice.Equal(livePos[0].EntryPrice) {
		t.Fatalf("entry %v, live %+v", pos[0].EntryPrice, livePos)
	}
	if n := sent.Load() - before; n != 0 {
		t.Fatalf("copying the account sent %d /exchange requests", n)
	}
}
