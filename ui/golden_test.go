package ui

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"regexp"
	"slices"
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
	t.Parallel()
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
		// #24: the dialogs and the help overlay at the smallest and the largest size; the screens
		// are drawn with the ASCII profile (no colour and no attribute at all, stricter than
		// NO_COLOR), so the selection shows only by its marker glyph.
		{"80x24_help", 80, 24, []tea.KeyMsg{keyMsg("7"), keyMsg("?")}, false},
		{"200x60_help", 200, 60, []tea.KeyMsg{keyMsg("7"), keyMsg("?")}, false},
		{"80x24_confirm", 80, 24, bigOrderKeys, false},
		{"200x60_confirm", 200, 60, bigOrderKeys, false},
		{"80x24_close", 80, 24, []tea.KeyMsg{keyMsg("2"), keyMsg("x"), keyMsg("x")}, true},
		{"200x60_close", 200, 60, []tea.KeyMsg{keyMsg("2"), keyMsg("x"), keyMsg("x")}, true},
		{"80x24_nocolor_1", 80, 24, []tea.KeyMsg{keyMsg("1")}, true},
		{"80x24_nocolor_3", 80, 24, []tea.KeyMsg{keyMsg("3")}, true},
		{"80x24_nocolor_5", 80, 24, []tea.KeyMsg{keyMsg("5")}, true},
		{"80x24_nocolor_6", 80, 24, []tea.KeyMsg{keyMsg("6")}, true},
		{"80x24_nocolor_7", 80, 24, []tea.KeyMsg{keyMsg("7")}, true},
		{"80x24_nocolor_8", 80, 24, []tea.KeyMsg{keyMsg("8")}, true},
		{"80x24_nocolor_9", 80, 24, []tea.KeyMsg{keyMsg("9")}, true},
		{"120x40_nocolor_trading", 120, 40, []tea.KeyMsg{keyMsg("3")}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newSimConsole(t, 0, 0, false)
			if tc.trade {
				placeFixtureOrders(t, c.m.ex)
			}
			goldenScreen(t, c, tc.w, tc.h, tc.keys)
		})
	}
}

// TestGoldenDemoScreens: the demo's first screen (#13), its wallet seeded as `tradedesk` seeds
// it (sim.SeedDemo): positions, open orders with a bracket, fills and history all hold data.
func TestGoldenDemoScreens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		keys []tea.KeyMsg
	}{
		{"80x24", 80, 24, nil}, {"200x60", 200, 60, nil},
		// At 120x40 the positions pane has no room for the TP/SL column: the detail line gives it.
		{"120x40", 120, 40, nil},
		// At 80x24 one pane shows at a time: the positions and the open orders, one key away.
		{"80x24_positions", 80, 24, []tea.KeyMsg{keyMsg("2")}}, {"80x24_orders", 80, 24, []tea.KeyMsg{keyMsg("3")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			goldenScreen(t, newDemoConsole(t, 0, 0), tc.w, tc.h, tc.keys)
		})
	}
}

// goldenScreen runs the console c as a Bubble Tea program at w×h, presses keys once it has
// settled, and compares its screen with the test's golden file.
func goldenScreen(t *testing.T, c *simConsole, w, h int, keys []tea.KeyMsg) {
	t.Helper()
	// One round of requests only (the simulator's answers depend on how many it saw): the
	// console's timers are on a fake clock this test never steps.
	c.m.setIntervals(Intervals{Timeout: 20 * time.Second})
	p := probe{Model: c.m, out: new(int)}
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(w, h))
	t.Cleanup(func() { _ = tm.Quit() })
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("BTC-PERP"))
	}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	// Let every first request land, then press the keys and let what they started land.
	waitSettled(t, tm)
	for _, k := range keys {
		// Each key's runes are the program's own: a text field sanitises them in place, and the
		// keys are shared by tests that run in parallel (bigOrderKeys): a data race under -race.
		k.Runes = slices.Clone(k.Runes)
		tm.Send(k)
	}
	waitSettled(t, tm)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(20*time.Second)).(probe)
	golden.RequireEqual(t, cloidRE.ReplaceAll([]byte(fm.View()), []byte("xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx")))
}

// bigOrderKeys type a 30 ETH-PERP market buy into the form and ask for its confirmation (a typed
// one: the order is large).
var bigOrderKeys = []tea.KeyMsg{keyMsg("4"), keyMsg("down"), keyMsg("down"), keyMsg("right"),
	keyMsg("down"), keyMsg("3"), keyMsg("0"), keyMsg("enter")}

// cloidRE matches a client order id, which is new on every run.
var cloidRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

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

// settledMsg asks the model whether its first requests are all back; the answer comes on ch:
// "" when settled, else what it waits for.
type settledMsg struct{ ch chan string }

// probe is the console run as a tea.Program with two additions: it counts the commands its
// Update returned whose message has not come back yet (its timers are on a fake clock: no
// commands), and it answers settledMsg from inside the program's goroutine, so the test never reads the model while it runs.
type probe struct {
	*Model
	out *int // commands returned whose message Update has not handled yet
}

// trackedMsg is the message of a command the probe counts.
type trackedMsg struct{ msg tea.Msg }

// track counts cmd until its message comes back to Update.
func (p probe) track(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return cmd
	}
	*p.out++
	return func() tea.Msg { return trackedMsg{cmd()} }
}

// Update implements tea.Model.
func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case settledMsg:
		m.ch <- p.unsettled()
		return p, nil
	case trackedMsg:
		*p.out--
		switch inner := m.msg.(type) {
		case nil:
			return p, nil
		case tea.BatchMsg: // the program would run these: run them counted
			cmds := make([]tea.Cmd, 0, len(inner))
			for _, c := range inner {
				cmds = append(cmds, p.track(c))
			}
			return p, tea.Batch(cmds...)
		}
		if reflect.TypeOf(m.msg).PkgPath() == reflect.TypeFor[tea.QuitMsg]().PkgPath() {
			return p, func() tea.Msg { return m.msg } // for the program itself (quit, screen, title)
		}
		msg = m.msg
	}
	_, cmd := p.Model.Update(msg)
	return p, p.track(cmd)
}

// unsettled says what the console still waits for: a command's message, a request, or a kind
// shown that has not loaded; "" when none.
func (p probe) unsettled() string {
	if *p.out > 0 {
		return fmt.Sprintf("%d commands", *p.out)
	}
	if p.busy() {
		return "a request"
	}
	for _, k := range append(p.kinds, state.KindFills, state.KindHistory, state.KindChart, state.KindFunding, state.KindTransfers, state.KindEquity) {
		if !p.store.Freshness(k).Loaded() {
			return k.String()
		}
	}
	return ""
}

// waitSettled waits until every command of the console has come back, no request is out and
// every kind shown has loaded.
func waitSettled(t *testing.T, tm *teatest.TestModel) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	waiting := "an answer from the program"
	for time.Now().Before(deadline) {
		ch := make(chan string, 1)
		tm.Send(settledMsg{ch: ch})
		select {
		case waiting = <-ch:
			if waiting == "" {
				return
			}
		case <-time.After(time.Second):
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the console did not settle in 20s; waiting for " + waiting)
}
