package main

import (
	"encoding/json"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/guard"
)

// TestGuardKilledMidChaseResumesIt: the program's guard, a process of its own, runs a
// chase handed to it by `tradedesk chase --guard` (which returns at once with its id). Killed
// with SIGKILL mid-chase, its socket file left behind, the guard started again refuses without
// --on-restart (naming the chase), and with --on-restart resume replaces the stale socket and
// resumes the chase from the journal: its resting order adopted, nothing sent twice (every
// client id at the exchange once, one of the chase's orders open).
func TestGuardKilledMidChaseResumesIt(t *testing.T) {
	if !processTest(t) {
		return
	}
	p := newGuardProcs(t)
	g := p.start()
	out, err := p.command("chase", "--url", p.url, "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--guard", "--json").Output()
	var handed struct{ ID string }
	if err != nil || json.Unmarshal(out, &handed) != nil || handed.ID == "" {
		t.Fatalf("chase --guard: %v %s", err, out)
	}
	waitFor(t, "the guard's chase rests its order", func() bool {
		return p.status() && len(p.st.Algorithms) == 1 && p.st.Algorithms[0].Working != "" && p.st.Algorithms[0].State == "running"
	})
	time.Sleep(2 * time.Second) // let it step (and reprice, if the market moves) in the guard
	if err := g.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_, _ = g.Process.Wait()
	if socks, _ := filepath.Glob(filepath.Join(p.rt, "tradedesk", "guard-*.sock")); len(socks) != 1 {
		t.Fatalf("the killed guard's socket file: %v", socks)
	}
	if out, err := p.command("guard", "--url", p.url, "--allow-account-key").CombinedOutput(); err == nil || !strings.Contains(string(out), "chase "+handed.ID) {
		t.Fatalf("a guard without --on-restart after the kill: %v %s", err, out)
	}
	g = p.start("--on-restart", "resume")
	waitFor(t, "the chase resumed in the new guard", func() bool {
		if !p.status() {
			return false
		}
		a := p.st.Algorithms
		return len(a) == 1 && a[0].ID == handed.ID && a[0].State == "running" && a[0].Working != ""
	})
	time.Sleep(2 * time.Second)
	for cloid, n := range cloidsAtExchange(t, p.bin, p.url, p.env) {
		if n != 1 {
			t.Errorf("%s is at the exchange %d times", cloid, n)
		}
	}
	// A reprice is a cancel then a place: between the two, none is open, so read until both
	// reads agree (one order open while it runs, or the chase done to its target).
	var open int
	var a guard.Algo
	waitFor(t, "one of the chase's orders open while it runs, or the chase filled", func() bool {
		open = p.openOf(handed.ID)
		if !p.status() || len(p.st.Algorithms) != 1 {
			return false
		}
		a = p.st.Algorithms[0]
		return (a.State == "running" && open == 1) || (a.State == "done" && a.Filled.Equal(a.Target))
	})
	t.Logf("after the restart: %d open, chase %s filled %s of %s, %d children, %d reprices", open, a.State, a.Filled, a.Target, a.Children, a.Reprices)
	if out, err := p.command("guard", "stop").CombinedOutput(); err != nil {
		t.Fatalf("guard stop: %v %s", err, out)
	}
	if err := g.Wait(); err != nil {
		t.Fatalf("the guard's exit: %v", err)
	}
}

// guardProcs runs the program's simulator, guards and commands, with a runtime directory
// of their own.
type guardProcs struct {
	t            *testing.T
	bin, url, rt string
	env          []string
	st           guard.Status // the last status read
}

