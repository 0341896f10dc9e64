package ui

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
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
// nothing has arrived for a short while. Timers (polls, flashes) do not fire within that window,
// so a pump settles the console after one round of requests.
func pump(t testing.TB, m *Model, cmd tea.Cmd) {
	t.Helper()
	msgs := make(chan tea.Msg, 4096)
	run := func(c tea.Cmd) {
		if c == nil {
			return
		}
		go func() { msgs <- c() }()
	}
	run(cmd)
	deadline := time.After(10 * time.Second)
	for {
		select {
		case msg := <-msgs:
			switch msg := msg.(type) {
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
		case <-time.After(40 * time.Millisecond):
			if !m.busy() {
				return
			}
		case <-deadline:
			t.Fatal("pump: the console did not settle in 10s")
		}
	}
}

// busy reports whether a request of the model is still out.
func (m *Model) busy() bool {
	if m.sending > 0 {
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
