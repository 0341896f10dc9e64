package report

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/state/journal"
)

// TestLatencyLegsAndPercentiles (issue #41): an order's four legs are the gaps between its
// stamps and add up to its whole; a route missing a stamp is left out; p50, p95 and p99 are the
// nearest ranks (of 100 routes: the 50th, 95th and 99th slowest). Guards: a leg measured from
// the wrong stamp, an incomplete route counted as zero, an interpolated or off-by-one rank.
func TestLatencyLegsAndPercentiles(t *testing.T) {
	t0 := time.Unix(1_780_000_000, 0)
	var routes []journal.Route
	for i := 1; i <= 100; i++ {
		ms := time.Duration(i) * time.Millisecond
		routes = append(routes, journal.Route{ID: "c", Keystroke: t0, Signed: t0.Add(ms), Answered: t0.Add(3 * ms),
			Streamed: t0.Add(3*ms + 500*time.Microsecond), Shown: t0.Add(4 * ms)})
	}
	routes = append(routes, journal.Route{ID: "half", Keystroke: t0, Signed: t0.Add(time.Hour)})
	legs, whole, ok := RouteLegs(routes[9]) // 10 ms
	if !ok || legs[LegSign] != 10*time.Millisecond || legs[LegAnswer] != 20*time.Millisecond ||
		legs[LegStream] != 500*time.Microsecond || legs[LegScreen] != 9500*time.Microsecond || whole != 40*time.Millisecond {
		t.Fatalf("legs %v whole %v", legs, whole)
	}
	if sum := legs[0] + legs[1] + legs[2] + legs[3]; sum != whole {
		t.Fatalf("legs add up to %v, whole %v", sum, whole)
	}
	l := LatencyOf(routes)
	if l.Whole.N != 100 || l.Legs[LegSign] != (Spread{N: 100, P50: 50 * time.Millisecond, P95: 95 * time.Millisecond, P99: 99 * time.Millisecond}) {
		t.Fatalf("sign leg %+v, whole %+v", l.Legs[LegSign], l.Whole)
	}
	if l.Whole.P95 != 380*time.Millisecond || l.Legs[LegStream].P99 != 500*time.Microsecond {
		t.Fatalf("whole %+v stream %+v", l.Whole, l.Legs[LegStream])
	}
	if s := SpreadOf([]time.Duration{7}); s.P50 != 7 || s.P99 != 7 {
		t.Fatalf("one: %+v", s)
	}
}
