package ui

import (
	"bufio"
	"bytes"
	"context"
	tea "github.com/charmbracelet/bubbletea"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/guard"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// syncBuffer is a buffer the guard writes from its goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// guardRig is a guard for the console's account on the console's simulator, in this process:
// it signs with an agent key of its own, on the simulator's clock plus offset (the test steps it).
type guardRig struct {
	t        *testing.T
	runtime  string // the guards' socket directory's parent (XDG_RUNTIME_DIR)
	offset   atomic.Int64
	done     chan int
	errb     syncBuffer
	sock     string
	stateDir string
	now      func() time.Time
	client   *api.Client
}

// startConsoleGuard registers an agent for c's account and starts a guard signing with it, with
// args, on the simulator's clock plus the rig's offset.
func startConsoleGuard(t *testing.T, c *simConsole, args ...string) *guardRig {
	g := newGuardRig(t, c)
	g.start(args...)
	return g
}

// newGuardRig registers an agent for c's account: the rig's commands sign with it.
func newGuardRig(t *testing.T, c *simConsole) *guardRig {
	t.Helper()
	rt, err := os.MkdirTemp("", "gd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(rt) })
	g := &guardRig{t: t, runtime: rt, done: make(chan int, 1), stateDir: t.TempDir()}
	g.now = func() time.Time { return c.clock.Now().Add(time.Duration(g.offset.Load())) }
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	agent, err := api.NewSigner(key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.m.ex.(*api.Client).AddAgent(context.Background(), agent, "guard", c.clock.Now().Add(24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	asAgent, err := agent.AsAgentFor(c.m.ex.Address())
	if err != nil {
		t.Fatal(err)
	}
	g.client = api.New(c.url+"/", api.WithClock(g.now), api.WithSigner(asAgent), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	g.sock = guard.SocketPath(guard.SocketDir(rt, ""), c.m.ex.Address())
	return g
}

func (g *guardRig) env(out io.Writer) headless.Env {
	return headless.Env{Stdout: out, Stderr: out, Client: g.client, StateDir: g.stateDir, Now: g.now,
		Getenv: func(k string) string { return map[string]string{"XDG_RUNTIME_DIR": g.runtime}[k] }}
}

// run runs a headless command as the guard's account, with the guard's journal.
func (g *guardRig) run(args ...string) {
	g.t.Helper()
	var out bytes.Buffer
	if code := runHeadless(context.Background(), args, g.env(&out)); code != 0 {
		g.t.Fatalf("%v: exit %d %s", args, code, out.String())
	}
}

// start starts the guard with args and waits until it answers.
func (g *guardRig) start(args ...string) {
	t := g.t
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() { g.done <- runHeadless(ctx, append([]string{"guard"}, args...), g.env(&g.errb)) }()
	for i := 0; ; i++ {
		if _, err := guard.Call(context.Background(), g.sock, guard.CmdStatus); err == nil {
			return
		}
		select {
		case code := <-g.done:
			t.Fatalf("the guard exited %d: %s", code, g.errb.String())
		case <-time.After(50 * time.Millisecond):
		}
		if i > 1200 {
			t.Fatalf("the guard never answered: %s", g.errb.String())
		}
	}
}

// status is the guard's status.
func (g *guardRig) status() guard.Status {
	g.t.Helper()
	resp, err := guard.Call(context.Background(), g.sock, guard.CmdStatus)
	if err != nil {
		g.t.Fatal(err)
	}
	return *resp.Status
}

// algo is the guard's algorithm of kind.
func (g *guardRig) algo(kind string) (guard.Algo, bool) {
	for _, a := range g.status().Algorithms {
		if a.Kind == kind {
			return a, true
		}
	}
	return guard.Algo{}, false
}

// testGuardBeat is an attached test console's heartbeat (a tenth of the console's second): the guard's
// statuses, which the Algos and Alerts views show, come with each.
const testGuardBeat = 100 * time.Millisecond

// attach points console c at the rig's guard and attaches it, as its Init does when one runs,
// its heartbeat every testGuardBeat.
func (g *guardRig) attach(c *simConsole) *algoDriver {
	g.t.Helper()
	c.m.guard.Dir = guard.SocketDir(g.runtime, "")
	c.m.guard.Beat = testGuardBeat
	dr := newAlgoDriver(g.t, c.m)
	dr.run(c.m.findGuard())
	dr.until("the console attached", func() bool { return c.m.guard.Session() != nil })
	return dr
}

// eventuallyUI polls cond (failing after a generous bound: no timing is asserted).
func eventuallyUI(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(20 * time.Millisecond) // was 100 ms: up to that much late on each condition
	}
}

// TestConsoleRunsAlgorithmsInTheGuard: a console for the guard's account attaches (the status
// line says guard attached); a chase and a trailing stop started from it are handed to the guard
// and shown in the Algos view as the guard's; the console quits and both keep running in the
// guard (their orders resting, status listing them); a console started again shows them with
// their progress; p on the chase pauses it in the guard (its order cancelled) and p again resumes
// it; s stops it in the guard.
func TestConsoleRunsAlgorithmsInTheGuard(t *testing.T) {
	t.Parallel() // waits on the simulator (or the guard) on wall time while the others run
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.commandConfirmed(t, "buy 0.01 btc mkt")
	g := startConsoleGuard(t, c)
	dr := g.attach(c)
	if s := guardLine(c.m); !strings.Contains(s, "guard attached") {
		t.Fatalf("the status line: %q", s)
	}
	inGuard := func(dr *algoDriver, kind string) func() bool {
		return func() bool {
			r, ok := dr.row(kind)
			return ok && r.State == "running" && r.Live && strings.Contains(r.Detail, "in the guard") && (kind != "chase" || r.Children > 0)
		}
	}
	dr.command("chase buy 0.002 btc")
	dr.until("the guard's chase in the Algos view", inGuard(dr, "chase"))
	dr.command("trail btc 2%")
	dr.until("the guard's trail in the Algos view", inGuard(dr, "trail"))
	eventuallyUI(t, "the chase's order and the trail's stop at the exchange", func() bool { return len(algoChildren(c.openOrders(t))) == 2 })
	if st := g.status(); len(st.Consoles) != 1 {
		t.Fatalf("the guard lists %d consoles", len(st.Consoles))
	}
	dr.typed("guard detach") // the console detaches, and quits
	dr.until("the console detached", func() bool { return c.m.guard.Session() == nil })
	if !strings.Contains(guardLine(c.m), "guard detached") {
		t.Fatalf("after :guard detach: %q", guardLine(c.m))
	}
	eventuallyUI(t, "the guard forgets the console", func() bool { return len(g.status().Consoles) == 0 })
	time.Sleep(time.Second) // the guard's algorithms go on stepping with no console
	for _, kind := range []string{"chase", "trail"} {
		if a, ok := g.algo(kind); !ok || a.State != "running" {
			t.Fatalf("the guard's %s after the console quit: %+v", kind, a)
		}
	}
	if n := len(algoChildren(c.openOrders(t))); n != 2 {
		t.Fatalf("after the console quit: %d algorithm orders resting, want 2", n)
	}
	c2 := consoleOn(t, 200, 60, false, nil, c.sim, c.clock)
	pump(t, c2.m, c2.m.Init())
	dr2 := g.attach(c2)
	dr2.until("the chase again, with its progress", inGuard(dr2, "chase"))
	dr2.until("the trail again, with its progress", inGuard(dr2, "trail"))
	if r, _ := dr2.row("chase"); r.Working == "" || r.WorkingPrice == nil {
		t.Fatalf("the chase's row has no working order: %+v", r)
	}
	c2.m.showPane(c2.m.algoPane)
	selectRow(t, c2.m, "chase")
	dr2.key("p") // paused in the guard: its working order cancelled, nothing sent
	dr2.until("the guard pauses the chase", func() bool { a, _ := g.algo("chase"); return a.State == "paused" })
	eventuallyUI(t, "the paused chase's order cancelled", func() bool { return len(algoChildren(c2.openOrders(t))) == 1 })
	dr2.until("the view shows it paused", func() bool { r, _ := dr2.row("chase"); return r.State == "paused" })
	selectRow(t, c2.m, "chase")
	dr2.key("p") // resumed: it works its order again
	dr2.until("the guard resumes the chase", func() bool { a, _ := g.algo("chase"); return a.State == "running" && a.Working != "" })
	dr2.until("the view shows it running", func() bool { r, _ := dr2.row("chase"); return r.State == "running" })
	selectRow(t, c2.m, "chase")
	dr2.key("s")
	eventuallyUI(t, "the guard stops the chase", func() bool { a, _ := g.algo("chase"); return a.State == "stopped" })
	dr2.until("the view shows it stopped", func() bool { r, _ := dr2.row("chase"); return r.State == "stopped" })
	if a, _ := g.algo("trail"); a.State != "running" {
		t.Fatalf("the trail after stopping the chase: %+v", a)
	}
	c2.m.guard.Detach()
}

// guardLine is the status line's top line, where the guard is named.
func guardLine(m *Model) string {
	return m.status.model().Top(m.status.values(m, 200), 200)
}

// deadManLeft is the status line's dead-man with its time left.
var deadManLeft = regexp.MustCompile(`guard attached · dead-man \d+s left`)

// typed types line on the command line and enters it (what follows comes through dr.until).
func (dr *algoDriver) typed(line string) {
	dr.key(":")
	for _, r := range line {
		_, c := dr.m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(string(r))})
		dr.run(c)
	}
	dr.key("enter")
}

// selectRow moves the Algos view's cursor to the row of kind.
func selectRow(t *testing.T, m *Model, kind string) {
	t.Helper()
	for range 20 {
		rows := m.algoPane.Rows()
		if i := m.algoPane.Selected(); i >= 0 && i < len(rows) && rows[i].Kind == kind {
			return
		}
		m.Update(keyMsg("down"))
	}
	t.Fatalf("no %s row to select: %+v", kind, m.algoPane.Rows())
}

// TestConsoleKilledFiresTheGuardsDeadMan: the guard armed at 10s from the attached console
// (:guard arm 10s), on a stepped clock: while the console's heartbeats come (20s of the guard's time) nothing fires;
// the console killed (its connection gone, no heartbeat after), the switch does not fire 9.5s
// after the last heartbeat and fires at 10.5s, cancelling every open order, its firing dated
// within 10-12s of the last heartbeat; it fires once (an order placed after stays an hour on).
func TestConsoleKilledFiresTheGuardsDeadMan(t *testing.T) {
	t.Parallel() // waits on the simulator (or the guard) on wall time while the others run
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	g := startConsoleGuard(t, c)
	dr := g.attach(c)
	dr.typed("guard arm 10s") // the console's key arms it
	dr.until("the dead-man armed at 10s", func() bool { st := g.status(); return st.DeadMan.Armed && st.DeadMan.After == 10 })
	c.commandSent(t, "buy 0.01 btc 96000", false)
	c.commandSent(t, "buy 0.01 btc 95900", false)
	guardNow := func() time.Time { return c.clock.Now().Add(time.Duration(g.offset.Load())) }
	for range 4 {
		g.offset.Add(int64(5 * time.Second))
		at := guardNow()
		eventuallyUI(t, "a heartbeat after the step", func() bool {
			st := g.status()
			return len(st.Consoles) == 1 && !st.Consoles[0].LastHeartbeat.Before(at)
		})
		// The console hears the guard's status on its own: deliver its messages until it shows.
		dr.until("the status line shows the dead-man's time left", func() bool { return deadManLeft.MatchString(guardLine(c.m)) })
	}
	if st := g.status(); st.DeadMan.Fired != nil || len(c.openOrders(t)) != 2 {
		t.Fatalf("fired while heartbeats came: %+v, open %d", st.DeadMan, len(c.openOrders(t)))
	}
	c.m.guard.Session().Conn.Close() // the console is killed: its socket closes, no heartbeat follows
	eventuallyUI(t, "the guard sees the console gone", func() bool { return len(g.status().Consoles) == 0 })
	last := *g.status().DeadMan.LastHeartbeat
	g.offset.Add(int64(last.Add(9500 * time.Millisecond).Sub(guardNow())))
	time.Sleep(time.Second) // several of the guard's checks
	if st := g.status(); st.DeadMan.Fired != nil || len(c.openOrders(t)) != 2 {
		t.Fatalf("fired 9.5s after the last heartbeat: %+v", st.DeadMan)
	}
	g.offset.Add(int64(time.Second))
	eventuallyUI(t, "every open order cancelled", func() bool { return len(c.openOrders(t)) == 0 })
	fired := g.status().DeadMan.Fired
	if fired == nil || fired.Sub(last) < 10*time.Second || fired.Sub(last) > 12*time.Second {
		t.Fatalf("fired at %v, last heartbeat %v: want within 10-12s", fired, last)
	}
	c.commandSent(t, "buy 0.01 btc 96000", false)
	g.offset.Add(int64(time.Hour))
	time.Sleep(time.Second)
	if st := g.status(); len(c.openOrders(t)) != 1 || !st.DeadMan.Fired.Equal(*fired) {
		t.Fatalf("it fired again: %+v, open %d", st.DeadMan, len(c.openOrders(t)))
	}
}

// TestConsoleRefusesAnotherVersionAndAccountsGuard: a guard of another protocol version on the
// account's socket is not attached to, and the console says why (both versions named); a guard
// running for another account is not attached to either, and the status line says one runs for
// another account.
func TestConsoleRefusesAnotherVersionAndAccountsGuard(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	rt, err := os.MkdirTemp("", "gd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(rt) })
	dir := guard.SocketDir(rt, "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	other := "0x" + strings.Repeat("ab", 20)
	lo, err := guard.Listen(guard.SocketPath(dir, other))
	if err != nil {
		t.Fatal(err)
	}
	go guard.Serve(ctx, lo, guard.HandlerFunc(func(guard.Request) guard.Response {
		return guard.Response{OK: true, Status: &guard.Status{Account: other}}
	}))
	c.m.guard.Dir = dir
	dr := newAlgoDriver(t, c.m)
	dr.run(c.m.findGuard())
	dr.until("the console finds the other account's guard", func() bool { return c.m.guard.Banner() != "" })
	if s := guardLine(c.m); !strings.Contains(s, "guard runs for another account") || c.m.guard.Session() != nil {
		t.Fatalf("the status line with another account's guard: %q", s)
	}
	lv, err := guard.Listen(guard.SocketPath(dir, c.m.ex.Address()))
	if err != nil {
		t.Fatal(err)
	}
	go func() { // a guard of protocol version 7
		for {
			conn, err := lv.Accept()
			if err != nil {
				return
			}
			_, _ = bufio.NewReader(conn).ReadString('\n')
			_, _ = conn.Write([]byte(`{"v":7,"ok":true,"status":{"account":"x"}}` + "\n"))
			_ = conn.Close()
		}
	}()
	t.Cleanup(func() { _ = lv.Close() })
	before := c.m.guard.Banner()
	dr.run(c.m.findGuard())
	dr.until("the console refuses the version 7 guard", func() bool { return c.m.guard.Banner() != before })
	if s := guardLine(c.m); c.m.guard.Session() != nil || !strings.Contains(s, "protocol version 7, this tradedesk 1") {
		t.Fatalf("with a version 7 guard: %q (notice %q)", s, c.m.shownNotice())
	}
}

// TestConsoleShowsTheGuardsAlerts: an alert the guard evaluates (in its journal when it started)
// fires in the guard; the attached console's Alerts view shows when it fired there, and the
// console does not deliver it a second time; an alert only the console has still fires in the
// console.
func TestConsoleShowsTheGuardsAlerts(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.commandConfirmed(t, "buy 0.01 btc mkt") // margin in use: the margin rules assert at start
	g := newGuardRig(t, c)
	g.run("alert", "add", "margin > 0.01%")
	g.start()
	eventuallyUI(t, "the guard's alert fires", func() bool { st := g.status(); return len(st.Alerts) == 1 && st.Alerts[0].LastFired != nil })
	dr := g.attach(c)
	c.m.Update(cmdline.AlertMsg{Rule: "margin > 0.01%"})  // the same rule in the console's journal
	c.m.Update(cmdline.AlertMsg{Rule: "margin > 0.001%"}) // one the guard does not evaluate
	firedAt := regexp.MustCompile(`margin > 0\.01%.*fired \d\d-\d\d`)
	dr.until("the Alerts view shows the guard's firing", func() bool { return firedAt.MatchString(c.m.alerts.View(200, 40)) })
	c.commandConfirmed(t, "buy 0.01 btc mkt") // the account moves: the console checks its rules
	for range 4 {
		c.step(t, 3*time.Second)
	}
	if n := c.countMessages("alert: margin"); n != 1 {
		t.Fatalf("the console delivered %d margin alerts, want its own one only: %+v; rules %+v; notice %q", n, c.m.messageEntries(), c.m.alerts.Rules(), c.m.shownNotice())
	}
	if st := g.status(); len(st.Alerts) != 1 || !st.Alerts[0].Watched {
		t.Fatalf("the guard's alerts: %+v", st.Alerts)
	}
}
