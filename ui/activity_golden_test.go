package ui

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
)

// TestActivityGoldens (issues #15, #41): the Activity group's funding, transfers, equity, trades
// (round trips) and daily (PnL bars) views at 80x24 and 200x60, against the deterministic simulator after an hour holding a position (one
// funding settlement, an hour of account values) and a move of 25 USDC from spot to perp.
// Rewrite with: go test ./ui -run TestActivityGoldens -update
func TestActivityGoldens(t *testing.T) {
	t.Parallel()
	// One simulator for every view and size (each console only reads it): the hour of market is
	// run once.
	s, clock := activityHour(t)
	for _, tc := range []struct {
		name string
		w, h int
		keys []tea.KeyMsg
	}{
		{"80x24_funding", 80, 24, []tea.KeyMsg{keyMsg("7"), keyMsg("]"), keyMsg("]")}},
		{"80x24_transfers", 80, 24, []tea.KeyMsg{keyMsg("7"), keyMsg("]"), keyMsg("]"), keyMsg("]")}},
		{"80x24_equity", 80, 24, []tea.KeyMsg{keyMsg("7"), keyMsg("]"), keyMsg("]"), keyMsg("]"), keyMsg("]")}},
		{"80x24_trades", 80, 24, []tea.KeyMsg{keyMsg("7"), keyMsg("]"), keyMsg("]"), keyMsg("]"), keyMsg("]"), keyMsg("]")}},
		{"80x24_daily", 80, 24, []tea.KeyMsg{keyMsg("7"), keyMsg("]"), keyMsg("]"), keyMsg("]"), keyMsg("]"), keyMsg("]"), keyMsg("]")}},
		{"200x60_funding", 200, 60, []tea.KeyMsg{keyMsg("7"), keyMsg("]"), keyMsg("]")}},
		{"200x60_transfers", 200, 60, []tea.KeyMsg{keyMsg("7"), keyMsg("]"), keyMsg("]"), keyMsg("]")}},
		{"200x60_equity", 200, 60, []tea.KeyMsg{keyMsg("7"), keyMsg("]"), keyMsg("]"), keyMsg("]"), keyMsg("]")}},
		{"200x60_trades", 200, 60, []tea.KeyMsg{keyMsg("7"), keyMsg("]"), keyMsg("]"), keyMsg("]"), keyMsg("]"), keyMsg("]")}},
		{"200x60_daily", 200, 60, []tea.KeyMsg{keyMsg("7"), keyMsg("]"), keyMsg("]"), keyMsg("]"), keyMsg("]"), keyMsg("]"), keyMsg("]")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := consoleOn(t, 0, 0, false, nil, s, clock)
			c.m.setIntervals(Intervals{Timeout: 20 * time.Second})
			p := probe{Model: c.m, out: new(int)}
			tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(tc.w, tc.h))
			t.Cleanup(func() { _ = tm.Quit() })
			waitSettled(t, tm)
			for _, k := range tc.keys {
				tm.Send(k)
			}
			waitSettled(t, tm)
			if err := tm.Quit(); err != nil {
				t.Fatal(err)
			}
			fm := tm.FinalModel(t, teatest.WithFinalTimeout(20*time.Second)).(probe)
			golden.RequireEqual(t, cloidRE.ReplaceAll([]byte(fm.View()), []byte("xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx")))
		})
	}
}

// activityHour is the simulator the Activity views' tests read (TestActivityGoldens,
// TestActivityViewsFitEverySize) and its clock: the fixture orders placed, an hour of market run
// (one funding settlement, an hour of account values) and 25 USDC moved from spot to perp. It is
// made once a process, by the first test that asks (the hour of market is those tests' costliest
// part); their consoles only read it.
func activityHour(t *testing.T) (*sim.Sim, *sim.TestClock) {
	t.Helper()
	activityHourMu.Lock()
	defer activityHourMu.Unlock()
	if activityHourSim == nil {
		clock := sim.NewTestClock(simStart)
		s := fundedSim(t, sim.WithSeed(7), sim.WithClock(clock))
		srv := httptest.NewServer(s)
		defer srv.Close()
		signer, err := api.SignerFromHex(testKeyHex)
		if err != nil {
			t.Fatal(err)
		}
		client := api.New(srv.URL+"/", api.WithSigner(signer), api.WithClock(clock.Now), api.WithRetry(api.RetryPolicy{Attempts: 1}))
		placeFixtureOrders(t, client)
		s.Advance(time.Hour)
		if _, err := client.InternalTransfer(context.Background(), 1, "25", true); err != nil {
			t.Fatal(err)
		}
		activityHourSim, activityHourClock = s, clock
	}
	return activityHourSim, activityHourClock
}

var (
	activityHourMu    sync.Mutex // guards the two below
	activityHourSim   *sim.Sim
	activityHourClock *sim.TestClock
)
