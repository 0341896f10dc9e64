package sim

import (
	"fmt"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// Chart types.
const (
	chartMark = iota
	chartIndex
	chartLTP
	chartTypes
)

var chartTypeNames = map[string]int{"mark": chartMark, "index": chartIndex, "ltp": chartLTP}

// resolution is one chart interval and how many candles of it are kept.
type resolution struct {
	name string
	d    time.Duration
	keep int
}

const week = 7 * 24 * time.Hour

// resolutions are the chart intervals, finest first. One-minute candles cover more than a day
// so that 24-hour volume and change can be read from them.
var resolutions = []resolution{
	{"1", time.Minute, 1500}, {"5", 5 * time.Minute, 600}, {"15", 15 * time.Minute, 500},
	{"30", 30 * time.Minute, 500}, {"60", time.Hour, 500}, {"240", 4 * time.Hour, 400},
	{"1D", 24 * time.Hour, 400}, {"1W", week, 200},
}

func resolutionIndex(s string) (int, error) {
	for i, r := range resolutions {
		if r.name == s {
			return i, nil
		}
	}
	switch s {
	case "D", "1d", "1440":
		return 6, nil
	case "W", "1w", "10080":
		return 7, nil
	}
	return 0, fmt.Errorf("resolution %q is not valid: use 1, 5, 15, 30, 60, 240, 1D or 1W", trunc(s, 20))
}

// bucket returns the start of the interval of length d holding t (weeks start on Monday UTC).
func bucket(t int64, d time.Duration) int64 {
	ms := d.Milliseconds()
	if d == week {
		off := int64(4 * 24 * time.Hour / time.Millisecond) // 1970-01-05 was a Monday
		return floorDiv(t-off, ms)*ms + off
	}
	return floorDiv(t, ms) * ms
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// bar is one candle in ticks and lots.
type bar struct {
	start                  int64 // Unix ms
	open, high, low, close int64
	vol                    int64
}

// series is one chart type at one resolution, oldest first, capped. Its bars start on the
// clock's boundaries (origin 0) or a whole number of intervals after origin.
type series struct {
	bars   []bar
	res    resolution
	origin int64 // Unix ms
	// past, until the made-up past is put in (materialise), adds its bars to an empty series;
	// meanwhile bars holds only the live ones since the start. Most series of the demo's markets
	// are never asked for: their past is drawn when first asked, not kept from the start.
	past func(*series)
	// gen counts the changes to the bars other than to the last bar's figures (a bar added, the
	// oldest dropped, the past put in): stats24h's sum of the bars before the last holds while
	// it is the same.
	gen uint64
}

// materialise puts the made-up past in front of the live bars, once: the series is then what it
// would be had the past been in from the start (the same bars merged, the same ones dropped).
func (s *series) materialise() {
	past := s.past
	if past == nil {
		return
	}
	live := s.bars
	*s = series{res: s.res, origin: s.origin, bars: make([]bar, 0, capFor(s.res.keep)), gen: s.gen + 1}
	past(s)
	for _, b := range live {
		s.add(b.start, b)
	}
}

// add merges a segment (its own open/high/low/close and volume, starting at t) into the series.
func (s *series) add(t int64, b bar) {
	if s.past != nil && len(s.bars) >= s.res.keep {
		s.materialise() // before the live bars alone would be trimmed
	}
	start := s.origin + bucket(t-s.origin, s.res.d)
	n := len(s.bars)
	if n > 0 && s.bars[n-1].start == start {
		x := &s.bars[n-1]
		x.high = max(x.high, b.high)
		x.low = min(x.low, b.low)
		x.close = b.close
		x.vol += b.vol
		return
	}
	if n > 0 && start < s.bars[n-1].start {
		return // late data for a closed bar
	}
	b.start = start
	s.bars = append(s.bars, b)
	s.gen++
	if len(s.bars) > s.res.keep+s.res.keep/4 {
		s.bars = append(s.bars[:0], s.bars[len(s.bars)-s.res.keep:]...)
	}
}

// barBytes is a bar's size in memory (six int64s).
const barBytes = 48

// charts holds every chart type and resolution of one instrument, and the last day's trades
// for the 24-hour figures.
type charts struct {
	s [chartTypes][]series
	// compact charts (a synthetic market's) keep one series per resolution for the three chart
	// types (mark and index candles are its prices without the volume), fewer bars, and the
	// 24-hour slots an hour long: a few kB a market.
	compact bool
	// day is the trades in one-minute slots counted from the exchange's start, not from the
	// clock's minute: the 24-hour window steps a whole number of minutes after the start, so
	// the figures it gives are the same whatever second of the day the exchange starts at.
	day series
	// daySum is stats24h's sum of the slots in the window before the last one.
	daySum dayWindow
}

// dayWindow is the 24-hour window's slots before the last one as stats24h last read them: the
// first in the window (by index) and their notional, at the day series' gen.
type dayWindow struct {
	gen   uint64
	first int
	sum   int64
	ok    bool
}

// newCharts makes empty charts whose 24-hour slots are counted from start (Unix ms).
func newCharts(start int64) *charts {
	c := &charts{day: series{res: resolutions[0], origin: start, bars: make([]bar, 0, resolutions[0].keep)}}
	for k := range c.s {
		c.s[k] = make([]series, len(resolutions))
		for i, r := range resolutions {
			c.s[k][i] = series{res: r}
		}
	}
	return c
}

// series is one chart's series with its made-up past in (series.materialise): what the
// candles, the stream's chart channels and the tests read.
func (c *charts) series(kind, res int) *series {
	s := &c.s[kind][res]
	s.materialise()
	return s
}

// newCompactCharts makes a synthetic market's empty charts (see charts.compact), keeping keeps[i]
// bars of resolutions[i]; their storage is allocated once at its cap.
func newCompactCharts(start int64, keeps []int) *charts {
	hour := resolutions[4]
	hour.keep = 25
	c := &charts{compact: true, day: series{res: hour, origin: start, bars: make([]bar, 0, capFor(hour.keep))}}
	shared := make([]series, len(resolutions))
	for i, r := range resolutions {
		r.keep = keeps[i]
		shared[i] = series{res: r, bars: make([]bar, 0, capFor(r.keep))}
	}
	for k := range c.s {
		c.s[k] = shared
	}
	return c
}

// capFor is the most bars a series keeping keep bars holds (series.add trims past it).
func capFor(keep int) int { return keep + keep/4 + 1 }

// point records one price of a chart type at time t into every resolution.
func (c *charts) point(kind int, t time.Time, px int64) {
	if c.compact && kind == chartIndex {
		return // the mark, which follows the index, draws the shared series
	}
	ms := t.UnixMilli()
	for i := range c.s[kind] {
		c.s[kind][i].add(ms, bar{open: px, high: px, low: px, close: px})
	}
}

// trade records a trade into the last-traded-price charts and the 24-hour slots.
func (c *charts) trade(t time.Time, px, lots int64) {
	ms := t.UnixMilli()
	c.day.add(ms, bar{open: px, high: px, low: px, close: px, vol: lots})
	for i := range c.s[chartLTP] {
		c.s[chartLTP][i].add(ms, bar{open: px, high: px, low: px, close: px, vol: lots})
	}
}

// segment records a whole synthetic bar (used to make history) into resolutions at least as
// long as the bar, starting at minRes; a one-minute trade bar goes into the 24-hour slots too.
func (c *charts) segment(kind int, t int64, minRes int, b bar) {
	if c.compact && kind != chartLTP {
		return // one shared series: the last-price bar draws it
	}
	if kind == chartLTP && (minRes == 0 || c.compact) {
		c.day.add(t, b)
	}
	for i := minRes; i < len(resolutions); i++ {
		c.s[kind][i].add(t, b)
	}
}

// candles returns the bars of one chart between from and to (Unix ms, inclusive of bars that
// start in the range).
func (c *charts) candles(m *market, kind, res int, from, to int64) []api.Candle {
	bars := c.series(kind, res).bars
	out := make([]api.Candle, 0, 64)
	for _, b := range bars {
		if b.start < bucket(from, resolutions[res].d) || b.start > to {
			continue
		}
		out = append(out, c.candle(m, kind, b))
	}
	return out
}

// candle is one bar of a chart type as the API sends it (compact charts' mark and index candles
// carry no volume: they share the last price's bars).
func (c *charts) candle(m *market, kind int, b bar) api.Candle {
	if c.compact && kind != chartLTP {
		b.vol = 0
	}
	return api.Candle{Time: api.Time{Time: time.UnixMilli(b.start).UTC()}, Open: m.px(b.open), High: m.px(b.high),
		Low: m.px(b.low), Close: m.px(b.close), Volume: m.qty(b.vol)}
}

// stats24h reads the 24-hour traded notional (ticks×lots, each minute's volume at its close) and
// the price 24 hours ago (ticks) from the one-minute slots counted from the start (charts.day).
// The slots before the last are summed again only when they changed (day.gen) or the window's
// first slot left it: a market's ticker reads these every step it moves, and the real markets'
// day holds 1,440 slots (issue #34).
func (c *charts) stats24h(now time.Time) (notional, open int64) {
	bars, w := c.day.bars, &c.daySum
	n := len(bars)
	cut := now.Add(-24 * time.Hour).UnixMilli()
	if !w.ok || w.gen != c.day.gen || w.first >= n || bars[w.first].start < cut || w.first > 0 && bars[w.first-1].start >= cut {
		first := n
		for first > 0 && bars[first-1].start >= cut {
			first--
		}
		var sum int64
		for i := first; i < n-1; i++ {
			sum += bars[i].vol * bars[i].close
		}
		*w = dayWindow{gen: c.day.gen, first: first, sum: sum, ok: true}
		if first == n {
			return 0, 0
		}
	}
	last := bars[n-1]
	return w.sum + last.vol*last.close, bars[w.first].open
}
