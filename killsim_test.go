package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/journal"
)

// TestKilledOrdersAgainstALossySimulatorProcess is #32's kill test for real: the program's
// `tradedesk sim --faults lost=0.3` (its reads lost too) in one process, `tradedesk order` in others, each killed
// (SIGKILL) as soon as its intent is committed as sent. The next `tradedesk order` settles every
// intent left open by its client id before it sends; no order is at the exchange twice, each
// intent has a settled outcome in the journal, and that outcome agrees with the exchange (one
// killed before its request left is "not placed" and at the exchange no time).
func TestKilledOrdersAgainstALossySimulatorProcess(t *testing.T) {
	if !processTest(t) {
		return
	}
	dir := t.TempDir()
	bin := programBin(t)
	url := startSimProcess(t, bin, "--fund", roAddr, "--faults", "lost=0.3")
	env := append(os.Environ(), "HOME="+dir, "XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"), api.EnvPrivateKey+"=0x"+roKeyHex, programEnv)
	order := func(cloid string) *osexec.Cmd {
		// IOC far under the market: nothing fills and nothing rests, so a second copy would not be
		// refused as a duplicate open client id: only the journal keeps it to one. --yes passes
		// the guard's distance check. A 2 s --expiry-window: an order killed before its request
		// left is settled "not placed" once its expiry has passed, 2 s on, not the default 60 s.
		cmd := osexec.Command(bin, "order", "--url", url, "--instrument", "BTC-PERP", "--side", "buy",
			"--size", "0.001", "--price", "50000", "--tif", "IOC", "--cloid", cloid, "--yes", "--expiry-window", "2s")
		cmd.Env = env
		return cmd
	}
	var open []string
	jw := &journalWatch{t: t, stateDir: filepath.Join(dir, "state")}
	for i := 0; i < 8 && len(open) < 2; i++ {
		cloid := fmt.Sprintf("killed-%d", i)
		if killedWhileOpen(t, order(cloid), jw, cloid) {
			open = append(open, cloid)
		}
	}
	if len(open) == 0 {
		t.Fatal("no order was killed between its commit and its outcome: the test proves nothing")
	}
	retried(t, "the next order", func() ([]byte, error) { return order("after-kills").CombinedOutput() })
	at := cloidsAtExchange(t, bin, url, env)
	es := journalEntries(t, bin, url, env)
	outcomes := map[string]int{}
	for _, e := range es {
		outcomes[e.Outcome]++
		if !e.Settled {
			t.Errorf("%s left unsettled: %s %s", e.ID, e.Outcome, e.Detail)
		}
		// Killed after the journal said sent but before its request left (a loaded machine widens
		// that window), an order is rightly at the exchange no time: the journal must then say
		// so. Exactly once is: never twice, and the journal agrees with the exchange.
		switch notPlaced := e.Outcome == "not placed"; {
		case at[e.ID] > 1:
			t.Errorf("%s is at the exchange %d times", e.ID, at[e.ID])
		case at[e.ID] == 0 && !notPlaced, at[e.ID] == 1 && notPlaced:
			t.Errorf("%s is at the exchange %d times but the journal says %s: %s", e.ID, at[e.ID], e.Outcome, e.Detail)
		}
	}
	t.Logf("%d of %d intents killed while open (%v); %d journal entries, all settled: %v", len(open), len(es)-1, open, len(es), outcomes)
}

