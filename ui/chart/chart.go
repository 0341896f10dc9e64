// Package chart draws OHLCV candles as text: candle bodies and wicks at half-cell resolution,
// volume bars under them, a price axis scaled to the visible candles and a time axis.
//
// It is a small renderer of its own rather than ntcharts: the pane needs an exact w x h block,
// labels at the instrument's precision and styles applied per run of cells, which is simpler to
// get right here than to bend a general canvas to. Render is pure, so a pane can cache its
// output until the candles or the size change.
package chart

import (
	"math"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/tradedesk/tradedesk/api"
)

// Styles colours the chart. The zero value draws without colour.
type Styles struct {
	Up    lipgloss.Style // rising candles and their volume
	Down  lipgloss.Style // falling candles and their volume
	Axis  lipgloss.Style // axis lines and labels
	Muted lipgloss.Style // messages (no candles, too small)
}

// Options control one rendering.
type Options struct {
	// PriceDecimals is the number of decimals of the price labels (the instrument's precision).
	PriceDecimals int32
	// Styles colours the output.
	Styles Styles
	// Location is the time zone of the time axis (UTC when nil).
	Location *time.Location
	// Empty is the message shown when there are no candles ("no candles" when empty).
	Empty string
	// Interval is the candle period, which picks the time labels' format; when zero it is taken
	// from the spacing of the last two candles.
	Interval time.Duration
}

// Minimum sizes under which Render shows a message instead of a chart.
const (
	MinWidth  = 12
	MinHeight = 4
)

// style ids of cells; a row is rendered as runs of cells sharing one id.
const (
	sNone uint8 = iota
	sUp
	sDown
	sAxis
	sMuted
)

// grid is the w x h cell buffer the chart is drawn into.
type grid struct {
	w, h  int
	cells []rune
	style []uint8
	wrote []bool // the columns written since the grid was made or cleared (what a test counts)
}

func newGrid(w, h int) *grid {
	g := &grid{w: w, h: h, cells: make([]rune, w*h), style: make([]uint8, w*h), wrote: make([]bool, w)}
	g.clear(0, 0, w, h)
	return g
}

// clear blanks the cells of columns [x0, x1) and rows [y0, y1).
func (g *grid) clear(x0, y0, x1, y1 int) {
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			g.cells[y*g.w+x], g.style[y*g.w+x] = ' ', sNone
		}
	}
}

func (g *grid) set(x, y int, r rune, s uint8) {
	if x < 0 || y < 0 || x >= g.w || y >= g.h {
		return
	}
	g.cells[y*g.w+x] = r
	g.style[y*g.w+x] = s
	g.wrote[x] = true
}

func (g *grid) text(x, y int, s string, st uint8) {
	for i, r := range []rune(s) {
		g.set(x+i, y, r, st)
	}
}

// String renders the grid row by row, one style call per run of equally styled cells.
func (g *grid) String(st Styles) string {
	var b strings.Builder
	b.Grow(g.w*g.h + g.h)
	for y := 0; y < g.h; y++ {
		if y > 0 {
			b.WriteByte('\n')
		}
		g.writeRow(&b, y, st, nil)
	}
	return b.String()
}

// writeRow renders row y, one style call per run of equally styled cells, or the style's wrap
// around the run where wraps has one.
func (g *grid) writeRow(b *strings.Builder, y int, st Styles, wraps *[sMuted + 1]wrap) {
	row := y * g.w
	for x := 0; x < g.w; {
		id := g.style[row+x]
		end := x + 1
		for end < g.w && g.style[row+end] == id {
			end++
		}
		if wraps != nil && wraps[id].ok {
			b.WriteString(wraps[id].pre)
			for _, r := range g.cells[row+x : row+end] {
				b.WriteRune(r)
			}
			b.WriteString(wraps[id].post)
		} else {
			b.WriteString(applyStyle(st, id, string(g.cells[row+x:row+end])))
		}
		x = end
	}
}

func applyStyle(st Styles, id uint8, s string) string {
	switch id {
	case sUp:
		return st.Up.Render(s)
	case sDown:
		return st.Down.Render(s)
	case sAxis:
		return st.Axis.Render(s)
	case sMuted:
		return st.Muted.Render(s)
	}
	return s
}

// Render draws candles (oldest first) into exactly w columns and h rows. The newest candles that
// fit are shown, newest at the right. It returns "" when w or h is not positive.
func Render(candles []api.Candle, w, h int, opts Options) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	g := newGrid(w, h)
	switch {
	case len(candles) == 0:
		msg := opts.Empty
		if msg == "" {
			msg = "no candles"
		}
		message(g, msg)
	case w < MinWidth || h < MinHeight:
		message(g, "too small")
	default:
		draw(g, candles, opts)
	}
	return g.String(opts.Styles)
}

