package ui

import (
	"bytes"
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// TestGoldenScreens runs the console as a Bubble Tea program (teatest) against the deterministic
// simulator and compares the whole screen with testdata/TestGoldenScreens/*.golden. Rewrite them
// with: go test ./ui -run TestGoldenScreens -update
func TestGoldenScreens(t *testing.T) {
	for _, tc := range []struct {
		name  string
		w, h  int
		keys  []tea.KeyMsg
		trade bool // a resting order and a position before the console starts
	}{
		{"200x60", 200, 60, nil, false},
		{"200x60_trading", 200, 60, []tea.KeyMsg{keyMsg("2")}, true},
		{"80x24", 80, 24, nil, false},
		{"80x24_order_entry", 80, 24, []tea.KeyMsg{keyMsg("4")}, false},
		{"80x24_positions", 80, 24, []tea.KeyMsg{keyMsg("2")}, true},
		{"120x40_help", 120, 40, []tea.KeyMsg{keyMsg("?")}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newSimConsole(t, 0, 0, false)
			if tc.trade {
				placeFixtureOrders(t, c.m.ex)
			}
			// One round of requests only: the simulator's answers depend on how many it saw.
			c.m.iv = Intervals{Tickers: time.Hour, Account: time.Hour, Positions: time.Hour, Orders: time.Hour,
				Instruments: time.Hour, Timeout: 5 * time.Second, MaxBackoff: time.Hour}
			tm := teatest.NewTestModel(t, probe{c.m}, teatest.WithInitialTermSize(tc.w, tc.h))
			t.Cleanup(func() { _ = tm.Quit() })
			teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
				return bytes.Contains(b, []byte("BTC-PERP"))
			}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
			// Let every first request land, then press the keys.
			waitSettled(t, tm)
			for _, k := range tc.keys {
				tm.Send(k)
			}
			time.Sleep(100 * time.Millisecond)
			if err := tm.Quit(); err != nil {
				t.Fatal(err)
			}
			fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(probe)
			golden.RequireEqual(t, []byte(fm.View()))
		})
	}
}

// placeFixtureOrders leaves the account with a resting BTC-PERP bid and a long ETH-PERP position.
func placeFixtureOrders(t *testing.T, ex api.Exchange) {
	t.Helper()
	orders := []api.OrderWire{
		{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: "95000", Size: "0.01",
			Tif: api.TifGTC, Cloid: "00000000-0000-4000-8000-000000000001"},
		{InstrumentID: 2, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: "3500", Size: "0.5",
			Tif: api.TifIOC, IsMarket: true, Cloid: "00000000-0000-4000-8000-000000000002"},
	}
	for _, o := range orders {
		if _, err := ex.PlaceOrders(context.Background(), []api.OrderWire{o}); err != nil {
			t.Fatal(err)
		}
	}
}

// settledMsg asks the model whether its first requests are all back; the answer comes on ch.
type settledMsg struct{ ch chan bool }

var lastUnsettled string

// probe is the console with one more message: settledMsg, answered from inside the program's
// goroutine so the test never reads the model while it runs.
type probe struct{ *Model }

// Update implements tea.Model.
func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if s, ok := msg.(settledMsg); ok {
		s.ch <- p.settled()
		return p, nil
	}
	_, cmd := p.Model.Update(msg)
	return p, cmd
}

// settled reports whether no request is out and every kind shown has loaded.
func (m *Model) settled() bool {
	if m.busy() {
		return false
	}
	for _, k := range append(m.kinds, state.KindFills, state.KindHistory, state.KindChart) {
		if !m.store.Freshness(k).Loaded() {
			lastUnsettled = k.String()
			return false
		}
	}
	return true
}

// waitSettled waits until no request of the console is out and every polled kind has loaded.
func waitSettled(t *testing.T, tm *teatest.TestModel) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		ch := make(chan bool, 1)
		tm.Send(settledMsg{ch: ch})
		select {
		case ok := <-ch:
			if ok {
				return
			}
		case <-time.After(time.Second):
		}
		time.Sleep(30 * time.Millisecond)
	}
	t.Fatal("the console did not settle; waiting for " + lastUnsettled)
}
