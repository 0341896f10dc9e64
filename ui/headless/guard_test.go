package headless

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state/guard"
	"github.com/tradedesk/tradedesk/state/journal"
)

// guardRig runs a guard in the background against the harness's simulator.
type guardRig struct {
	h      *harness
	offset atomic.Int64 // the stepped clock: added to the wall clock
	done   chan int
	out    lockedBuffer
	errb   lockedBuffer
	cancel func()
}

// guardHarness is a harness with a short runtime directory for the guard's socket.
func guardHarness(t *testing.T, opts ...sim.Option) *harness {
	h := newHarness(t, opts...)
	dir, err := os.MkdirTemp("", "gd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	h.env["XDG_RUNTIME_DIR"] = dir
	if h.stateDir == "" {
		h.stateDir = t.TempDir()
	}
	return h
}

// startGuard starts tradedesk guard with args and waits until it answers on its socket.
func (h *harness) startGuard(args ...string) *guardRig {
	h.t.Helper()
	g := &guardRig{h: h, done: make(chan int, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	g.cancel = cancel
	full := append(append([]string{"guard"}, args...), "--url", h.srv.URL)
	now := func() time.Time { return time.Now().Add(time.Duration(g.offset.Load())) }
	env := maps.Clone(h.env)
	if slices.Contains(args, "--agent-keystore") {
		delete(env, api.EnvPrivateKey) // only the agent's key
	}
	go func() {
		g.done <- Run(ctx, full, Env{Stdout: &g.out, Stderr: &g.errb, Getenv: func(k string) string { return env[k] },
			StateDir: h.stateDir, ExpiryWindow: h.expiry, Now: now, Defaults: h.defaults, GuardEvery: h.guardEvery,
			AlgoReprice: h.reprice})
	}()
	h.t.Cleanup(func() { cancel() })
	for i := 0; ; i++ {
		if code, _, _ := h.guardCmd("status"); code == 0 {
			return g
		}
		select {
		case code := <-g.done:
			h.t.Fatalf("the guard exited %d before answering: %q", code, g.errb.String())
		case <-time.After(50 * time.Millisecond):
		}
		if i > 1200 {
			h.t.Fatalf("the guard never answered: %q", g.errb.String())
		}
	}
}

// guardCmd runs a guard subcommand as cron or a script would: no exchange named, no key.
func (h *harness) guardCmd(args ...string) (int, string, string) {
	h.t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), append([]string{"guard"}, args...), Env{Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return map[string]string{"XDG_RUNTIME_DIR": h.env["XDG_RUNTIME_DIR"]}[k] }, StateDir: h.stateDir})
	return code, out.String(), errb.String()
}

// guardOK runs a guard subcommand that must succeed.
func (h *harness) guardOK(args ...string) string {
	h.t.Helper()
	code, out, errs := h.guardCmd(args...)
	if code != 0 {
		h.t.Fatalf("guard %v: exit %d %q", args, code, errs)
	}
	return out
}

// status is the guard's status over the socket, through tradedesk guard status --json.
func (h *harness) guardStatus() guard.Status {
	h.t.Helper()
	var st guard.Status
	if err := json.Unmarshal([]byte(h.guardOK("status", "--json")), &st); err != nil {
		h.t.Fatal(err)
	}
	return st
}

// wait waits for the guard to exit and returns its status.
func (g *guardRig) wait() int {
	select {
	case code := <-g.done:
		return code
	case <-time.After(2 * time.Minute):
		g.h.t.Fatalf("the guard did not exit: %q", g.errb.String())
	}
	return -1
}