// message centres msg (cut to the width) in the grid.
func message(g *grid, msg string) {
	r := []rune(msg)
	if len(r) > g.w {
		r = r[:g.w]
	}
	g.text((g.w-len(r))/2, g.h/2, string(r), sMuted)
}

// bar is one candle converted to float64 at the chart's edge.
type bar struct {
	t                      time.Time
	open, high, low, close float64
	volume                 float64
}

func (b bar) up() bool { return b.close >= b.open }

func toBars(cs []api.Candle) []bar {
	return appendBars(make([]bar, 0, len(cs)), cs)
}

// appendBars appends the bars of cs to out.
func appendBars(out []bar, cs []api.Candle) []bar {
	for _, c := range cs {
		out = append(out, toBar(c))
	}
	return out
}

func toBar(c api.Candle) bar {
	b := bar{
		t:      c.Time.Time,
		open:   c.Open.InexactFloat64(),
		high:   c.High.InexactFloat64(),
		low:    c.Low.InexactFloat64(),
		close:  c.Close.InexactFloat64(),
		volume: c.Volume.InexactFloat64(),
	}
	// A malformed candle (high under low, body outside the range) is drawn within its extremes.
	lo := math.Min(math.Min(b.low, b.high), math.Min(b.open, b.close))
	hi := math.Max(math.Max(b.low, b.high), math.Max(b.open, b.close))
	b.low, b.high = lo, hi
	return b
}

// layout is the placement of the chart's parts inside the grid.
type layout struct {
	plotW      int // columns of candles
	priceRows  int // rows of candles (from the top)
	volRows    int // rows of volume under the candles
	axisX      int // column of the price axis line
	step       int // columns per candle (1, or 2 with a gap)
	visible    []bar
	lo, hi     float64
	labelWidth int
}

func draw(g *grid, candles []api.Candle, opts Options) {
	bars := toBars(candles)
	l := plan(g, bars, opts)
	drawCandles(g, l)
	drawVolume(g, l)
	drawPriceAxis(g, l, opts.PriceDecimals)
	drawTimeAxis(g, l, opts)
}

func plan(g *grid, bars []bar, opts Options) layout {
	var l layout
	chartRows := g.h - 1 // the last row is the time axis
	l.volRows = volumeRows(chartRows, maxVolume(bars))
	l.priceRows = chartRows - l.volRows
	// The label width depends on the range, which depends on the visible candles, which depend on
	// the width left for them: size the labels for every candle first (an upper bound), then fit.
	l.labelWidth = statsOf(bars).labelWidth(opts.PriceDecimals)
	l.axisX = g.w - l.labelWidth - 1
	if l.axisX < 1 {
		l.axisX, l.labelWidth = g.w-1, 0
	}
	l.plotW = l.axisX
	l.step = 1
	if len(bars)*2 <= l.plotW {
		l.step = 2
	}
	n := min(len(bars), (l.plotW+l.step-1)/l.step)
	l.visible = bars[len(bars)-n:]
	l.lo, l.hi = priceRange(l.visible)
	return l
}

// volumeRows is how many of chartRows show volume, the largest volume being top.
func volumeRows(chartRows int, top float64) int {
	if chartRows < 6 || top <= 0 { // mark and index series carry no volume
		return 0
	}
	return chartRows / 5
}

// priceRange is the lowest low and highest high, widened when flat so a flat market still draws.
func priceRange(bars []bar) (lo, hi float64) {
	return statsOf(bars).priceRange()
}

// stats are the extremes of some bars: the lowest low, the highest high and the largest volume.
type stats struct{ lo, hi, vol float64 }

func statsOf(bars []bar) stats {
	s := stats{lo: math.Inf(1), hi: math.Inf(-1)}
	for _, b := range bars {
		s = s.with(b)
	}
	return s
}

// with is s with b added.
func (s stats) with(b bar) stats {
	return stats{lo: math.Min(s.lo, b.low), hi: math.Max(s.hi, b.high), vol: math.Max(s.vol, b.volume)}
}

// labelWidth is the width of the widest label of bars whose extremes are s.
func (s stats) labelWidth(decimals int32) int {
	lo, hi := s.priceRange()
	return labelWidth(lo, hi, s.vol, decimals)
}

// priceRange is the range the price rows span, widened when flat so a flat market still draws.
func (s stats) priceRange() (lo, hi float64) {
	lo, hi = s.lo, s.hi
	if hi-lo <= math.Abs(hi)*1e-12 {
		pad := math.Max(math.Abs(hi)*0.001, 1e-9)
		lo, hi = lo-pad, hi+pad
	}
	return lo, hi
}

// x is the column of the i-th visible candle: the newest sits at the right edge of the plot.
func (l layout) x(i int) int {
	return l.plotW - 1 - (len(l.visible)-1-i)*l.step
}

// half maps a price to a half-row index, 0 at the bottom of the candle area.
func (l layout) half(v float64) int {
	n := 2*l.priceRows - 1
	k := int(math.Round((v - l.lo) / (l.hi - l.lo) * float64(n)))
	return max(0, min(n, k))
}

