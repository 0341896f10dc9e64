package report

import (
	"sort"
	"time"

	"github.com/tradedesk/tradedesk/state/record"
)

// The legs of an order's route, in order: keystroke -> signed -> the exchange's answer -> the
// first streamed record of the order -> the first frame drawn after it.
const (
	LegSign   = iota // keystroke to signed: the checks, the journal's commit and the signing
	LegAnswer        // signed to the exchange's answer: the network and the matching
	LegStream        // the answer to the first streamed record (negative: the stream was first)
	LegScreen        // the streamed record to the frame that shows it
	Legs             // the number of legs
)

// LegNames names the legs for the :latency view and the report.
var LegNames = [Legs]string{"keystroke → signed", "signed → answer", "answer → stream", "stream → screen"}

// RouteLegs is one order's legs and its whole (keystroke to screen); ok is false unless every
// stamp was seen. The legs are differences of stamps on one clock, so they add up to the whole.
func RouteLegs(r record.Route) (legs [Legs]time.Duration, whole time.Duration, ok bool) {
	s := r.Stamps()
	for _, t := range s {
		if t.IsZero() {
			return legs, 0, false
		}
	}
	for i := range legs {
		legs[i] = s[i+1].Sub(s[i])
	}
	return legs, s[len(s)-1].Sub(s[0]), true
}

// Spread is the p50, p95 and p99 of a set of durations (nearest rank), and how many there were.
type Spread struct {
	N             int
	P50, P95, P99 time.Duration
}

// SpreadOf is the spread of ds (the zero Spread for none).
func SpreadOf(ds []time.Duration) Spread {
	if len(ds) == 0 {
		return Spread{}
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	rank := func(p int) time.Duration {
		i := (p*len(s)+99)/100 - 1 // nearest rank: ceil(p/100 * n), from 1
		return s[max(i, 0)]
	}
	return Spread{N: len(s), P50: rank(50), P95: rank(95), P99: rank(99)}
}

// Latency is the spread of each leg and of the whole over the complete routes among routes.
type Latency struct {
	Legs  [Legs]Spread
	Whole Spread
}

// LatencyOf measures routes: those missing a stamp are left out.
func LatencyOf(routes []record.Route) Latency {
	var legs [Legs][]time.Duration
	var whole []time.Duration
	for _, r := range routes {
		l, w, ok := RouteLegs(r)
		if !ok {
			continue
		}
		for i := range l {
			legs[i] = append(legs[i], l[i])
		}
		whole = append(whole, w)
	}
	var out Latency
	for i := range legs {
		out.Legs[i] = SpreadOf(legs[i])
	}
	out.Whole = SpreadOf(whole)
	return out
}
