package chart

import (
	"slices"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"github.com/tradedesk/tradedesk/api"
)

// Canvas draws one chart again and again, drawing only what changed since its last drawing: when
// only the newest candle moved (a live price) and the price range, the label width and the
// largest volume shown stayed, it draws that candle's column and the price axis again, not the
// plot; and it styles again only the rows whose cells changed. Its output is always what Render
// draws from the same input. The zero value is ready; a Canvas takes its Options' Styles as fixed
// (Reset it after changing them).
type Canvas struct {
	w, h      int
	opts      Options
	candles   []api.Candle // the candles drawn last (a copy: the caller's slice may change)
	bars      []bar        // their bars
	l         layout       // the layout drawn last; plotted tells whether it is a chart's
	plotted   bool
	rest      stats   // the extremes of every bar but the newest
	restShown stats   // the extremes of the visible bars but the newest
	top       float64 // the largest volume shown
	g         *grid
	shown     *grid    // the cells rows was styled from
	rows      []string // each row styled
	out       string
	styled    int // rows styled by the last Render (what a test counts)
	wraps     *[sMuted + 1]wrap
}

// wrap is what a style puts around a run of a chart's cells, when styling a run is exactly that:
// a row is then styled without a lipgloss call per run.
type wrap struct {
	pre, post string
	ok        bool
}

// wrapOf finds s's wrap on two runs like a chart's (glyphs, digits, spaces at either end); a
// style that does more than wrap them (padding, a width, spaces styled apart) has none.
func wrapOf(s lipgloss.Style) wrap {
	const a, b = "a │█ ┤", " 1,234.5 ▁╿ "
	out := s.Render(a)
	i := strings.Index(out, a)
	if i < 0 {
		return wrap{}
	}
	w := wrap{pre: out[:i], post: out[i+len(a):], ok: true}
	if s.Render(b) != w.pre+b+w.post {
		return wrap{}
	}
	return w
}

// wrapsOf are the wraps of the chart's styles, by style id.
func wrapsOf(st Styles) *[sMuted + 1]wrap {
	return &[sMuted + 1]wrap{sNone: {ok: true}, sUp: wrapOf(st.Up), sDown: wrapOf(st.Down), sAxis: wrapOf(st.Axis), sMuted: wrapOf(st.Muted)}
}

// Reset forgets what was drawn: the next Render draws everything.
func (c *Canvas) Reset() { *c = Canvas{} }

// Render draws candles (oldest first) into exactly w columns and h rows, as the function Render
// does, drawing again only what changed since the last call.
func (c *Canvas) Render(candles []api.Candle, w, h int, opts Options) string {
	if w <= 0 || h <= 0 {
		c.Reset()
		return ""
	}
	if !c.moveNewest(candles, w, h, opts) {
		c.redraw(candles, w, h, opts)
	}
	c.style()
	return c.out
}

// redraw draws everything into a clear grid.
func (c *Canvas) redraw(candles []api.Candle, w, h int, opts Options) {
	if c.g == nil || c.g.w != w || c.g.h != h {
		c.g, c.shown, c.rows = newGrid(w, h), nil, nil
	} else {
		c.g.clear(0, 0, w, h)
		clear(c.g.wrote)
	}
	c.w, c.h, c.opts, c.plotted = w, h, opts, false
	c.candles = append(c.candles[:0], candles...)
	c.bars = c.bars[:0]
	switch {
	case len(candles) == 0:
		msg := opts.Empty
		if msg == "" {
			msg = "no candles"
		}
		message(c.g, msg)
	case w < MinWidth || h < MinHeight:
		message(c.g, "too small")
	default:
		c.bars = appendBars(slices.Grow(c.bars, len(candles)), candles)
		c.l = plan(c.g, c.bars, opts)
		drawCandles(c.g, c.l)
		drawVolume(c.g, c.l)
		drawPriceAxis(c.g, c.l, opts.PriceDecimals)
		drawTimeAxis(c.g, c.l, opts)
		c.plotted = true
		n := len(c.l.visible)
		c.rest, c.restShown = statsOf(c.bars[:len(c.bars)-1]), statsOf(c.l.visible[:n-1])
		c.top = statsOf(c.l.visible).vol
	}
}

// moveNewest draws a move of the newest candle alone (its column and the price axis) when that is
// all that changed; it reports whether it could.
func (c *Canvas) moveNewest(candles []api.Candle, w, h int, opts Options) bool {
	n := len(candles)
	if !c.plotted || w != c.w || h != c.h || !sameOptions(opts, c.opts) || n != len(c.candles) {
		return false
	}
	last, was := candles[n-1], c.candles[n-1]
	if !last.Time.Equal(was.Time.Time) || !slices.Equal(candles[:n-1], c.candles[:n-1]) {
		return false
	}
	b := toBar(last)
	l := c.l
	all := c.rest.with(b)
	if all.labelWidth(opts.PriceDecimals) != l.labelWidth || volumeRows(h-1, all.vol) != l.volRows {
		return false
	}
	shown := c.restShown.with(b)
	if lo, hi := shown.priceRange(); lo != l.lo || hi != l.hi || shown.vol != c.top {
		return false
	}
	c.candles[n-1], c.bars[n-1] = last, b
	clear(c.g.wrote)
	i := len(l.visible) - 1
	x := l.x(i)
	c.g.clear(x, 0, x+1, l.priceRows+l.volRows)
	drawCandle(c.g, l, i)
	if l.volRows > 0 && shown.vol > 0 {
		drawVolumeBar(c.g, l, i, shown.vol)
	}
	c.g.clear(l.axisX, 0, c.w, l.priceRows)
	drawPriceAxis(c.g, l, opts.PriceDecimals)
	return true
}

// sameOptions compares the options but their Styles, which a Canvas takes as fixed.
func sameOptions(a, b Options) bool {
	return a.PriceDecimals == b.PriceDecimals && a.Location == b.Location && a.Empty == b.Empty && a.Interval == b.Interval
}

// style styles the rows whose cells changed since the last styling and joins the rows.
func (c *Canvas) style() {
	g := c.g
	all := c.shown == nil
	if all {
		c.shown, c.rows = newGrid(g.w, g.h), make([]string, g.h)
	}
	if c.wraps == nil {
		c.wraps = wrapsOf(c.opts.Styles)
	}
	c.styled = 0
	var b strings.Builder
	for y := 0; y < g.h; y++ {
		lo, hi := y*g.w, (y+1)*g.w
		if !all && slices.Equal(g.cells[lo:hi], c.shown.cells[lo:hi]) && slices.Equal(g.style[lo:hi], c.shown.style[lo:hi]) {
			continue
		}
		b.Reset()
		g.writeRow(&b, y, c.opts.Styles, c.wraps)
		c.rows[y] = b.String()
		copy(c.shown.cells[lo:hi], g.cells[lo:hi])
		copy(c.shown.style[lo:hi], g.style[lo:hi])
		c.styled++
	}
	if c.styled > 0 {
		c.out = strings.Join(c.rows, "\n")
	}
}