// eventually polls cond until it holds (failing after a generous bound: no timing is asserted).
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for i := 0; !cond(); i++ {
		if i > 600 {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// leaveChase writes a chase into the journal as an earlier process left it: begun, nothing sent.
func (h *harness) leaveChase(id string) {
	h.t.Helper()
	h.ok("algos")
	files, _ := filepath.Glob(filepath.Join(h.stateDir, "journal", "*.db"))
	j, err := journal.Open(files[0])
	if err != nil {
		h.t.Fatal(err)
	}
	defer j.Close()
	raw := `{"instrument":"BTC-PERP","side":"buy","size":"0.002","offset_ticks":5,"limit":"0","until":"0001-01-01T00:00:00Z","arrival":"97000"}`
	if _, err := j.BeginAlgo(context.Background(), journal.Algo{ID: id, Kind: "chase", Params: json.RawMessage(raw)}); err != nil {
		h.t.Fatal(err)
	}
}

// TestGuardResumesAChaseAndStopsResumable: a chase an earlier process left running is resumed
// by the guard (--on-restart resume): its order rests, status over the socket lists it; a second
// guard for the account is refused; guard stop ends the guard with exit 0, the chase still
// running in the journal and its order resting, and the next guard resumes it again, adopting
// that order rather than sending another. The guard refuses the account's own key unless told.
func TestGuardResumesAChaseAndStopsResumable(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	h := guardHarness(t)
	if code, _, errs := h.run("guard"); code != ExitUsage || !strings.Contains(errs, "only an agent key") || !strings.Contains(errs, "--allow-account-key") {
		t.Fatalf("the account's own key without --allow-account-key: exit %d %q", code, errs)
	}
	h.leaveChase("left-1")
	if code, _, errs := h.run("guard", "--allow-account-key"); code != ExitUsage || !strings.Contains(errs, "chase left-1") {
		t.Fatalf("a chase left running without --on-restart: exit %d %q", code, errs)
	}
	g := h.startGuard("--allow-account-key", "--on-restart", "resume")
	eventually(t, "the resumed chase's order rests", func() bool { return len(h.openOrders()) == 1 })
	first := h.openOrders()[0]
	if !strings.HasPrefix(first.Cloid, "left-1-") {
		t.Fatalf("resting: %+v", first)
	}
	st := h.guardStatus()
	if len(st.Algorithms) != 1 || st.Algorithms[0].ID != "left-1" || st.Algorithms[0].State != "running" || st.DeadMan.Armed || !strings.EqualFold(st.Account, testAddress(t)) {
		t.Fatalf("status: %+v", st)
	}
	if out := h.guardOK("status", "--account", testAddress(t)); !strings.Contains(out, "chase left-1 buy BTC-PERP: filled 0 of 0.002, running") {
		t.Fatalf("status --account: %q", out)
	}
	if code, _, errs := h.guardCmd("status", "--account", "0xnope"); code != ExitUsage || !strings.Contains(errs, "40 hex digits") {
		t.Fatalf("status --account 0xnope: %d %q", code, errs)
	}
	if code, _, errs := h.run("guard", "--allow-account-key", "--on-restart", "resume"); code != ExitRefused || !strings.Contains(errs, "already running") {
		t.Fatalf("a second guard: exit %d %q", code, errs)
	}
	if out := h.guardOK("stop"); !strings.Contains(out, "resumable") {
		t.Fatalf("stop: %q", out)
	}
	if code := g.wait(); code != 0 || !strings.Contains(g.errb.String(), "1 algorithm(s) left running") {
		t.Fatalf("the guard stopped with %d: %q", code, g.errb.String())
	}
	if open := h.openOrders(); len(open) != 1 || open[0].Cloid != first.Cloid {
		t.Fatalf("after stop, open: %+v (want %s still resting)", open, first.Cloid)
	}
	var list []algoJSON
	if err := json.Unmarshal([]byte(h.ok("algos", "--json")), &list); err != nil || len(list) != 1 || list[0].State != "running" {
		t.Fatalf("algos after stop: %+v %v", list, err)
	}
	if code, _, errs := h.guardCmd("status"); code != ExitUnavailable || !strings.Contains(errs, "no guard is running") {
		t.Fatalf("status with no guard: %d %q", code, errs)
	}
	g = h.startGuard("--allow-account-key", "--on-restart", "resume")
	eventually(t, "the chase is running again", func() bool {
		st := h.guardStatus()
		return len(st.Algorithms) == 1 && st.Algorithms[0].State == "running"
	})
	if open := h.openOrders(); len(open) != 1 || open[0].Cloid != first.Cloid {
		t.Fatalf("resumed again, open: %+v (want %s adopted, nothing sent twice)", open, first.Cloid)
	}
	g.cancel() // SIGTERM's way in: the command's context ends
	if code := g.wait(); code != 0 {
		t.Fatalf("the guard ended with %d on its signal: %q", code, g.errb.String())
	}
}

// TestGuardDeadManFiresOnce: a guard holding only an agent key, the switch armed at 30s, on a
// stepped clock: heartbeats every 20s keep the account's orders; 30s with none cancels every
// open order as one journaled cancel-all; it fires once (no second cancel-all however long
// after), status says it fired, and the log (0600) says so.
func TestGuardDeadManFiresOnce(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	h := guardHarness(t)
	h.env[api.EnvPassphrase] = "guard agent pass"
	agent := filepath.Join(t.TempDir(), "agent.json")
	h.ok("agent", "add", "--name", "guard", "--out", agent)
	bid := h.restingBid()
	for range 2 {
		h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", bid)
	}
	g := h.startGuard("--agent-keystore", agent, "--account", testAddress(t), "--dead-man", "30s")
	if st := h.guardStatus(); !st.DeadMan.Armed || st.DeadMan.After != 30 {
		t.Fatalf("status: %+v", st.DeadMan)
	}
	for range 2 { // 40 s on: without the heartbeats it would have fired at 30
		g.offset.Add(int64(20 * time.Second))
		time.Sleep(500 * time.Millisecond) // a few of the guard's checks pass on the stepped clock
		if out := h.guardOK("heartbeat"); !strings.Contains(out, "armed") {
			t.Fatalf("heartbeat: %q", out)
		}
	}
	if open := h.openOrders(); len(open) != 2 {
		t.Fatalf("the switch fired while heartbeats came: open %+v; %q", open, g.errb.String())
	}
	g.offset.Add(int64(31 * time.Second))
	eventually(t, "the dead-man's switch cancels every order", func() bool { return len(h.openOrders()) == 0 })
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", bid)
	g.offset.Add(int64(time.Hour))
	time.Sleep(500 * time.Millisecond)
	st := h.guardStatus()
	if st.DeadMan.Fired == nil || st.DeadMan.Armed || len(h.openOrders()) != 1 {
		t.Fatalf("after firing: %+v, open %+v", st.DeadMan, h.openOrders())
	}
	var intents []journalJSON
	if err := json.Unmarshal([]byte(h.ok("journal", "--json", "--limit", "50")), &intents); err != nil {
		t.Fatal(err)
	}
	fired := 0
	for _, in := range intents {
		if in.Kind == "cancel-all" && strings.Contains(in.What, "dead-man") {
			fired++
		}
	}
	if fired != 1 {
		t.Fatalf("%d dead-man cancel-alls in the journal: %+v", fired, intents)
	}
	h.guardOK("stop")
	if code := g.wait(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if b, err := os.ReadFile(filepath.Join(h.stateDir, "guard.log")); err != nil || !strings.Contains(string(b), "dead-man fired") {
		t.Fatalf("the log: %v %q", err, b)
	}
	if st, err := os.Stat(filepath.Join(h.stateDir, "guard.log")); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("the log's mode: %v %v", st.Mode(), err)
	}
}

// TestGuardDeadManFlattens: with --dead-man-flatten the switch, once fired, also closes the
// position with a reduce-only market order (journaled as the guard's flatten), after cancelling
// the resting orders; it is refused without --dead-man.
func TestGuardDeadManFlattens(t *testing.T) {
	t.Parallel() // waits on the wall clock (the simulator, the guard) while the others run
	h := guardHarness(t)
	if code, _, errs := h.run("guard", "--allow-account-key", "--dead-man-flatten"); code != ExitUsage || !strings.Contains(errs, "--dead-man") {
		t.Fatalf("--dead-man-flatten alone: exit %d %q", code, errs)
	}
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", h.restingBid())
	if p := h.position("BTC-PERP"); !p.Size.IsPositive() {
		t.Fatalf("no long to flatten: %+v", p)
	}
	g := h.startGuard("--allow-account-key", "--dead-man", "5s", "--dead-man-flatten")
	g.offset.Add(int64(6 * time.Second))
	eventually(t, "the dead-man's switch flattens the long", func() bool { return h.position("BTC-PERP").Size.IsZero() })
	if open := h.openOrders(); len(open) != 0 {
		t.Fatalf("open after the switch: %+v", open)
	}
	var intents []journalJSON
	if err := json.Unmarshal([]byte(h.ok("journal", "--json")), &intents); err != nil {
		t.Fatal(err)
	}
	if len(intents) < 2 || !strings.Contains(intents[0].What, "guard dead-man: flatten 1 positions") || intents[1].Kind != "cancel-all" {
		t.Fatalf("journal: %+v", intents[:min(len(intents), 2)])
	}
	h.guardOK("stop")
	if code := g.wait(); code != 0 {
		t.Fatalf("exit %d: %q", code, g.errb.String())
	}
}

// TestGuardCadences: the guard checks the exchange every 2 s and reads the journal's alerts
// every 5 s; Env.GuardEvery, when set, is both (what the tests that wait on them set short).
func TestGuardCadences(t *testing.T) {
	if reach, alerts := guardCadences(Env{}); reach != 2*time.Second || alerts != 5*time.Second {
		t.Errorf("default cadences %s and %s, want 2s and 5s", reach, alerts)
	}
	if reach, alerts := guardCadences(Env{GuardEvery: 100 * time.Millisecond}); reach != 100*time.Millisecond || alerts != reach {
		t.Errorf("GuardEvery 100ms: %s and %s", reach, alerts)
	}
}
