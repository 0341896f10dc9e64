package ui

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// testKeyHex is a fixed test key (never a real account).
const testKeyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

var simStart = time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)

// simConsole is a console wired to a deterministic simulator over real HTTP.
type simConsole struct {
	m     *Model
	sim   *sim.Sim
	clock *sim.TestClock
	url   string
}

// newSimConsole starts a simulator with a fixed seed and test clock behind httptest and a console
// trading it with a fixed key (readOnly: watching that key's address without it).
func newSimConsole(t testing.TB, w, h int, readOnly bool) *simConsole {
	t.Helper()
	return newSimConsoleVia(t, w, h, readOnly, nil)
}

// newSimConsoleVia is newSimConsole with the simulator's handler wrapped (to lose answers).
func newSimConsoleVia(t testing.TB, w, h int, readOnly bool, wrap func(http.Handler) http.Handler) *simConsole {
	t.Helper()
	clock := sim.NewTestClock(simStart)
	s := sim.New(sim.WithSeed(7), sim.WithClock(clock))
	var hd http.Handler = s
	if wrap != nil {
		hd = wrap(s)
	}
	srv := httptest.NewServer(hd)
	t.Cleanup(srv.Close)
	signer, err := api.SignerFromHex(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	opts := []api.Option{api.WithClock(clock.Now), api.WithRetry(api.RetryPolicy{Attempts: 1})}
	mode := ModeDemo
	if readOnly {
		opts = append(opts, api.WithAddress(signer.Address()))
		mode = ModeReadOnly
	} else {
		opts = append(opts, api.WithSigner(signer))
	}
	client := api.New(srv.URL+"/", opts...)
	m := New(Config{Exchange: client, Clock: clock.Now, Keys: mustKeys(t), Theme: testTheme, Mode: mode,
		Network: "demo", Watchlist: []string{"ETH-PERP"}})
	m.fixedLatency = true
	if w > 0 {
		m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	}
	return &simConsole{m: m, sim: s, clock: clock, url: srv.URL}
}

// pump runs cmd and every command that follows from it, feeding each message to the model, until
// every command it started has returned and been handled and no request of the model is out.
// Timers (tea.Tick: the next polls, backoffs, flashes) are not waited for, so a pump settles the
// console after one round of requests however slow the machine is; a timer that fires while the
// pump still waits for a request is handled like any other message.
func pump(t testing.TB, m *Model, cmd tea.Cmd) {
	t.Helper()
	type result struct {
		msg   tea.Msg
		timer bool
	}
	msgs := make(chan result, 4096)
	pending := 0 // commands started, not timers, whose message has not been handled yet
	run := func(c tea.Cmd) {
		if c == nil {
			return
		}
		timer := timerCmd(c)
		if !timer {
			pending++
		}
		go func() { msgs <- result{c(), timer} }()
	}
	run(cmd)
	deadline := time.NewTimer(pumpDeadline)
	defer deadline.Stop()
	for pending > 0 || m.busy() {
		select {
		case r := <-msgs:
			if !r.timer {
				pending--
			}
			switch msg := r.msg.(type) {
			case nil:
			case tea.BatchMsg:
				for _, c := range msg {
					run(c)
				}
			case tea.QuitMsg:
				return
			default:
				_, next := m.Update(msg)
				run(next)
			}
		case <-deadline.C:
			t.Fatalf("pump: the console did not settle in %s: %d commands still running, busy %v", pumpDeadline, pending, m.busy())
		}
	}
}

// pumpDeadline bounds a pump: a request to the simulator takes milliseconds, so only a console
// that never settles (a hung request, a command that never returns) reaches it.
const pumpDeadline = 20 * time.Second

// busy reports whether a request of the model is still out (a pump waits for it whether or not
// the command that sends it is one the pump started).
func (m *Model) busy() bool {
	if m.pipe.open > 0 {
		return true
	}
	for _, p := range m.polls {
		if p.inFlight {
			return true
		}
	}
	return m.fetchersBusy() // the panes' own requests (fills, history, chart...)
}

// key sends one key press (tea key names: "tab", "enter", "x", "ctrl+c"...) and pumps.
func (c *simConsole) key(t testing.TB, keys ...string) {
	t.Helper()
	for _, k := range keys {
		_, cmd := c.m.Update(keyMsg(k))
		pump(t, c.m, cmd)
	}
}

// typeText types text into whatever has the focus.
func (c *simConsole) typeText(t testing.TB, s string) {
	t.Helper()
	for _, r := range s {
		_, cmd := c.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		pump(t, c.m, cmd)
	}
}

func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "shift+tab":
		return tea.KeyMsg{Type: tea.KeyShiftTab}
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case " ":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "ctrl+x":
		return tea.KeyMsg{Type: tea.KeyCtrlX}
	case "ctrl+r":
		return tea.KeyMsg{Type: tea.KeyCtrlR}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// TestPumpTellsTimersFromWork: the pump's helpers wait for requests and messages, never for the
// console's timers (if a timer were taken for work, every pump would wait for the next poll).
func TestPumpTellsTimersFromWork(t *testing.T) {
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	_, fills, _ := activityGroup(t, c.m)
	for name, cmd := range map[string]tea.Cmd{
		"the next poll":      c.m.schedule(state.KindTickers, time.Hour),
		"a pane's next poll": fills.f.schedule(time.Hour),
		"tea.Tick":           tea.Tick(time.Hour, func(time.Time) tea.Msg { return nil }),
		"tea.Every":          tea.Every(time.Hour, func(time.Time) tea.Msg { return nil }),
	} {
		if !timerCmd(cmd) {
			t.Errorf("%s is not recognised as a timer", name)
		}
	}
	request := fills.f.poll()
	for name, cmd := range map[string]tea.Cmd{
		"a poll's request": fetch(c.m.ex, state.KindTickers, 0, time.Second, c.clock.Now),
		"a notice":         common.Notice(common.LevelInfo, "hello"),
		"a pane's request": request,
	} {
		if timerCmd(cmd) {
			t.Errorf("%s is taken for a timer", name)
		}
	}
	pump(t, c.m, request)
	if c.m.busy() {
		t.Error("busy after the pump")
	}
}
