package ui

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/components/orders"
)

// shadowWithLive is a shadow console on a mirror of a simulator standing in for the live
// exchange, both on loopback: its paper wallet trades the mirror; live, when given, is the live
// session (the test key on the upstream, its own journal).
func shadowWithLive(t *testing.T, withLive bool) (c *simConsole, up *api.Client, live *exec.Executor) {
	t.Helper()
	upstream := fundedSim(t)
	usrv := httptest.NewServer(upstream)
	t.Cleanup(usrv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	mr, err := sim.NewMirror(ctx, sim.MirrorConfig{Upstream: usrv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	msrv := httptest.NewServer(mr)
	t.Cleanup(msrv.Close)
	go mr.Run(ctx)
	paper, _ := api.NewRandomSigner()
	if err := mr.Sim.Fund(paper.Address(), decimal.NewFromInt(100000)); err != nil {
		t.Fatal(err)
	}
	// The deadline only stops a hang: under -race on a loaded machine (load 14-22, the package's
	// tests beside) following the upstream took over 10 s.
	for end := time.Now().Add(60 * time.Second); !mr.Status().Live; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the mirror never followed the upstream: %+v", mr.Status())
		}
	}
	signer, _ := api.SignerFromHex(testKeyHex)
	up = api.New(usrv.URL+"/", api.WithSigner(signer), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	client := api.New(msrv.URL+"/", api.WithSigner(paper), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	route := LiveRoute{Network: "mainnet"}
	if withLive {
		live = testExec(t, up, "")
		route.Exec, route.Ex = live, up
	}
	timers := feed.NewFakeClock(time.Now())
	maker, taker := mr.Sim.FeeRates()
	m := New(Config{Exchange: client, Clock: time.Now, Fees: &state.Fees{Maker: maker, Taker: taker}, Timers: timers, Keys: mustKeys(t),
		Theme: testTheme, Mode: ModeShadow, Network: "shadow-mainnet", Exec: testExec(t, client, ""), Live: route})
	m.fixedLatency = true
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	c = &simConsole{m: m, sim: mr.Sim, timers: timers, url: msrv.URL}
	pump(t, m, m.Init())
	return c, up, live
}

// restPaperOrder rests a paper limit buy 5% under the mirrored best bid, and selects it in the
// focused Open orders pane.
func restPaperOrder(t *testing.T, c *simConsole) api.OrderRecord {
	t.Helper()
	bbo, err := c.m.ex.BBO(context.Background(), "BTC-PERP")
	if err != nil {
		t.Fatal(err)
	}
	px := bbo.BidPrice.Mul(decimal.RequireFromString("0.95")).Truncate(0).String()
	if _, err := c.m.ex.PlaceOrders(context.Background(), []api.OrderWire{{InstrumentID: 1, Side: api.SideBuy,
		PositionSide: api.PositionSideBoth, Price: px, Size: "0.01", Tif: api.TifGTC, Cloid: state.NewCloid()}}); err != nil {
		t.Fatal(err)
	}
	for i, s := range c.m.slots {
		if _, ok := s.pane.(*orders.Pane); ok {
			c.m.setFocus(i)
		}
	}
	c.key(t, "ctrl+r")
	o, ok := ordersPaneOf(t, c).Selected()
	if !ok {
		t.Fatalf("the paper order is not selected: %+v", c.m.store.Orders())
	}
	return o
}

// TestAShadowOrderIsSentLiveOnlyAfterATypedYes: in shadow, L on a rehearsed paper order opens
// the live confirmation (its title says LIVE, not SHADOW); Enter alone sends nothing; after a
// typed yes the order lands on the upstream account with the paper order's parameters and a
// fresh client id, journaled in the live journal only. The paper order stays where it was.
func TestAShadowOrderIsSentLiveOnlyAfterATypedYes(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c, up, live := shadowWithLive(t, true)
	o := restPaperOrder(t, c)
	c.key(t, "L")
	if c.m.confirmation() == nil || !strings.HasPrefix(c.m.confirmation().Action().Title, "Send LIVE") ||
		!strings.Contains(c.m.confirmation().Action().Title, "LIVE MAINNET") || strings.Contains(c.m.confirmation().Action().Title, "SHADOW") {
		t.Fatalf("L on a paper order: dialog %+v, notice %q", c.m.confirmation(), c.m.shownNotice())
	}
	upOpen := func() []api.OrderRecord {
		pg, err := up.OpenOrders(context.Background(), up.Address(), api.PageParams{Page: 1})
		if err != nil {
			t.Fatal(err)
		}
		return pg.Data
	}
	c.key(t, "enter")
	if n := len(upOpen()); n != 0 {
		t.Fatalf("Enter without the typed yes sent %d live orders", n)
	}
	if c.m.confirmation() == nil {
		c.key(t, "L")
	}
	c.typeText(t, "yes")
	c.key(t, "enter")
	got := upOpen()
	if len(got) != 1 || got[0].Cloid == o.Cloid || !got[0].LimitPrice.Equal(o.LimitPrice) || !got[0].Size.Equal(o.Size) || got[0].Side != o.Side {
		t.Fatalf("the live account's orders %+v, want the paper order %+v with a fresh cloid (notice %q)", got, o, c.m.shownNotice())
	}
	journaled := func(x *exec.Executor) bool {
		ens, err := x.Journal().Recent(context.Background(), 50)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ens {
			if strings.Contains(strings.Join(e.Intent.Cloids, ","), got[0].Cloid) {
				return true
			}
		}
		return false
	}
	if !journaled(live) || journaled(c.m.exec) {
		t.Fatalf("the live order is in the live journal %v, in the shadow's %v: want the live one only", journaled(live), journaled(c.m.exec))
	}
	if paper := c.openOrders(t); len(paper) != 1 || paper[0].Cloid != o.Cloid {
		t.Fatalf("the paper orders after sending live: %+v", paper)
	}
}

// TestSendLiveWithoutAKeySaysWhatToSet: a shadow console with no live session sends nothing
// and says how to give it one.
func TestSendLiveWithoutAKeySaysWhatToSet(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c, up, _ := shadowWithLive(t, false)
	restPaperOrder(t, c)
	c.key(t, "L")
	if c.m.confirmation() != nil || !strings.Contains(c.m.shownNotice(), "--keystore") {
		t.Fatalf("L without a live key: dialog %+v, notice %q", c.m.confirmation(), c.m.shownNotice())
	}
	if pg, _ := up.OpenOrders(context.Background(), up.Address(), api.PageParams{Page: 1}); len(pg.Data) != 0 {
		t.Fatalf("the live account got orders: %+v", pg.Data)
	}
}
