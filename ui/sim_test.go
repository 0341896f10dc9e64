package ui

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// testKeyHex is a fixed test key (never a real account).
const testKeyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

var simStart = time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)

// simConsole is a console wired to a deterministic simulator over real HTTP.
type simConsole struct {
	m      *Model
	sim    *sim.Sim
	clock  *sim.TestClock
	timers *feed.FakeClock // the console's timers: they run only when the test steps them
	url    string
}

// newSimConsole starts a simulator with a fixed seed and test clock behind httptest and a console
// trading it with a fixed key (readOnly: watching that key's address without it).
func newSimConsole(t testing.TB, w, h int, readOnly bool) *simConsole {
	t.Helper()
	return newSimConsoleVia(t, w, h, readOnly, nil)
}

// fundedSim is a simulator that knows the test key's account, funded with the demo balance (the
// simulator acts only for accounts it knows).
func fundedSim(t testing.TB, opts ...sim.Option) *sim.Sim {
	t.Helper()
	s := sim.New(opts...)
	signer, err := api.SignerFromHex(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	return s
}

// newSimConsoleVia is newSimConsole with the simulator's handler wrapped (to lose answers).
func newSimConsoleVia(t testing.TB, w, h int, readOnly bool, wrap func(http.Handler) http.Handler) *simConsole {
	t.Helper()
	clock := sim.NewTestClock(simStart)
	return consoleOn(t, w, h, readOnly, wrap, fundedSim(t, sim.WithSeed(7), sim.WithClock(clock)), clock)
}

// newHourlySimConsole is newSimConsole with the simulator's market stepped once a minute, not
// once a second: for a test that runs an hour or more of market for its funding settlement and
// reads nothing of the market's path (60 steps to the hour, not 3,600).
func newHourlySimConsole(t testing.TB, w, h int) *simConsole {
	t.Helper()
	clock := sim.NewTestClock(simStart)
	return consoleOn(t, w, h, false, nil, fundedSim(t, sim.WithSeed(7), sim.WithClock(clock), sim.WithStep(time.Minute)), clock)
}

// newDemoConsole is a console on the demo's wallet, seeded as `tradedesk` seeds it: sim.SeedDemo
// funds the unknown wallet (its deposits dated before its first fill) and opens its positions and
// orders.
func newDemoConsole(t testing.TB, w, h int) *simConsole {
	t.Helper()
	clock := sim.NewTestClock(simStart)
	c := consoleOn(t, w, h, false, nil, sim.New(sim.WithSeed(7), sim.WithClock(clock)), clock)
	if err := c.sim.SeedDemo(c.m.ex.Address()); err != nil {
		t.Fatal(err)
	}
	return c
}

// consoleOn serves s behind httptest (its handler wrapped when wrap is given) and starts a console
// trading it with the test key (readOnly: watching that key's address without it).
func consoleOn(t testing.TB, w, h int, readOnly bool, wrap func(http.Handler) http.Handler, s *sim.Sim, clock *sim.TestClock) *simConsole {
	t.Helper()
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
	timers := feed.NewFakeClock(simStart)
	maker, taker := sim.FeeRates() // the exchange's own rates, as the embedded demo gives them
	var x *exec.Executor
	if !readOnly {
		x = testExec(t, client, "")
	}
	m := New(Config{Exchange: client, Clock: clock.Now, Fees: &state.Fees{Maker: maker, Taker: taker}, Timers: timers, Keys: mustKeys(t), Theme: testTheme, Mode: mode,
		Network: "demo", Watchlist: []string{"ETH-PERP"}, Exec: x})
	m.fixedLatency = true
	if w > 0 {
		m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	}
	return &simConsole{m: m, sim: s, clock: clock, timers: timers, url: srv.URL}
}

// testExec is the executor a console trading through client signs with: its journal under dir
// (a new test directory when ""), the default guard, quick lookups. Its clock is the wall clock:
// the tests' exchange clocks stand in the past, so a request's expiresAfter has passed when its
// answer is lost and the first lookup settles it.
func testExec(t testing.TB, client *api.Client, dir string) *exec.Executor {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	newJournal(t, journal.ProfilePath(dir, "demo", client.Address(), ""))
	g := state.DefaultGuard()
	x, err := exec.Open(exec.Setup{Dir: dir, Network: "demo", Config: exec.Config{Send: client, Read: client, Account: client.Address(), Guard: &g,
		LookupWait: 20 * time.Millisecond, MaxLookupWait: 100 * time.Millisecond, SettleEvery: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = x.Close() })
	return x
}

// emptyJournal is a new journal file's bytes, made once per process: each test's journal starts as
// a copy (newJournal), which journal.Open takes as it is, where making the tables in every new
// file was 6 % of the package's CPU (its SQL parsed again, about three times that under -race).
var emptyJournal = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "ui-journal-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "j.db")
	j, err := journal.Open(path)
	if err != nil {
		return nil, err
	}
	if err := j.Close(); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
})

