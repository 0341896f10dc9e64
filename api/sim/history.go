package sim

import (
	"math"
	"math/rand/v2"
	"time"
)

// makeHistory fills a market's charts with a made-up past that ends at its current price, so
// every resolution shows candles at once. The path is finest near now: for each resolution the
// span it keeps is drawn at that resolution's spacing. Every draw is made going back from now,
// a bar's with its price, so the recent past is the same whatever the time of day it ends at:
// its one-minute steps are whole minutes back from now itself (not from the clock's minute),
// so each one-minute bar and each of the 24-hour figures' slots (charts.day) holds one step,
// the same step at any start. It makes the default charts unless the market has its own already
// (a synthetic market's compact ones), and draws as many bars as they keep.
func makeHistory(m *market, rng *rand.Rand, now time.Time) {
	end := now.UnixMilli()
	if m.charts == nil {
		m.charts = newCharts(end)
	}
	type pt struct {
		t   int64
		px  float64
		res int
		r   segmentDraws // the bar that ends at the next point's time
	}
	n := 1 // each resolution draws at most the bars it keeps: room for them all, no regrowth
	for _, ser := range m.charts.s[chartLTP] {
		n += ser.res.keep
	}
	pts := append(make([]pt, 0, n), pt{t: end, px: float64(m.index)})
	for k, ser := range m.charts.s[chartLTP] {
		r := ser.res
		span := end - r.d.Milliseconds()*int64(r.keep)
		for t := pts[len(pts)-1].t; t > span; {
			prev := bucket(t-1, r.d)
			if k == 0 {
				prev = t - r.d.Milliseconds()
			}
			dt := float64(t-prev) / 1000
			px := pts[len(pts)-1].px * math.Exp(-m.vol*math.Sqrt(dt)*rng.NormFloat64())
			pts = append(pts, pt{t: prev, px: px, res: k, r: drawSegment(rng)})
			t = prev
		}
	}
	for i := len(pts) - 1; i > 0; i-- {
		a, b := pts[i], pts[i-1]
		m.addSegment(a.r, a.t, a.res, a.px, b.px, float64(b.t-a.t)/1000)
	}
}

// segmentDraws are the random numbers of one synthetic bar: its wicks, the mark's close and the
// volume.
type segmentDraws struct{ hi, lo, mark, vol float64 }

func drawSegment(rng *rand.Rand) segmentDraws {
	return segmentDraws{hi: rng.NormFloat64(), lo: rng.NormFloat64(), mark: rng.NormFloat64(), vol: rng.Float64()}
}

// addSegment records one synthetic bar from price a to b lasting dt seconds into every chart type.
func (m *market) addSegment(r segmentDraws, t int64, res int, a, b, dt float64) {
	wig := m.vol * math.Sqrt(dt) * 0.6
	hi := math.Max(a, b) * (1 + math.Abs(r.hi)*wig)
	lo := math.Min(a, b) * (1 - math.Abs(r.lo)*wig)
	ticks := func(x float64) int64 { return max(int64(math.Round(x)), 1) }
	base := bar{open: ticks(a), high: ticks(hi), low: ticks(lo), close: ticks(b)}
	m.charts.segment(chartIndex, t, res, base)
	mk := base
	mk.close = ticks(b * (1 + r.mark*m.vol))
	mk.high, mk.low = max(mk.high, mk.close), min(mk.low, mk.close)
	m.charts.segment(chartMark, t, res, mk)
	lt := mk
	// Volume: the market's typical notional a minute, in lots.
	notionalPerLot := b * m.tick.f * m.lot.f
	lt.vol = int64(m.flowPerMin * dt / 60 * (0.5 + r.vol) / notionalPerLot)
	m.charts.segment(chartLTP, t, res, lt)
}