// startSimProcess runs `tradedesk sim` on a free loopback port until the test ends and returns
// its URL once it answers.
func startSimProcess(t *testing.T, bin string, args ...string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	sim := osexec.Command(bin, append([]string{"sim", "--listen", addr}, args...)...)
	sim.Env = append(os.Environ(), programEnv)
	var errb bytes.Buffer
	sim.Stderr = &errb
	if err := sim.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Process.Kill(); _ = sim.Wait() })
	for range 400 {
		if c, err := net.Dial("tcp", addr); err == nil {
			_ = c.Close()
			return "http://" + addr + "/"
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("the simulator did not listen on %s: %s", addr, errb.String())
	return ""
}

// killedWhileOpen starts cmd, kills it once the journal jw reads holds cloid as sent, and
// reports whether its outcome was still unknown then.
func killedWhileOpen(t *testing.T, cmd *osexec.Cmd, jw *journalWatch, cloid string) bool {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	// The command first settles the intents killed before it, which can wait out their expiry
	// window: the deadline only stops a hang, it is no bound on how long that takes.
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); {
		select {
		case <-exited:
			return false // a read lost three times stopped it before it signed: nothing to kill
		default:
		}
		if en, ok := jw.entry(cloid); ok && en.State == journal.StateSent {
			_ = cmd.Process.Kill()
			<-exited
			en, _ = jw.entry(cloid)
			return en.Outcome == nil
		}
		time.Sleep(2 * time.Millisecond)
	}
	_ = cmd.Process.Kill()
	t.Fatalf("%s never reached the journal as sent", cloid)
	return false
}

// journalWatch reads entries of the one journal file under stateDir, opened once when it is
// there and kept until the test ends: an Open every 2 ms poll ran the schema (a write) against
// the order process's own writes each time, most of this test process's CPU under -race.
type journalWatch struct {
	t        *testing.T
	stateDir string
	j        *journal.Journal
}

// entry is cloid's entry, if the journal file and the entry are there yet.
func (w *journalWatch) entry(cloid string) (journal.Entry, bool) {
	w.t.Helper()
	if w.j == nil {
		files, _ := filepath.Glob(filepath.Join(w.stateDir, "tradedesk", "journal", "*.db"))
		if len(files) != 1 {
			return journal.Entry{}, false
		}
		j, err := journal.Open(files[0])
		if err != nil {
			w.t.Fatal(err)
		}
		w.j = j
		w.t.Cleanup(func() { _ = j.Close() })
	}
	en, ok, err := w.j.Get(context.Background(), cloid)
	if err != nil {
		w.t.Fatal(err)
	}
	return en, ok
}

// killJournal is one line of `tradedesk journal --json`.
type killJournal struct {
	ID      string `json:"id"`
	Outcome string `json:"outcome"`
	Settled bool   `json:"settled"`
	Detail  string `json:"detail"`
}

// journalEntries is `tradedesk journal --json`.
func journalEntries(t *testing.T, bin, url string, env []string) []killJournal {
	t.Helper()
	var es []killJournal
	decodeCommand(t, bin, env, &es, "journal", "--url", url, "--limit", "100", "--json")
	return es
}

// cloidsAtExchange counts each client id in the account's order history.
func cloidsAtExchange(t *testing.T, bin, url string, env []string) map[string]int {
	t.Helper()
	var hist api.Page[api.OrderRecord]
	decodeCommand(t, bin, env, &hist, "history", "--url", url, "--limit", "1000", "--json")
	at := map[string]int{}
	for _, o := range hist.Data {
		at[o.Cloid]++
	}
	return at
}

// decodeCommand runs a read command of the binary and decodes its JSON into v.
func decodeCommand(t *testing.T, bin string, env []string, v any, args ...string) {
	t.Helper()
	out := retried(t, strings.Join(args, " "), func() ([]byte, error) {
		cmd := osexec.Command(bin, args...)
		cmd.Env = env
		return cmd.Output()
	})
	if err := json.Unmarshal(out, v); err != nil {
		t.Fatalf("%s: %v\n%s", args[0], err, out)
	}
}

// retried runs a command of the binary until it succeeds, at most five times: with the
// simulator losing answers, a read can fail three times in a row and stop a command before it
// does anything (exit 5); a command that fails otherwise fails the test.
func retried(t *testing.T, what string, run func() ([]byte, error)) []byte {
	t.Helper()
	var out []byte
	var err error
	for range 5 {
		if out, err = run(); err == nil {
			return out
		}
		var ee *osexec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 5 {
			break
		}
	}
	t.Fatalf("%s: %v\n%s", what, err, out)
	return nil
}
