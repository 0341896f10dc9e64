package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// TestRecoversWithinTwoPollIntervals: after an outage long enough for every backoff to grow past
// a second, the console is fresh again within two ticker intervals of the exchange coming back
// (plus the requests' own time), not when the longest backoff runs out. The two halves are
// checked apart, neither on the machine's speed: the tickers poll never waits more than two
// intervals while failing (TestHeartbeatWait), and the first poll that succeeds sends every
// failing kind and pane request at once, each of which then succeeds.
func TestRecoversWithinTwoPollIntervals(t *testing.T) {
	m, _, gate, _ := soakConsole(t, 0)
	m.iv.Tickers = 150 * time.Millisecond
	m.iv.MaxBackoff = 30 * time.Second
	d := newDriver(t, m)
	d.run(m.Init())
	if !d.until(30*time.Second, func() bool { return staleKinds(m) == "" }) {
		t.Fatalf("not fresh at the start: %s", staleKinds(m))
	}
	gate.set(gateDown)
	d.until(3*time.Second, func() bool { return false })
	if staleKinds(m) == "" {
		t.Fatal("nothing is stale after 3 s of outage")
	}
	// The exchange comes back while no request is on its way, so every answer from now on is a
	// good one (one sent before would fail and back off, a case this test is not about).
	if !d.drain(30 * time.Second) {
		t.Fatal("the console's requests did not return while the exchange was down")
	}
	gate.set(gateClean)
	back := time.Now()

	var first *polledMsg // the first successful poll after the outage
	failing := false
	var notPolled []string
	d.before = func(msg tea.Msg) {
		if p, ok := msg.(polledMsg); ok && first == nil && p.err == nil && p.gen == m.polls[p.kind].gen {
			failing = m.polls[p.kind].fails > 0
		}
	}
	d.after = func(msg tea.Msg) {
		p, ok := msg.(polledMsg)
		if !ok || first != nil || p.err != nil || p.gen != m.polls[p.kind].gen {
			return
		}
		first = &p
		if !failing {
			t.Errorf("the first good %s poll after the outage found it not failing", p.kind)
		}
		notPolled = notRecovering(m)
	}
	if !d.until(30*time.Second, func() bool { return staleKinds(m) == "" }) {
		t.Fatalf("still stale 30 s after the exchange came back: %s", staleKinds(m))
	}
	switch {
	case first == nil:
		t.Fatal("fresh again without a good poll")
	case len(notPolled) > 0:
		t.Errorf("the first good poll after the outage (%s) left failing, waiting for their backoff: %s",
			first.kind, strings.Join(notPolled, ", "))
	}
	t.Logf("fresh %s after the exchange came back (first good poll: %s)", time.Since(back).Round(time.Millisecond), first.kind)
}

// notRecovering lists the polled kinds and pane requests that failed last and have no request
// out: they would wait for their backoff.
func notRecovering(m *Model) []string {
	var out []string
	for _, k := range m.kinds {
		if p := m.polls[k]; p.fails > 0 && !p.inFlight {
			out = append(out, fmt.Sprintf("%s (%d failures)", k, p.fails))
		}
	}
	for _, f := range allFetchers(m) {
		if f.started && f.fails > 0 && !f.inFlight {
			out = append(out, fmt.Sprintf("pane %s (%d failures)", f.kind, f.fails))
		}
	}
	return out
}

// TestHeartbeatWait: while failing, the tickers poll waits at most two of its intervals (longer
// only when the server asks with Retry-After); every other kind keeps its backoff.
func TestHeartbeatWait(t *testing.T) {
	m := &Model{iv: Intervals{Tickers: 150 * time.Millisecond}}
	boom := errors.New("connection refused")
	busy := &api.Error{Kind: api.KindHTTP, Status: 429, RetryAfter: 5 * time.Second}
	for _, tc := range []struct {
		kind       state.Kind
		wait, want time.Duration
		err        error
	}{
		{state.KindTickers, 100 * time.Millisecond, 100 * time.Millisecond, boom},
		{state.KindTickers, 30 * time.Second, 300 * time.Millisecond, boom},
		{state.KindTickers, 30 * time.Second, 30 * time.Second, busy},
		{state.KindAccount, 30 * time.Second, 30 * time.Second, boom},
		{state.KindOrders, 2 * time.Second, 2 * time.Second, boom},
	} {
		if got := m.heartbeatWait(tc.kind, tc.wait, tc.err); got != tc.want {
			t.Errorf("%s after %v (%v): wait %v, want %v", tc.kind, tc.wait, tc.err, got, tc.want)
		}
	}
}
