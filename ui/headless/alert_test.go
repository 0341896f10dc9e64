package headless

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/state/alert"
	"github.com/tradedesk/tradedesk/state/journal"
)

// TestAlertAddListRemove: definitions go into the journal of the network and account, an alert
// added twice is one (its id is its definition), a bad rule says what to write.
func TestAlertAddListRemove(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	out := h.ok("alert", "add", "btc", ">", "100,000")
	if !strings.Contains(out, "added: BTC mark > 100000") {
		t.Fatalf("%q", out)
	}
	if out := h.ok("alert", "add", "btc > 100000"); !strings.Contains(out, "already there") {
		t.Fatalf("%q", out)
	}
	h.ok("alert", "add", "eth liq < 5%")
	var list []alertJSON
	if err := json.Unmarshal([]byte(h.ok("alert", "list", "--json")), &list); err != nil || len(list) != 2 || list[1].Rule != "ETH liq < 5%" {
		t.Fatalf("%+v %v", list, err)
	}
	h.ok("alert", "rm", list[0].ID)
	if code, _, errs := h.run("alert", "rm", list[0].ID); code == 0 || !strings.Contains(errs, "alert list shows the ids") {
		t.Fatalf("removed twice: %d %q", code, errs)
	}
	if code, _, errs := h.run("alert", "add", "eth", "liq", ">", "5%"); code != ExitUsage || !strings.Contains(errs, "eth liq < 5%") {
		t.Fatalf("bad rule: %d %q", code, errs)
	}
}

// TestAlertsWatchFiresOncePerFill (issue #37): `alerts watch --json` against the simulator writes
// one NDJSON line per fill of the account, each a valid alert (id, kind, instrument, value,
// threshold, time), and stops after --count.
func TestAlertsWatchFiresOncePerFill(t *testing.T) {
	t.Parallel() // owns its simulator; waits on the wall clock while the others run
	h := newHarness(t)
	h.ok("alert", "add", "btc fills")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan struct{})
	var code int
	var out, errs string
	go func() {
		defer close(done)
		code, out, errs = h.runCtx(ctx, "alerts", "watch", "--json", "--every", "200ms", "--count", "2")
	}()
	fills := 0
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-time.After(700 * time.Millisecond):
			h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
			fills++
		}
	}
	if code != 0 || strings.Contains(errs, "no stream") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var evs []alert.Event
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var ev alert.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || ev.ID == "" || ev.Kind != alert.KindOrder ||
			ev.Instrument != "BTC-PERP" || ev.Value == "0" || ev.Time.IsZero() {
			t.Fatalf("line %q: %+v %v", sc.Text(), ev, err)
		}
		evs = append(evs, ev)
	}
	if len(evs) != 2 || len(evs) > fills {
		t.Fatalf("%d alerts for %d orders: %q", len(evs), fills, out)
	}
}

// TestAlertsWatchRunsOnAlert: the config's [[alert]] rules are seeded and its on_alert program
// (an argument list, no shell) gets each alert as a line of JSON on stdin.
func TestAlertsWatchRunsOnAlert(t *testing.T) {
	t.Parallel() // owns its simulator; waits on the wall clock while the others run
	tee, err := osexec.LookPath("tee")
	if err != nil {
		t.Skip("no tee here")
	}
	h := newHarness(t)
	h.stateDir = t.TempDir()
	out := filepath.Join(t.TempDir(), "alerts.json")
	rule, _ := alert.Parse("btc fills")
	conn := Connection{URL: h.srv.URL, Alerting: &Alerting{Rules: []alert.Rule{rule}, Command: []string{tee, "-a", out}}}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan int)
	go func() {
		var o, e lockedBuffer
		done <- Run(ctx, []string{"alerts", "watch", "--json", "--every", "200ms", "--count", "1"}, Env{Stdout: &o, Stderr: &e,
			Getenv: func(k string) string { return h.env[k] }, Defaults: conn, StateDir: h.stateDir})
	}()
	for code := -1; code < 0; {
		select {
		case code = <-done:
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
		case <-time.After(700 * time.Millisecond):
			h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
		}
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var ev map[string]any
	line, _, _ := strings.Cut(string(raw), "\n")
	if err := json.Unmarshal([]byte(line), &ev); err != nil || ev["id"] != rule.ID || ev["kind"] != "order" || ev["instrument"] != "BTC-PERP" {
		t.Fatalf("on_alert read %q: %v", raw, err)
	}
	for _, k := range []string{"value", "threshold", "time"} {
		if _, ok := ev[k]; !ok {
			t.Errorf("no %s in %q", k, line)
		}
	}
}

