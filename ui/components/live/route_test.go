package live

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// upstream is a simulated live exchange on loopback, a funded client on it, the live executor
// signing through it, and a store of its market.
func upstream(t *testing.T) (*api.Client, *exec.Executor, *state.Store) {
	t.Helper()
	s := sim.New(sim.WithSeed(5))
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	signer, err := api.SignerFromHex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	client := api.New(srv.URL, api.WithSigner(signer))
	g := state.DefaultGuard()
	x, err := exec.Open(exec.Setup{Dir: t.TempDir(), Network: "mainnet", Config: exec.Config{Send: client, Read: client, Account: client.Address(), Guard: &g,
		LookupWait: 20 * time.Millisecond, MaxLookupWait: 100 * time.Millisecond, SettleEvery: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = x.Close() })
	ctx := context.Background()
	st := state.New(time.Now)
	ins, err := client.Instruments(ctx, "all")
	if err != nil {
		t.Fatal(err)
	}
	st.Apply(state.InstrumentsMsg{Gen: 1, At: time.Now(), Instruments: ins})
	ts, err := client.Ticker(ctx, "all")
	if err != nil {
		t.Fatal(err)
	}
	st.Apply(state.TickersMsg{Gen: 1, At: time.Now(), Tickers: ts})
	sum, err := client.AccountSummary(ctx, client.Address())
	if err != nil {
		t.Fatal(err)
	}
	st.Apply(state.AccountMsg{Gen: 1, At: time.Now(), Summary: sum})
	return client, x, st
}

// TestAPaperOrderGoesLiveAsANewOrder: the live action of a resting paper limit is the same
// order under a new client id, titled Send LIVE with the network, confirmed with a typed yes,
// and run by the live executor whatever executor the pipeline hands it: it rests on the live
// exchange. An order the check refuses is no action, with why.
func TestAPaperOrderGoesLiveAsANewOrder(t *testing.T) {
	client, x, st := upstream(t)
	mid, ok := st.Mid("BTC-PERP")
	if !ok {
		t.Fatal("no BTC-PERP mid on the simulator")
	}
	price := mid.Mul(decimal.RequireFromString("0.98")).Round(0)
	paper := api.OrderRecord{Instrument: "BTC-PERP", Side: "buy", LimitPrice: price, Size: decimal.RequireFromString("0.01"), Tif: "gtc", Cloid: "paper-cloid"}
	r := Route{Exec: x, Ex: client, Network: "mainnet"}
	styles := common.NewStyles(commontest.Theme)
	a, why := r.Order(paper, st, styles)
	if a == nil {
		t.Fatalf("refused: %s", why)
	}
	if !IsLive(a) || !strings.HasSuffix(a.Title, " · LIVE MAINNET") || a.Typed != "yes" || !a.Confirm || !strings.HasPrefix(a.What, "LIVE buy") {
		t.Fatalf("live action: title %q typed %q what %q", a.Title, a.Typed, a.What)
	}
	if !strings.Contains(strings.Join(a.Lines, "\n"), "sent to MAINNET with your live key, in the live journal") {
		t.Fatalf("live lines:\n%s", strings.Join(a.Lines, "\n"))
	}
	if _, err := a.Run(context.Background(), nil, exec.Ask{Who: journal.WhoForm, What: a.What, Confirmed: true, Clock: time.Now}); err != nil {
		t.Fatal(err)
	}
	pg, err := client.OpenOrders(context.Background(), client.Address(), api.PageParams{Page: 1})
	if err != nil || len(pg.Data) != 1 || pg.Data[0].Cloid == paper.Cloid || !pg.Data[0].LimitPrice.Equal(price) {
		t.Fatalf("the live exchange rests %+v (%v)", pg.Data, err)
	}
	paper.Size = decimal.Zero
	if a, why := r.Order(paper, st, styles); a != nil || why == "" {
		t.Fatalf("a zero size went live: %v %q", a, why)
	}
	if IsLive(&action.Action{Title: "Buy BTC-PERP"}) {
		t.Fatal("a paper order's action is live")
	}
}

// TestNoKeySaysHowToGetOne: with no live key the notice says what main said to set, else the
// flags that give the console a live session.
func TestNoKeySaysHowToGetOne(t *testing.T) {
	if s := (Route{Missing: "set TRADEDESK_PRIVATE_KEY"}).NoKey(); s != "not sent live: no live key; set TRADEDESK_PRIVATE_KEY" {
		t.Fatal(s)
	}
	if s := (Route{}).NoKey(); !strings.Contains(s, "--keystore FILE (or --agent-keystore FILE)") {
		t.Fatal(s)
	}
}
