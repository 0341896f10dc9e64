package ui

import (
	"testing"
	"time"
)

// TestRecoversWithinTwoPollIntervals: after an outage long enough for every backoff to grow past
// a second, the console is fresh again within two ticker intervals of the exchange coming back
// (plus the requests' own time), not when the longest backoff runs out.
func TestRecoversWithinTwoPollIntervals(t *testing.T) {
	m, _, gate, _ := soakConsole(t, 0)
	m.iv.Tickers = 150 * time.Millisecond
	m.iv.MaxBackoff = 30 * time.Second
	d := newDriver(t, m)
	d.run(m.Init())
	if !d.until(5*time.Second, func() bool { return staleKinds(m) == "" }) {
		t.Fatalf("not fresh at the start: %s", staleKinds(m))
	}
	gate.set(gateDown)
	d.until(3*time.Second, func() bool { return false })
	if staleKinds(m) == "" {
		t.Fatal("nothing is stale after 3 s of outage")
	}
	gate.set(gateClean)
	back := time.Now()
	limit := 2*m.iv.Tickers + 500*time.Millisecond
	ok := d.until(limit, func() bool { return staleKinds(m) == "" })
	took := time.Since(back)
	if !ok {
		d.until(40*time.Second, func() bool { return staleKinds(m) == "" })
		t.Fatalf("still stale %s after the exchange came back (fresh after %s): want within two ticker intervals (%s) and the requests' time", limit, time.Since(back).Round(time.Millisecond), 2*m.iv.Tickers)
	}
	t.Logf("fresh %s after the exchange came back", took.Round(time.Millisecond))
}
