package main

import (
	"encoding/json"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/guard"
)

// TestGuardKilledMidChaseResumesIt: the built binary's guard, a process of its own, runs a
// chase handed to it by `tradedesk chase --guard` (which returns at once with its id). Killed
// with SIGKILL mid-chase, its socket file left behind, the guard started again refuses without
// --on-restart (naming the chase), and with --on-restart resume replaces the stale socket and
// resumes the chase from the journal: its resting order adopted, nothing sent twice (every
// client id at the exchange once, one of the chase's orders open).
func TestGuardKilledMidChaseResumesIt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs processes")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tradedesk")
	if out, err := osexec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	url := startSimProcess(t, bin, "--fund", roAddr)
	rt, err := os.MkdirTemp("", "gd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(rt) })
	env := append(os.Environ(), "HOME="+dir, "XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_RUNTIME_DIR="+rt,
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"), api.EnvPrivateKey+"=0x"+roKeyHex)
	command := func(args ...string) *osexec.Cmd {
		cmd := osexec.Command(bin, args...)
		cmd.Env = env
		return cmd
	}
	var st guard.Status
	status := func() bool {
		out, err := command("guard", "status", "--json").Output()
		return err == nil && json.Unmarshal(out, &st) == nil
	}
	startGuard := func(args ...string) *osexec.Cmd {
		g := command(append([]string{"guard", "--url", url, "--allow-account-key"}, args...)...)
		if err := g.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = g.Process.Kill(); _, _ = g.Process.Wait() })
		waitFor(t, "the guard answers", status)
		return g
	}
	g := startGuard()
	out, err := command("chase", "--url", url, "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--guard", "--json").Output()
	var handed struct{ ID string }
	if err != nil || json.Unmarshal(out, &handed) != nil || handed.ID == "" {
		t.Fatalf("chase --guard: %v %s", err, out)
	}
	waitFor(t, "the guard's chase rests its order", func() bool {
		return status() && len(st.Algorithms) == 1 && st.Algorithms[0].Working != "" && st.Algorithms[0].State == "running"
	})
	time.Sleep(2 * time.Second) // let it step (and reprice, if the market moves) in the guard
	if err := g.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_, _ = g.Process.Wait()
	socks, _ := filepath.Glob(filepath.Join(rt, "tradedesk", "guard-*.sock"))
	if len(socks) != 1 {
		t.Fatalf("the killed guard's socket file: %v", socks)
	}
	if out, err := command("guard", "--url", url, "--allow-account-key").CombinedOutput(); err == nil || !strings.Contains(string(out), "chase "+handed.ID) {
		t.Fatalf("a guard without --on-restart after the kill: %v %s", err, out)
	}
	g = startGuard("--on-restart", "resume")
	waitFor(t, "the chase resumed in the new guard", func() bool {
		return status() && len(st.Algorithms) == 1 && st.Algorithms[0].ID == handed.ID && st.Algorithms[0].State == "running" && st.Algorithms[0].Working != ""
	})
	time.Sleep(2 * time.Second)
	open := 0
	for cloid, n := range cloidsAtExchange(t, bin, url, env) {
		if n != 1 {
			t.Errorf("%s is at the exchange %d times", cloid, n)
		}
	}
	var orders []api.OrderRecord
	decodeCommand(t, bin, env, &orders, "orders", "--url", url, "--json")
	for _, o := range orders {
		if strings.HasPrefix(o.Cloid, handed.ID+"-") {
			open++
		}
	}
	status()
	if a := st.Algorithms[0]; (a.State == "running" && open != 1) || (a.State != "running" && !(a.State == "done" && a.Filled.Equal(a.Target))) {
		t.Fatalf("after the restart: %d of the chase's orders open (want 1 while it runs), the chase %+v", open, a)
	}
	t.Logf("after the restart: %d open, chase %s filled %s of %s, %d children, %d reprices", open, st.Algorithms[0].State, st.Algorithms[0].Filled, st.Algorithms[0].Target, st.Algorithms[0].Children, st.Algorithms[0].Reprices)
	if out, err := command("guard", "stop").CombinedOutput(); err != nil {
		t.Fatalf("guard stop: %v %s", err, out)
	}
	if err := g.Wait(); err != nil {
		t.Fatalf("the guard's exit: %v", err)
	}
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