// newJournal puts an empty journal at path unless there is a file there already (a test that
// opens the journal of one before).
func newJournal(t testing.TB, path string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		return
	}
	b, err := emptyJournal()
	if err == nil {
		err = os.MkdirAll(filepath.Dir(path), 0o700)
	}
	if err == nil {
		err = os.WriteFile(path, b, 0o600)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// reviewEveryOrder sets the confirmation policy to "every": for tests about the confirmation
// itself (its figures, what happens once it is confirmed) rather than about which orders ask.
func (m *Model) reviewEveryOrder() { m.c.Guard.Confirm = state.ConfirmEvery }

// pump runs cmd and every command that follows from it, feeding each message to the model, until
// every command it started has returned and been handled and no request of the model is out.
// The console's timers (the next polls, backoffs, flashes) run on a feed.FakeClock: they are no
// commands, so a pump settles the console after one round of requests however slow the machine
// is, and they fire only when the test steps the clock (step).
func pump(t testing.TB, m *Model, cmd tea.Cmd) {
	t.Helper()
	msgs := make(chan tea.Msg, 4096)
	pending := 0 // commands started whose message has not been handled yet
	run := func(c tea.Cmd) {
		if c == nil {
			return
		}
		pending++
		go func() { msgs <- c() }()
	}
	run(cmd)
	deadline := time.NewTimer(pumpDeadline)
	defer deadline.Stop()
	for pending > 0 || m.busy() {
		select {
		case msg := <-msgs:
			pending--
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
		case <-deadline.C:
			t.Fatalf("pump: the console did not settle in %s: %d commands still running, busy %v", pumpDeadline, pending, m.busy())
		}
	}
}

// step moves the console's timers by d and delivers every timer that came due, pumping what each
// starts.
func (c *simConsole) step(t testing.TB, d time.Duration) {
	t.Helper()
	for _, msg := range c.timers.Advance(d) {
		_, cmd := c.m.Update(msg)
		pump(t, c.m, cmd)
	}
}

// pumpDeadline bounds a pump: a request to the simulator takes milliseconds, so only a console
// that never settles (a hung request, a command that never returns) reaches it.
const pumpDeadline = 20 * time.Second

// busy reports whether a request of the model is still out (a pump waits for it whether or not
// the command that sends it is one the pump started).
func (m *Model) busy() bool {
	return m.pipe.open > 0 || m.feed.Busy() // an action, a poll or a pane's own request
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

func keyMsg(k string) tea.KeyMsg { return commontest.KeyMsg(k) }

// TestTimersAreSteppedNotWaitedFor: once the first round of requests is in, the console's next
// polls are timers on the fake clock, not commands a pump waits for (a pump that waited for one
// would not settle: it ends at its deadline, a fatal error); stepping the clock by a ticker
// interval runs the tickers poll again, and by the orders interval the orders poll.
func TestTimersAreSteppedNotWaitedFor(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	if c.m.busy() || c.timers.Pending() == 0 {
		t.Fatalf("after the pump: busy %v, %d timers armed", c.m.busy(), c.timers.Pending())
	}
	tickers, orders := c.m.feed.Task(state.KindTickers), c.m.feed.Task(state.KindOrders)
	tg, og := tickers.Gen(), orders.Gen()
	c.step(t, c.m.iv.Tickers)
	if tickers.Gen() != tg+1 || orders.Gen() != og {
		t.Fatalf("one ticker interval: tickers polled %d times, orders %d", tickers.Gen()-tg, orders.Gen()-og)
	}
	c.step(t, c.m.iv.Orders-c.m.iv.Tickers)
	if orders.Gen() != og+1 {
		t.Fatalf("one orders interval: orders polled %d times", orders.Gen()-og)
	}
}