// TestAlertsWatchSeesACancelWithoutTheStream (issue #37): `alerts watch --no-stream` (polls only)
// fires `btc cancel` for an order cancelled on the simulator, read off the polled order history.
func TestAlertsWatchSeesACancelWithoutTheStream(t *testing.T) {
	t.Parallel() // owns its simulator; waits on the wall clock while the others run
	h := newHarness(t)
	h.ok("alert", "add", "btc cancel")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan struct{})
	var code int
	var out, errs string
	go func() {
		defer close(done)
		code, out, errs = h.runCtx(ctx, "alerts", "watch", "--json", "--no-stream", "--every", "200ms", "--count", "1")
	}()
	for n := 0; ; n++ {
		select {
		case <-done:
		case <-time.After(700 * time.Millisecond):
			cloid := fmt.Sprintf("alert-cancel-%d", n)
			h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", h.restingBid(), "--cloid", cloid)
			h.ok("cancel", "--instrument", "BTC-PERP", "--cloid", cloid)
			continue
		}
		break
	}
	var ev alert.Event
	if err := json.Unmarshal([]byte(out), &ev); code != 0 || err != nil || ev.Kind != alert.KindOrder || ev.Rule != "BTC cancel" ||
		ev.Instrument != "BTC-PERP" || !strings.Contains(ev.Text, "cancelled") {
		t.Fatalf("exit %d, stdout %q (%v), stderr %q", code, out, err, errs)
	}
}

// TestAlertsWatchNotifiesTheDesktop (issue #37): `alerts watch` delivers as the console does,
// the desktop included: with no terminal to write an escape to, notify-send (here a stand-in on
// PATH that records its arguments, run without a shell) gets the alert's text; --no-desktop
// sends none.
func TestAlertsWatchNotifiesTheDesktop(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("notify-send is the Linux way")
	}
	// It sets PATH, which a parallel test cannot: in a child process of its own it runs beside
	// the parallel tests instead of holding them back (inOwnDir).
	if !inOwnDir(t) {
		return
	}
	dir := t.TempDir()
	got := filepath.Join(dir, "notified")
	script := "#!/bin/sh\nprintf '%s|' \"$@\" >> " + got + "\necho >> " + got + "\n"
	if err := os.WriteFile(filepath.Join(dir, "notify-send"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	h := newHarness(t)
	h.ok("alert", "add", "btc fills")
	watch := func(args ...string) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		done := make(chan int)
		go func() {
			code, _, _ := h.runCtx(ctx, append([]string{"alerts", "watch", "--every", "200ms", "--count", "1"}, args...)...)
			done <- code
		}()
		for {
			select {
			case code := <-done:
				if code != 0 {
					t.Fatalf("%v: exit %d", args, code)
				}
				return
			case <-time.After(700 * time.Millisecond):
				h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
			}
		}
	}
	watch("--no-desktop")
	if _, err := os.Stat(got); !os.IsNotExist(err) {
		t.Fatalf("--no-desktop notified: %v", err)
	}
	watch()
	raw, err := os.ReadFile(got)
	if err != nil || !strings.HasPrefix(string(raw), "--app-name=tradedesk|tradedesk|BTC-PERP order filled: 0.01 @ ") {
		t.Fatalf("notify-send got %q (%v)", raw, err)
	}
}

// TestAlertsWatchExitCodes (issue #37): the exit statuses the README documents: 2 with no alert
// to watch or a wrong flag (saying what to do), 0 when interrupted, 1 when the journal holds a
// rule it cannot read (naming it for alert rm).
func TestAlertsWatchExitCodes(t *testing.T) {
	t.Parallel() // owns its simulator; waits on the wall clock while the others run
	h := newHarness(t)
	if code, _, errs := h.run("alerts", "watch"); code != ExitUsage || !strings.Contains(errs, "tradedesk alert add") {
		t.Fatalf("no alert: exit %d %q", code, errs)
	}
	h.ok("alert", "add", "btc > 10000000")
	if code, _, errs := h.run("alerts", "watch", "--every", "10ms"); code != ExitUsage || !strings.Contains(errs, "at least 200ms") {
		t.Fatalf("--every 10ms: exit %d %q", code, errs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(time.Second, cancel) // the interrupt (signal.NotifyContext cancels)
	if code, out, errs := h.runCtx(ctx, "alerts", "watch", "--every", "200ms"); code != ExitOK || out != "" {
		t.Fatalf("interrupted: exit %d %q %q", code, out, errs)
	}
	j, err := journal.Open(h.journalFile())
	if err != nil {
		t.Fatal(err)
	}
	_, err = j.PutAlert(context.Background(), journal.AlertDef{ID: "al-future", Rule: "btc sentiment > 3", Origin: alert.OriginUser})
	j.Close()
	if err != nil {
		t.Fatal(err)
	}
	if code, _, errs := h.run("alerts", "watch"); code != ExitRefused || !strings.Contains(errs, "tradedesk alert rm al-future") {
		t.Fatalf("an unreadable rule: exit %d %q", code, errs)
	}
}
