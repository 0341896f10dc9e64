package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state/feed"
)

// TestRecoversWithinTwoPollIntervals: after an outage long enough for every backoff to grow past
// a second, the console is fresh again within two ticker intervals of the exchange coming back,
// not when the longest backoff runs out. Time is the console's stepped clock, which stands still
// while the exchange answers, so the bound is exact and does not hang on the machine's speed: the
// tickers poll waits at most two intervals while failing, and its first success sends every
// failing kind and pane request at once.
func TestRecoversWithinTwoPollIntervals(t *testing.T) {
	t.Parallel()
	// The client's retries of a failed read wait on wall time, which the stepped clock does not
	// see: at 1-4 ms, not the soak's 10-40 ms, the outage's polls take a fifth of the time.
	retry := soakRetry
	retry.BaseDelay, retry.MaxDelay = time.Millisecond, 4*time.Millisecond
	m, _, gate, _, timers := soakConsoleRetrying(t, 0, retry)
	iv := soakIntervals
	iv.Tickers, iv.MaxBackoff = 150*time.Millisecond, 30*time.Second
	m.setIntervals(iv)
	d := newDriver(t, m, timers)
	d.run(m.Init())
	if !d.until(30*time.Second, func() bool { return staleKinds(m) == "" }) {
		t.Fatalf("not fresh at the start: %s", staleKinds(m))
	}
	gate.set(gateDown)
	outage := timers.Now()
	d.until(30*time.Second, func() bool { return timers.Now().Sub(outage) >= 10*time.Second })
	if staleKinds(m) == "" {
		t.Fatal("nothing is stale after 10 s of outage")
	}
	if c := m.feed.Conn(); c.State != feed.Retrying {
		t.Fatalf("the connection reads %+v during the outage", c)
	}
	// The exchange comes back while no request is on its way (the driver steps the clock only
	// then), so every answer from now on is a good one.
	if !d.drain(30 * time.Second) {
		t.Fatal("the console's requests did not return while the exchange was down")
	}
	gate.set(gateClean)
	back := timers.Now()

	var first *feed.DoneMsg // the first successful poll after the outage of a task that was failing
	var notPolled []string
	wasFailing := false
	// A task that reaches no exchange (its reply handled only now: the drain left it queued) is
	// no sign the exchange came back; the feed recovers the others on a failing task's success.
	d.before = func(msg tea.Msg) {
		p, ok := msg.(feed.DoneMsg)
		wasFailing = ok && p.Task().Fails() > 0
	}
	d.after = func(msg tea.Msg) {
		p, ok := msg.(feed.DoneMsg)
		if !ok || !wasFailing || first != nil || p.Err != nil || !p.Current() {
			return
		}
		first = &p
		notPolled = notRecovering(m)
	}
	if !d.until(30*time.Second, func() bool { return staleKinds(m) == "" }) {
		t.Fatalf("still stale 30 s after the exchange came back: %s", staleKinds(m))
	}
	took := timers.Now().Sub(back)
	switch {
	case first == nil:
		t.Fatal("fresh again without a good poll")
	case len(notPolled) > 0:
		t.Errorf("the first good poll after the outage (%s) left failing, waiting for their backoff: %s",
			first.Kind(), strings.Join(notPolled, ", "))
	case took > 2*iv.Tickers:
		t.Errorf("fresh %s after the exchange came back, more than two ticker intervals (%s)", took, 2*iv.Tickers)
	}
	t.Logf("fresh %s after the exchange came back (first good poll: %s)", took, first.Kind())
}

// notRecovering lists the started polls and pane requests that failed last and have no request
// out: they would wait for their backoff.
func notRecovering(m *Model) []string {
	var out []string
	for _, task := range m.feed.Tasks() {
		if task.Started() && task.Fails() > 0 && !task.InFlight() {
			out = append(out, fmt.Sprintf("%s (%d failures)", task.Kind(), task.Fails()))
		}
	}
	return out
}