// candle glyphs by (upper half, lower half) of a cell: 0 empty, 1 wick, 2 body.
var glyphs = [3][3]rune{
	{' ', '╷', '╻'},
	{'╵', '│', '╽'},
	{'╹', '╿', '┃'},
}

func drawCandles(g *grid, l layout) {
	for i := range l.visible {
		drawCandle(g, l, i)
	}
}

// drawCandle draws the i-th visible candle in its column.
func drawCandle(g *grid, l layout, i int) {
	b := l.visible[i]
	x := l.x(i)
	st := sDown
	if b.up() {
		st = sUp
	}
	lo, hi := l.half(b.low), l.half(b.high)
	bLo, bHi := l.half(math.Min(b.open, b.close)), l.half(math.Max(b.open, b.close))
	kind := func(k int) int {
		switch {
		case k >= bLo && k <= bHi:
			return 2
		case k >= lo && k <= hi:
			return 1
		}
		return 0
	}
	for row := 0; row < l.priceRows; row++ {
		bottom := 2 * (l.priceRows - 1 - row) // half index of the row's lower half
		r := glyphs[kind(bottom+1)][kind(bottom)]
		if r != ' ' {
			g.set(x, row, r, st)
		}
	}
}

func maxVolume(bars []bar) float64 {
	var top float64
	for _, b := range bars {
		top = math.Max(top, b.volume)
	}
	return top
}

// volume blocks in eighths of a cell.
var blocks = []rune{' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'}

func drawVolume(g *grid, l layout) {
	if l.volRows == 0 {
		return
	}
	top := maxVolume(l.visible)
	if top <= 0 {
		return
	}
	for i := range l.visible {
		drawVolumeBar(g, l, i, top)
	}
	if l.labelWidth > 0 {
		g.text(l.axisX+1, l.priceRows, fit(compact(top), l.labelWidth), sAxis)
	}
}

// drawVolumeBar draws the i-th visible candle's volume, top being the largest volume shown.
func drawVolumeBar(g *grid, l layout, i int, top float64) {
	b := l.visible[i]
	st := sDown
	if b.up() {
		st = sUp
	}
	eighths := int(math.Round(b.volume / top * float64(l.volRows*8)))
	if b.volume > 0 && eighths == 0 {
		eighths = 1 // any volume shows
	}
	for r := 0; r < l.volRows && eighths > 0; r++ {
		n := min(8, eighths)
		g.set(l.x(i), l.priceRows+l.volRows-1-r, blocks[n], st)
		eighths -= n
	}
}

func drawPriceAxis(g *grid, l layout, decimals int32) {
	for y := 0; y < l.priceRows+l.volRows; y++ {
		g.set(l.axisX, y, '│', sAxis)
	}
	if l.labelWidth == 0 {
		return
	}
	every := 4
	if l.priceRows < 8 {
		every = 2
	}
	n := float64(2*l.priceRows - 1)
	for row := 0; row < l.priceRows; row += every {
		v := l.lo + (float64(2*(l.priceRows-1-row))+0.5)/n*(l.hi-l.lo)
		g.set(l.axisX, row, '┤', sAxis)
		g.text(l.axisX+1, row, fit(formatPrice(v, decimals), l.labelWidth), sAxis)
	}
	// The last close is always labelled, in its candle's colour.
	last := l.visible[len(l.visible)-1]
	row := l.priceRows - 1 - l.half(last.close)/2
	st := sDown
	if last.up() {
		st = sUp
	}
	g.set(l.axisX, row, '┤', st)
	g.text(l.axisX+1, row, fit(formatPrice(last.close, decimals), l.labelWidth), st)
}

func drawTimeAxis(g *grid, l layout, opts Options) {
	loc := opts.Location
	if loc == nil {
		loc = time.UTC
	}
	y := g.h - 1
	for x := 0; x < g.w; x++ {
		g.set(x, y, ' ', sAxis)
	}
	layoutStr := timeLayout(l.visible, opts.Interval)
	next := 0 // first column free for a label
	for i, b := range l.visible {
		x := l.x(i)
		label := b.t.In(loc).Format(layoutStr)
		x = min(x, l.axisX-len(label)) // a label that would run into the axis ends at its candle
		if x < next || x < 0 {
			continue
		}
		g.text(x, y, label, sAxis)
		next = x + len(label) + 2
	}
}

// timeLayout picks a time format from the spacing of the candles.
func timeLayout(bars []bar, step time.Duration) string {
	if step <= 0 && len(bars) > 1 {
		step = bars[len(bars)-1].t.Sub(bars[len(bars)-2].t)
	}
	switch {
	case step < 24*time.Hour:
		return "15:04"
	case step < 7*24*time.Hour:
		return "01-02"
	}
	return "2006-01"
}
