package main

import (
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAKilledHeadlessChaseIsResumedNotDuplicated: a real `tradedesk chase` process, its order
// resting at a simulator process, is killed with SIGKILL. The next algorithm command refuses
// without --on-restart, naming the chase with what it did (filled 0 of 0.002, its working order);
// `tradedesk algos --on-restart resume` adopts that order (nothing placed twice: every client id at
// the exchange once, one of the chase's orders open), and Ctrl+C (SIGINT) then stops it, its order
// cancelled and the journal saying stopped: nothing orphaned.
func TestAKilledHeadlessChaseIsResumedNotDuplicated(t *testing.T) {
	if !processTest(t) {
		return
	}
	p := newGuardProcs(t)
	chase := []string{"chase", "--url", p.url, "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.002", "--offset", "200t"}
	c := p.command(append(chase, "--json")...)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the chase rests its order", func() bool { return p.openOf("") == 1 })
	if err := c.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_, _ = c.Process.Wait()
	var list []struct{ ID, State string }
	decodeCommand(t, p.bin, p.env, &list, "algos", "--url", p.url, "--json")
	if len(list) != 1 || list[0].State != "running" {
		t.Fatalf("after the kill the journal lists %+v", list)
	}
	id := list[0].ID
	if out, err := p.command(chase...).CombinedOutput(); err == nil || !strings.Contains(string(out), "chase "+id+" (buy filled 0 of 0.002, working 0.002 at") {
		t.Fatalf("a chase beside the killed one: %v %s", err, out)
	}
	r := p.command("algos", "--url", p.url, "--on-restart", "resume")
	if err := r.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Process.Kill() })
	time.Sleep(3 * time.Second) // let the resumed chase step (and reprice, if the market moves)
	for cloid, n := range cloidsAtExchange(t, p.bin, p.url, p.env) {
		if n != 1 {
			t.Errorf("%s is at the exchange %d times", cloid, n)
		}
	}
	// A reprice is a cancel then a place, none open between, and on a loaded machine the resumed
	// chase may not have adopted its order 3 s on (a -race run of the package beside a go test
	// ./ui/... read 0 here): read until one is open, as TestGuardKilledMidChaseResumesIt does.
	waitFor(t, "the resumed chase with one order open", func() bool { return p.openOf(id) == 1 })
	if err := r.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	_ = r.Wait() // stopped short of its size: exit 6 (partial)
	decodeCommand(t, p.bin, p.env, &list, "algos", "--url", p.url, "--json")
	if n := p.openOf(id); n != 0 || list[0].State != "stopped" {
		t.Fatalf("after Ctrl+C: %d open, %+v", n, list)
	}
	raw, _ := json.Marshal(list)
	t.Logf("%s", raw)
}
