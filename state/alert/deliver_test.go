package alert

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// hostileEvent fires a cancel alert on an order whose instrument name carries escapes.
func hostileEvent(t *testing.T) Event {
	t.Helper()
	e := New()
	e.Set([]Rule{mustParse(t, "cancel")})
	m := state.OrderUpdateMsg{At: t0, Record: api.OrderRecord{OrderID: 9, Instrument: "ETH\x1b]52;c;cGF5bG9hZA==\x07-PERP",
		State: api.StateCancelled, Size: decimal.NewFromInt(2), LimitPrice: decimal.NewFromInt(3000)}}
	evs := e.Check(t0, state.New(nil), Link{ExchangeUp: true}, m)
	if len(evs) != 1 {
		t.Fatalf("%+v", evs)
	}
	return evs[0]
}

func checkPayload(t *testing.T, raw []byte) {
	t.Helper()
	var got map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(raw), &got); err != nil {
		t.Fatalf("not JSON: %q: %v", raw, err)
	}
	for _, k := range []string{"id", "kind", "instrument", "value", "threshold", "time"} {
		if _, ok := got[k]; !ok {
			t.Errorf("payload %s has no %s", raw, k)
		}
	}
	for _, k := range []string{"instrument", "text", "rule"} {
		if v, _ := got[k].(string); strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }) {
			t.Errorf("payload's %s carries a control character: %q", k, v)
		}
	}
}

// TestOnAlertGetsTheAlertAsJSON (issue #37): the command runs with its arguments as given (no
// shell) and reads the alert as JSON on stdin: id, kind, instrument (cleaned), value, threshold,
// time.
func TestOnAlertGetsTheAlertAsJSON(t *testing.T) {
	tee, err := exec.LookPath("tee")
	if err != nil {
		t.Skip("no tee here")
	}
	out := filepath.Join(t.TempDir(), "alert; rm -rf x.json") // a shell would split this
	d := &Delivery{Command: []string{tee, out}}
	if errs := d.Send(context.Background(), []Event{hostileEvent(t)}); len(errs) > 0 {
		t.Fatal(errs)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	checkPayload(t, raw)
	if err := CheckCommand([]string{"notify-send"}); err == nil {
		t.Error("a bare program name was accepted")
	}
}

// TestTheWebhookIsRetriedWithBackoff: a webhook failing twice gets the same JSON a third time,
// after waits of 1s and 2s.
func TestTheWebhookIsRetriedWithBackoff(t *testing.T) {
	var mu sync.Mutex
	var bodies [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		bodies = append(bodies, b)
		if len(bodies) < 3 {
			w.WriteHeader(http.StatusBadGateway)
		}
	}))
	defer srv.Close()
	var waits []time.Duration
	d := &Delivery{Webhook: srv.URL, Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }}
	if errs := d.Send(context.Background(), []Event{hostileEvent(t)}); len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(bodies) != 3 || len(waits) != 2 || waits[0] != time.Second || waits[1] != 2*time.Second {
		t.Fatalf("%d posts, waits %v", len(bodies), waits)
	}
	checkPayload(t, bodies[2])
}

func TestTheDesktopEscapeIsClean(t *testing.T) {
	var b bytes.Buffer
	env := map[string]string{"TERM_PROGRAM": "WezTerm"}
	d := NewDesktop(func(k string) string { return env[k] }, &b)
	if d == nil || d.Escape != "9" {
		t.Fatalf("%+v", d)
	}
	if err := d.Notify(context.Background(), "2 alerts: BTC\x1b[2J\x07 > 1"); err != nil {
		t.Fatal(err)
	}
	if s := b.String(); strings.Count(s, "\x1b") != 1 || strings.Count(s, "\x07") != 1 || !strings.HasPrefix(s, "\x1b]9;2 alerts") {
		t.Fatalf("%q", s)
	}
}

// TestAHostileNameReachesNoArgumentAndNoKey (issue #37): the desktop program (run without a
// shell, the text its last argument) gets the alert's text with no control character, and a
// key-shaped name from the server reaches neither its arguments nor the JSON on_alert reads.
func TestAHostileNameReachesNoArgumentAndNoKey(t *testing.T) {
	dir := t.TempDir()
	args := filepath.Join(dir, "args")
	prog := filepath.Join(dir, "notify")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" > "+args+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	key := "0x" + strings.Repeat("ab", 32)
	e := New()
	e.Set([]Rule{mustParse(t, "cancel")})
	m := state.OrderUpdateMsg{At: t0, Record: api.OrderRecord{OrderID: 9, Instrument: "ETH\x1b]52;c;cGF5bG9hZA==\x07" + key + "\x1b[2J",
		State: api.StateCancelled, Size: decimal.NewFromInt(2), LimitPrice: decimal.NewFromInt(3000)}}
	evs := e.Check(t0, state.New(nil), Link{ExchangeUp: true}, m)
	if len(evs) != 1 {
		t.Fatalf("%+v", evs)
	}
	stdin := filepath.Join(dir, "stdin")
	tee, err := exec.LookPath("tee")
	if err != nil {
		t.Skip("no tee here")
	}
	d := &Delivery{Desktop: &Desktop{Prog: []string{prog, "--title"}}, Command: []string{tee, stdin}}
	if errs := d.Send(context.Background(), evs); len(errs) > 0 {
		t.Fatal(errs)
	}
	got, err := os.ReadFile(args)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), "--title\nETH") || strings.ContainsAny(string(got), "\x1b\x07") || strings.Contains(string(got), strings.Repeat("ab", 32)) {
		t.Fatalf("the program's arguments: %q", got)
	}
	raw, err := os.ReadFile(stdin)
	if err != nil {
		t.Fatal(err)
	}
	checkPayload(t, raw)
	if strings.Contains(string(raw), strings.Repeat("ab", 32)) {
		t.Fatalf("a key in the payload: %s", raw)
	}
}

// TestTheDesktopWayFollowsTheTerminal (issue #37): OSC 777 in foot, rxvt and VTE terminals (a ';'
// in the text cannot end its field early); inside tmux, or with no terminal to write to, no escape
// (a program when one is present, else none).
func TestTheDesktopWayFollowsTheTerminal(t *testing.T) {
	var b bytes.Buffer
	env := map[string]string{"TERM": "foot"}
	getenv := func(k string) string { return env[k] }
	d := NewDesktop(getenv, &b)
	if d == nil || d.Escape != "777" {
		t.Fatalf("foot: %+v", d)
	}
	if err := d.Notify(context.Background(), "BTC; 1"); err != nil || b.String() != "\x1b]777;notify;tradedesk;BTC, 1\x07" {
		t.Fatalf("%q %v", b.String(), err)
	}
	env = map[string]string{"TERM_PROGRAM": "WezTerm", "TMUX": "/tmp/tmux-1/default,1,0"}
	if d := NewDesktop(getenv, &b); d != nil && d.Escape != "" {
		t.Fatalf("inside tmux: %+v", d)
	}
	env = map[string]string{"TERM_PROGRAM": "WezTerm"}
	if d := NewDesktop(getenv, nil); d != nil && d.Escape != "" {
		t.Fatalf("no terminal: %+v", d)
	}
}
