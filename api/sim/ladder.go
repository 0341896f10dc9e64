package sim

import (
	"math"

	"github.com/tradedesk/tradedesk/api"
)

// ladder is a synthetic market's quote ladder as engine.shiftQuotes keeps it: its half-spread and
// level spacing in ticks, set from the index at first and again only when the index has drifted
// a twentieth from where they were set (so the ladder does not move whole when the index crosses
// a price where the rounded spacing changes), and the centre its quotes stand around.
type ladder struct {
	half, gap, at int64 // at: the index half and gap were set from (0: not yet)
	center        int64
}

// ladderDrift is the drift, as a fraction of the index (1/ladderDrift), that sets a ladder's
// half-spread and spacing again.
const ladderDrift = 20

// shiftQuotes is a synthetic market's requote, doing the work of what moved only. The makers'
// ladder (makerLevels a side, spaced and sized as requote lays them) stays where it is while the
// index, leaned by the makers' inventory, stays inside its inner spread; when it leaves, the
// centre moves to the nearest point of a grid of the ladder's spacing, so a move of one level
// changes one price a side. A quote still open at one of the ladder's prices stays (partly
// filled, too); the others are cancelled, then only the prices left without a quote are quoted
// anew (a quote a taker took whole, a level the ladder moved to). A market whose index stayed
// inside the spread and whose quotes were not taken places and cancels nothing: its book, and so
// the stream's book and mids, do not change. requote, which the default markets keep, re-quoted
// all 16 of a market whenever its index left the spread or a taker took a quote: about 3,600
// orders placed and as many cancelled a step with --markets 500, most of the simulator's work.
func (e *engine) shiftQuotes(m *market) {
	var want [2 * makerLevels]int64 // by slot: level i's bid at 2i, its ask at 2i+1; 0: none
	m.ladder.prices(m, e.makerLean(m), &want)
	var slots [2 * makerLevels]*order
	changed := false
	for _, o := range m.quotes {
		if k := slotOf(o, &want); k >= 0 && o.state == api.StateOpen && slots[k] == nil {
			slots[k] = o
			continue
		}
		changed = true
		if o.state == api.StateOpen {
			e.cancel(o)
		}
		m.spare = append(m.spare, o) // closed now: written over by the next quote (market.reuse)
	}
	for k, px := range want {
		changed = changed || px > 0 && slots[k] == nil
	}
	if !changed {
		return
	}
	m.quotedAt = m.index
	for k, px := range want {
		if px <= 0 || slots[k] != nil {
			continue
		}
		usd := 4000 * (1 + 0.6*float64(k/2)) * (0.5 + e.rng.Float64())
		slots[k] = e.placeOrder(m.reuse(), e.maker, m, k%2 == 0, px, e.lotsFor(m, px, usd), api.TifGTC)
	}
	m.quotes = m.quotes[:0]
	for _, o := range slots {
		if o != nil {
			m.quotes = append(m.quotes, o)
		}
	}
}

// prices writes the ladder's prices for m by slot (level i's bid at 2i, its ask at 2i+1; 0 for a
// price at or below zero), first moving the ladder as shiftQuotes says. lean is the makers'
// lean in half-spreads (engine.makerLean).
func (l *ladder) prices(m *market, lean float64, want *[2 * makerLevels]int64) {
	if l.at == 0 || ladderDrift*max(m.index-l.at, l.at-m.index) > l.at {
		idx := float64(m.index)
		l.half, l.gap, l.at = max(int64(idx*makerSpread), 1), max(int64(idx*makerSpacing), 1), m.index
		l.center = 0
	}
	x := m.index + int64(math.Round(lean*float64(l.half)))
	if l.center == 0 || max(x-l.center, l.center-x) >= l.half {
		l.center = int64(math.Round(float64(x)/float64(l.gap))) * l.gap
	}
	for i := range int64(makerLevels) {
		want[2*i] = max(l.center-l.half-i*l.gap, 0)
		want[2*i+1] = max(l.center+l.half+i*l.gap, 0)
	}
}

// slotOf is the ladder slot whose price and side are o's, or -1.
func slotOf(o *order, want *[2 * makerLevels]int64) int {
	k := 1
	if o.buy {
		k = 0
	}
	for ; k < len(want); k += 2 {
		if want[k] == o.price {
			return k
		}
	}
	return -1
}
