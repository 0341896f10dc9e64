package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/state/risk"
	"github.com/tradedesk/tradedesk/ui/common"
)

// secondKeyHex is a second fixed test key: profile b's account (never a real one).
const secondKeyHex = "8da4ef21b864d2cc526dbdb2a120bd2874c36c9d0a1fb7f8c63d7f7a8b41de8f"

// twoProfiles is a console over profiles a (testKeyHex) and b (secondKeyHex), both funded on one
// simulator, each with its own executor, journal, risk limits and timers.
type twoProfiles struct {
	sw     *Switcher
	sim    *sim.Sim
	timers map[string]*feed.FakeClock
}

func newTwoProfiles(t *testing.T, limits map[string]risk.Limits) *twoProfiles {
	t.Helper()
	return newTwoProfilesKeyed(t, limits, mustKeys(t))
}

// newTwoProfilesKeyed is newTwoProfiles with a key map of the test's.
func newTwoProfilesKeyed(t *testing.T, limits map[string]risk.Limits, keys common.KeyMap) *twoProfiles {
	t.Helper()
	clock := sim.NewTestClock(simStart)
	s := fundedSim(t, sim.WithSeed(7), sim.WithClock(clock))
	c := consoleOn(t, 0, 0, true, nil, s, clock) // only for its server's URL
	tp := &twoProfiles{sim: s, timers: map[string]*feed.FakeClock{}}
	var cfgs []Config
	for _, p := range []struct{ name, key string }{{"a", testKeyHex}, {"b", secondKeyHex}} {
		signer, err := api.SignerFromHex(p.key)
		if err != nil {
			t.Fatal(err)
		}
		if p.name == "b" {
			if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
				t.Fatal(err)
			}
		}
		client := api.New(c.url+"/", api.WithClock(clock.Now), api.WithRetry(api.RetryPolicy{Attempts: 1}), api.WithSigner(signer))
		g := state.DefaultGuard()
		x, err := exec.Open(exec.Setup{Dir: t.TempDir(), Network: "demo", Profile: p.name, Config: exec.Config{Send: client, Read: client,
			Account: client.Address(), Guard: &g, Limits: limits[p.name],
			LookupWait: 20 * time.Millisecond, MaxLookupWait: 100 * time.Millisecond, SettleEvery: 20 * time.Millisecond}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = x.Close() })
		tp.timers[p.name] = feed.NewFakeClock(simStart)
		maker, taker := sim.FeeRates()
		cfgs = append(cfgs, Config{Exchange: client, Clock: clock.Now, Fees: &state.Fees{Maker: maker, Taker: taker}, Timers: tp.timers[p.name],
			Keys: keys, Theme: testTheme, Mode: ModeLive, Network: "demo", Profile: p.name, Watchlist: []string{"ETH-PERP"}, Exec: x})
	}
	sw, err := NewSwitcher(cfgs...)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range sw.models {
		m.fixedLatency = true
	}
	tp.sw = sw
	sw.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	tp.pump(t, sw.Init())
	return tp
}

// pump is the package's pump over every profile: it runs cmd and what follows until every
// command returned and no profile has a request out.
func (tp *twoProfiles) pump(t *testing.T, cmd tea.Cmd) {
	t.Helper()
	msgs := make(chan tea.Msg, 4096)
	pending := 0
	run := func(c tea.Cmd) {
		if c != nil {
			pending++
			go func() { msgs <- c() }()
		}
	}
	run(cmd)
	busy := func() bool {
		for _, m := range tp.sw.models {
			if m.busy() {
				return true
			}
		}
		return false
	}
	deadline := time.NewTimer(pumpDeadline)
	defer deadline.Stop()
	for pending > 0 || busy() {
		select {
		case msg := <-msgs:
			pending--
			switch msg := msg.(type) {
			case nil, tea.QuitMsg:
			case tea.BatchMsg:
				for _, c := range msg {
					run(c)
				}
			default:
				_, next := tp.sw.Update(msg)
				run(next)
			}
		case <-deadline.C:
			t.Fatalf("pump: the profiles did not settle: %d commands running", pending)
		}
	}
}

// key presses keys on the switcher; typeText types text.
func (tp *twoProfiles) key(t *testing.T, keys ...string) {
	t.Helper()
	for _, k := range keys {
		msg := keyMsg(k)
		if k == "ctrl+a" {
			msg = tea.KeyMsg{Type: tea.KeyCtrlA}
		}
		_, cmd := tp.sw.Update(msg)
		tp.pump(t, cmd)
	}
}

func (tp *twoProfiles) command(t *testing.T, line string) {
	t.Helper()
	tp.key(t, ":")
	for _, r := range line {
		tp.key(t, string(r))
	}
	tp.key(t, "enter")
}

// switchTo opens the profile list and picks name (or "combined").
func (tp *twoProfiles) switchTo(t *testing.T, name string) {
	t.Helper()
	tp.key(t, "ctrl+a")
	if !tp.sw.picking {
		t.Fatal("ctrl+a did not open the profile list")
	}
	rows := append(tp.sw.set.Names(), "combined", "vaults")
	for tp.sw.cursor > 0 {
		tp.key(t, "up")
	}
	for rows[tp.sw.cursor] != name {
		tp.key(t, "down")
	}
	tp.key(t, "enter")
}

// account is what the exchange holds for a profile: its open orders and positions.
func (tp *twoProfiles) account(t *testing.T, name string) ([]api.OrderRecord, []api.Position) {
	t.Helper()
	ex := tp.sw.models[name].ex
	pg, err := ex.OpenOrders(t.Context(), ex.Address(), api.PageParams{Page: 1})
	if err != nil {
		t.Fatal(err)
	}
	ps, err := ex.Positions(t.Context(), ex.Address())
	if err != nil {
		t.Fatal(err)
	}
	return pg.Data, ps
}

func sizes(ps []api.Position) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Instrument+" "+p.Size.String())
	}
	return strings.Join(out, ", ")
}
