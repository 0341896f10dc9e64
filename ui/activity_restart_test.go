package ui

import (
	"context"
	"errors"
	"net"
	"net/http"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
)

// loopbackSim is a simulator served on a loopback address that can be stopped and served again,
// by another simulator, on the same address: the console sees an exchange that restarted.
type loopbackSim struct {
	addr string
	srv  *http.Server
}

func serveSim(t *testing.T, addr string, s *sim.Sim) *loopbackSim {
	t.Helper()
	var ln net.Listener
	var err error
	for range 50 { // the old listener's port may take a moment to be free again
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	l := &loopbackSim{addr: ln.Addr().String(), srv: &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second}}
	go func() {
		if err := l.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("serve: %v", err)
		}
	}()
	t.Cleanup(func() { _ = l.srv.Close() })
	return l
}

// TestSimulatorRestartClearsActivity (issue #24, case 7): the console trades on a simulator, which
// then stops; a new simulator, whose account has no fills and no orders, starts on the same
// address. One Ctrl+R later Activity shows the new instance's (none), not the previous
// instance's; after trading on the new one it shows exactly the new fills. Guards the
// replacement of a paged list by a page 1 that is the server's whole list or does not reach the
// rows held (state's mergeFirst; both branches dropped: the five old fills stay).
func TestSimulatorRestartClearsActivity(t *testing.T) {
	t.Parallel()
	clock := sim.NewTestClock(simStart)
	first := serveSim(t, "127.0.0.1:0", fundedSim(t, sim.WithSeed(7), sim.WithClock(clock)))
	signer, err := api.SignerFromHex(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	client := api.New("http://"+first.addr+"/", api.WithClock(clock.Now), api.WithSigner(signer),
		api.WithRetry(api.RetryPolicy{Attempts: 1}))
	timers := feed.NewFakeClock(simStart)
	m := New(Config{Exchange: client, Clock: clock.Now, Timers: timers, Keys: mustKeys(t), Theme: testTheme,
		Mode: ModeDemo, Network: "demo"})
	m.fixedLatency = true
	c := &simConsole{m: m, clock: clock, timers: timers}
	c.m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	pump(t, c.m, c.m.Init())
	_, fills, history := activityGroup(t, c.m)

	trade(t, c, 5)
	if _, err := c.m.ex.InternalTransfer(context.Background(), 1, "25", true); err != nil {
		t.Fatal(err)
	}
	c.key(t, "ctrl+r")
	if len(fills.Fills()) != 5 || len(history.Records()) != 5 || len(c.m.store.Transfers()) != 3 {
		t.Fatalf("before the restart: %d fills, %d orders, %d transfers", len(fills.Fills()), len(history.Records()), len(c.m.store.Transfers()))
	}

	// The simulator restarts: the old one stops, a new one (another seed) serves the address.
	if err := first.srv.Close(); err != nil {
		t.Fatal(err)
	}
	serveSim(t, first.addr, fundedSim(t, sim.WithSeed(8), sim.WithClock(clock)))
	refreshed := func() {
		t.Helper()
		// A poll on a connection the old server closed may fail once: Ctrl+R again, as a
		// trader would, until the fills, history and transfers polls all succeeded.
		kinds := []state.Kind{state.KindFills, state.KindHistory, state.KindTransfers}
		for range 3 {
			c.key(t, "ctrl+r")
			ok := true
			for _, k := range kinds {
				ok = ok && c.m.store.Freshness(k).Err == nil
			}
			if ok {
				return
			}
		}
		for _, k := range kinds {
			if err := c.m.store.Freshness(k).Err; err != nil {
				t.Fatalf("%s polls still failing: %v", k, err)
			}
		}
	}
	refreshed()
	if len(fills.Fills()) != 0 || len(history.Records()) != 0 {
		t.Fatalf("after the restart and Ctrl+R: %d fills and %d orders of the previous instance shown", len(fills.Fills()), len(history.Records()))
	}
	if n := len(c.m.store.Transfers()); n != 2 {
		t.Errorf("after the restart: %d transfers, want the new instance's 2 deposits", n)
	}

	trade(t, c, 2)
	refreshed()
	page, err := c.m.ex.Fills(context.Background(), c.m.ex.Address(), api.PageParams{Limit: 100})
	if err != nil || len(page.Data) != 2 {
		t.Fatalf("the new simulator has %d fills: %v", len(page.Data), err)
	}
	same := func(a, b api.Fill) bool {
		return a.TradeID == b.TradeID && a.OrderID == b.OrderID && a.TxHash == b.TxHash && a.Price.Equal(b.Price)
	}
	if len(fills.Fills()) != 2 || !same(fills.Fills()[0], page.Data[0]) || !same(fills.Fills()[1], page.Data[1]) || len(history.Records()) != 2 {
		t.Fatalf("after trading on the new instance: %d fills (%+v), %d orders", len(fills.Fills()), fills.Fills(), len(history.Records()))
	}
}

// TestRefreshKeyPollsActivity: Ctrl+R polls the fills and history panes' own tasks at once, not
// only the root's polls (when no order or position moved, nothing else would poll them before
// their interval). Guards feed.RefreshAll on the refresh key.
func TestRefreshKeyPollsActivity(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	_, fills, history := activityGroup(t, c.m)
	fg, hg := fills.Task().Gen(), history.Task().Gen()
	c.key(t, "ctrl+r")
	if fills.Task().Gen() != fg+1 || history.Task().Gen() != hg+1 {
		t.Fatalf("Ctrl+R polled fills %d times and history %d times, want once each", fills.Task().Gen()-fg, history.Task().Gen()-hg)
	}
}