func newGuardProcs(t *testing.T) *guardProcs {
	dir := t.TempDir()
	p := &guardProcs{t: t, bin: programBin(t)}
	p.url = startSimProcess(t, p.bin, "--fund", roAddr)
	rt, err := os.MkdirTemp("", "gd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(rt) })
	p.rt = rt
	p.env = append(os.Environ(), "HOME="+dir, "XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_RUNTIME_DIR="+rt,
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"), api.EnvPrivateKey+"=0x"+roKeyHex, programEnv)
	return p
}

func (p *guardProcs) command(args ...string) *osexec.Cmd {
	cmd := osexec.Command(p.bin, args...)
	cmd.Env = p.env
	return cmd
}

// status reads the guard's status into p.st (false: no guard answered).
func (p *guardProcs) status() bool {
	out, err := p.command("guard", "status", "--json").Output()
	return err == nil && json.Unmarshal(out, &p.st) == nil
}

// start starts a guard process with args and waits until it answers.
func (p *guardProcs) start(args ...string) *osexec.Cmd {
	g := p.command(append([]string{"guard", "--url", p.url, "--allow-account-key"}, args...)...)
	if err := g.Start(); err != nil {
		p.t.Fatal(err)
	}
	p.t.Cleanup(func() { _ = g.Process.Kill(); _, _ = g.Process.Wait() })
	waitFor(p.t, "the guard answers", p.status)
	return g
}

// openOf is how many of algorithm id's orders are open ("": all the account's).
func (p *guardProcs) openOf(id string) int {
	var orders []api.OrderRecord
	decodeCommand(p.t, p.bin, p.env, &orders, "orders", "--url", p.url, "--json")
	n := 0
	for _, o := range orders {
		if id == "" || strings.HasPrefix(o.Cloid, id+"-") {
			n++
		}
	}
	return n
}

// waitFor polls cond until it holds (failing after a generous bound: no timing is asserted).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for i := 0; !cond(); i++ {
		if i > 600 {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestGuardDeadManFiresWhenTheConsoleIsKilled: the program's guard armed at 2s (ten of the
// console's heartbeats, 200ms apart here: guardBeat; under -race the program built apart beats
// every second, so 3s; the switch's own timing is proven on a stepped clock in ui/headless) and
// the program's console, a real terminal program (tmux), attached to it: the console's status
// line says guard attached; while it runs (its heartbeats coming) until a second past the span
// after it attached, nothing fires; the console killed with SIGKILL, the guard cancels every open
// order, as one journaled cancel-all, once; SIGTERM ends the guard with exit 0.
func TestGuardDeadManFiresWhenTheConsoleIsKilled(t *testing.T) {
	if !processTest(t) {
		return
	}
	if _, err := osexec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux")
	}
	p := newGuardProcs(t)
	for _, px := range []string{"50000", "50100"} {
		retried(t, "order", p.command("order", "--url", p.url, "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px, "--yes").CombinedOutput)
	}
	span, beat := 2*time.Second, 200*time.Millisecond
	if raceBuild {
		span, beat = 3*time.Second, time.Second
	}
	g := p.start("--dead-man", span.String())
	sock := "td-" + filepath.Base(p.rt)
	envs := []string{asProgramBeat + "=" + beat.String()}
	for _, kv := range p.env {
		if strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "XDG_") || strings.HasPrefix(kv, api.EnvPrivateKey+"=") || kv == programEnv {
			envs = append(envs, kv)
		}
	}
	shell := "env " + strings.Join(envs, " ") + " " + p.bin + " --url " + p.url + "; sleep 600"
	if out, err := osexec.Command("tmux", "-L", sock, "new-session", "-d", "-s", "c", "-x", "160", "-y", "48", shell).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() { _ = osexec.Command("tmux", "-L", sock, "kill-server").Run() })
	screen := func() string {
		out, _ := osexec.Command("tmux", "-L", sock, "capture-pane", "-p", "-t", "c").Output()
		return string(out)
	}
	waitFor(t, "the console attaches", func() bool { return p.status() && len(p.st.Consoles) == 1 })
	waitFor(t, "the console's status line says guard attached", func() bool { return strings.Contains(screen(), "guard attached") })
	pid := p.st.Consoles[0].PID
	// The attach was the switch's last heartbeat but the console's own: without them it fires a
	// span on (the guard checks it every 200ms), so a second past that shows they keep it.
	for until := time.Now().Add(span + time.Second); time.Now().Before(until); {
		time.Sleep(100 * time.Millisecond)
		if p.status(); p.st.DeadMan.Fired != nil {
			t.Fatalf("fired while the console ran: %+v\n%s", p.st.DeadMan, screen())
		}
	}
	if n := p.openOf(""); n != 2 {
		t.Fatalf("%d orders open while the console ran, want 2", n)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "every open order cancelled", func() bool { return p.openOf("") == 0 })
	var intents []struct{ Kind, What string }
	decodeCommand(t, p.bin, p.env, &intents, "journal", "--url", p.url, "--json", "--limit", "50")
	fired := 0
	for _, in := range intents {
		if in.Kind == "cancel-all" && strings.Contains(in.What, "dead-man") {
			fired++
		}
	}
	if p.status(); fired != 1 || p.st.DeadMan.Fired == nil || len(p.st.Consoles) != 0 {
		t.Fatalf("%d dead-man cancel-alls, status %+v", fired, p.st)
	}
	if err := g.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := g.Wait(); err != nil {
		t.Fatalf("the guard's exit on SIGTERM: %v", err)
	}
}
