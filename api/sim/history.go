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
// The default charts' series take their past when first asked (series.past: the points drawn
// again from a copy of src, the same ones), so only the 24-hour slots hold it from the start.
func makeHistory(m *market, src *rand.PCG, now time.Time) {
	end := now.UnixMilli()
	lazy := m.charts == nil
	if lazy {
		m.charts = newCharts(end)
	}
	keeps := make([]int, len(resolutions))
	for k, ser := range m.charts.s[chartLTP] {
		keeps[k] = ser.res.keep
	}
	h := pastOf{vol: m.vol, index: float64(m.index), tick: m.tick.f, lot: m.lot.f, flow: m.flowPerMin, end: end, keeps: keeps, src: *src}
	if !lazy {
		pts := h.points(rand.New(src), len(resolutions))
		for i := len(pts) - 1; i > 0; i-- {
			a, b := pts[i], pts[i-1]
			m.addSegment(a.r, a.t, a.res, a.px, b.px, float64(b.t-a.t)/1000)
		}
		return
	}
	pts := h.points(rand.New(src), 1) // the 24-hour slots take the finest resolution's alone
	for i := len(pts) - 1; i > 0; i-- {
		if a, b := pts[i], pts[i-1]; a.res == 0 {
			m.charts.day.add(a.t, h.bars(a, b)[chartLTP])
		}
	}
	for kind := range m.charts.s {
		for res := range m.charts.s[kind] {
			m.charts.s[kind][res].past = func(s *series) { h.fill(s, kind, res) }
		}
	}
}

// pastOf is what a market's made-up past is drawn from: the market's terms and price at the
// start, and its generator as it was before the draws.
type pastOf struct {
	vol, index, tick, lot, flow float64
	end                         int64
	keeps                       []int
	src                         rand.PCG
}

// pastPoint is one point of the made-up path and the bar that ends at the next point's time.
type pastPoint struct {
	t   int64
	px  float64
	res int
	r   segmentDraws
}

// points draws the path back from the end: for each of the first upto resolutions (the finest)
// the span it keeps at its spacing. The draws go finest first, so the points of the first few are
// the same whatever upto is: a series draws no coarser resolution than its own.
func (h *pastOf) points(rng *rand.Rand, upto int) []pastPoint {
	n := 1 // each resolution draws at most the bars it keeps: room for them all, no regrowth
	for _, k := range h.keeps[:upto] {
		n += k
	}
	pts := append(make([]pastPoint, 0, n), pastPoint{t: h.end, px: h.index})
	for k, r := range resolutions[:upto] {
		span := h.end - r.d.Milliseconds()*int64(h.keeps[k])
		for t := pts[len(pts)-1].t; t > span; {
			prev := bucket(t-1, r.d)
			if k == 0 {
				prev = t - r.d.Milliseconds()
			}
			dt := float64(t-prev) / 1000
			px := pts[len(pts)-1].px * math.Exp(-h.vol*math.Sqrt(dt)*rng.NormFloat64())
			pts = append(pts, pastPoint{t: prev, px: px, res: k, r: drawSegment(rng)})
			t = prev
		}
	}
	return pts
}

// fill adds to s (chart type kind at resolutions[res]) the past's bars it would have taken had
// they all been recorded at the start (charts.segment): the segments of res and finer.
func (h *pastOf) fill(s *series, kind, res int) {
	src := h.src
	pts := h.points(rand.New(&src), res+1)
	for i := len(pts) - 1; i > 0; i-- {
		if a, b := pts[i], pts[i-1]; a.res <= res {
			s.add(a.t, h.bars(a, b)[kind])
		}
	}
}

// bars is the synthetic bar from point a to b in each chart type (index, mark, last price).
func (h *pastOf) bars(a, b pastPoint) [chartTypes]bar {
	return segmentBars(a.r, h.vol, h.tick, h.lot, h.flow, a.px, b.px, float64(b.t-a.t)/1000)
}

// segmentDraws are the random numbers of one synthetic bar: its wicks, the mark's close and the
// volume.
type segmentDraws struct{ hi, lo, mark, vol float64 }

func drawSegment(rng *rand.Rand) segmentDraws {
	return segmentDraws{hi: rng.NormFloat64(), lo: rng.NormFloat64(), mark: rng.NormFloat64(), vol: rng.Float64()}
}

// addSegment records one synthetic bar from price a to b lasting dt seconds into every chart type.
func (m *market) addSegment(r segmentDraws, t int64, res int, a, b, dt float64) {
	bs := segmentBars(r, m.vol, m.tick.f, m.lot.f, m.flowPerMin, a, b, dt)
	m.charts.segment(chartIndex, t, res, bs[chartIndex])
	m.charts.segment(chartMark, t, res, bs[chartMark])
	m.charts.segment(chartLTP, t, res, bs[chartLTP])
}

// segmentBars is one synthetic bar from price a to b lasting dt seconds in each chart type, for a
// market of volatility vol, tick and lot sizes and typical notional a minute flow.
func segmentBars(r segmentDraws, vol, tick, lot, flow, a, b, dt float64) [chartTypes]bar {
	wig := vol * math.Sqrt(dt) * 0.6
	hi := math.Max(a, b) * (1 + math.Abs(r.hi)*wig)
	lo := math.Min(a, b) * (1 - math.Abs(r.lo)*wig)
	ticks := func(x float64) int64 { return max(int64(math.Round(x)), 1) }
	base := bar{open: ticks(a), high: ticks(hi), low: ticks(lo), close: ticks(b)}
	mk := base
	mk.close = ticks(b * (1 + r.mark*vol))
	mk.high, mk.low = max(mk.high, mk.close), min(mk.low, mk.close)
	lt := mk
	// Volume: the market's typical notional a minute, in lots.
	notionalPerLot := b * tick * lot
	lt.vol = int64(flow * dt / 60 * (0.5 + r.vol) / notionalPerLot)
	var out [chartTypes]bar
	out[chartIndex], out[chartMark], out[chartLTP] = base, mk, lt
	return out
}
