package chart

import (
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

func colourStyles() Styles {
	r := lipgloss.NewRenderer(os.Stdout)
	r.SetColorProfile(termenv.TrueColor)
	return Styles{
		Up:    r.NewStyle().Foreground(lipgloss.Color("#00ff00")),
		Down:  r.NewStyle().Foreground(lipgloss.Color("#ff0000")),
		Axis:  r.NewStyle().Foreground(lipgloss.Color("#888888")),
		Muted: r.NewStyle().Foreground(lipgloss.Color("#444444")),
	}
}

// withClose is cs with its newest candle closing at price (its high or low moved with it), as the
// chart pane's live candle is: a new slice, the older candles the same values.
func withClose(cs []api.Candle, price decimal.Decimal) []api.Candle {
	out := append([]api.Candle(nil), cs...)
	last := &out[len(out)-1]
	last.Close, last.High, last.Low = price, decimal.Max(last.High, price), decimal.Min(last.Low, price)
	return out
}

// wroteColumns lists the columns the canvas's last Render wrote.
func wroteColumns(c *Canvas) []int {
	var cols []int
	for x, w := range c.g.wrote {
		if w {
			cols = append(cols, x)
		}
	}
	return cols
}

// TestCanvasLiveMoveDrawsOneColumn: a live price inside the range shown draws the newest candle's
// column and the price axis again, and styles only the rows that changed; a price outside it
// rescales, so everything is drawn. Either way the output is what Render draws. Guards: the
// chart pane drawing its whole plot for each live price (issue #34's idle profile, 7 %).
func TestCanvasLiveMoveDrawsOneColumn(t *testing.T) {
	t.Parallel()
	const w, h = 120, 30
	opts := Options{PriceDecimals: 1, Styles: colourStyles(), Interval: time.Minute}
	cs := walk(500, time.Minute, 64000)
	var c Canvas
	c.Render(cs, w, h, opts)
	if c.styled != h {
		t.Fatalf("the first drawing styled %d rows, want all %d", c.styled, h)
	}
	last := cs[len(cs)-1]
	mid := last.High.Add(last.Low).Div(decimal.NewFromInt(2)).Round(1)
	moved := withClose(cs, mid)
	got := c.Render(moved, w, h, opts)
	if want := Render(moved, w, h, opts); got != want {
		t.Fatalf("the canvas drew\n%s\nRender draws\n%s", got, want)
	}
	cols := wroteColumns(&c)
	x, axisX := c.l.x(len(c.l.visible)-1), c.l.axisX
	if len(cols) != 1+w-axisX || cols[0] != x || cols[1] != axisX {
		t.Fatalf("a live move inside the range wrote columns %v, want %d and %d..%d", cols, x, axisX, w-1)
	}
	if c.styled == 0 || c.styled > 4 {
		t.Fatalf("a live move inside the range styled %d rows, want 1 to 4", c.styled)
	}
	if c.Render(moved, w, h, opts); c.styled != 0 {
		t.Fatalf("the same candles again styled %d rows", c.styled)
	}
	far := withClose(cs, last.High.Mul(decimal.NewFromInt(2)))
	if got, want := c.Render(far, w, h, opts), Render(far, w, h, opts); got != want {
		t.Fatalf("after a rescale the canvas drew\n%s\nRender draws\n%s", got, want)
	}
	if cols := wroteColumns(&c); cols[0] != 0 {
		t.Fatalf("a price outside the range wrote columns %v: the plot should have been drawn again", cols)
	}
}

// TestCanvasDrawsWhatRenderDraws: through live moves in and out of the range, new candles,
// volume changes, resizes, narrow and empty series, the canvas's output is Render's each time,
// in colours (styled by their wraps), without, and in styles that do more than wrap a run
// (padding, underlined spaces: styled by lipgloss run by run, as Render does).
func TestCanvasDrawsWhatRenderDraws(t *testing.T) {
	t.Parallel()
	r := lipgloss.NewRenderer(os.Stdout)
	r.SetColorProfile(termenv.TrueColor)
	odd := Styles{
		Up:    r.NewStyle().Foreground(lipgloss.Color("#00ff00")).Bold(true).Background(lipgloss.Color("#101010")),
		Down:  r.NewStyle().Underline(true).Foreground(lipgloss.Color("#ff0000")),
		Axis:  r.NewStyle().PaddingLeft(1),
		Muted: r.NewStyle().Width(3),
	}
	for _, st := range []Styles{colourStyles(), {}, odd} {
		canvasMatchesRender(t, st)
	}
	if w := wrapsOf(odd); !w[sUp].ok || !w[sAxis].ok || w[sDown].ok || w[sMuted].ok {
		t.Fatalf("bold on a background and padded on the left wrap a run; underlined and sized do not: %+v", w)
	}
}

func canvasMatchesRender(t *testing.T, st Styles) {
	rng := rand.New(rand.NewPCG(3, 5))
	base := walk(80, time.Hour, 100)
	opts := Options{PriceDecimals: 2, Styles: st, Interval: time.Hour}
	var c Canvas
	cs, w, h := base[:40], 60, 14
	for step := range 400 {
		switch k := rng.IntN(20); {
		case len(cs) == 0:
			cs = base[:30]
		case k < 12: // a live price, mostly near the last close
			p := cs[len(cs)-1].Close.InexactFloat64() * (1 + (rng.Float64()-0.5)*0.03)
			cs = withClose(cs, decimal.NewFromFloat(p).Round(2))
		case k < 14: // the live candle's volume
			cs = append([]api.Candle(nil), cs...)
			cs[len(cs)-1].Volume = decimal.NewFromFloat(rng.Float64() * 600).Round(3)
		case k < 16: // a new candle, or back to fewer
			cs = base[:20+rng.IntN(len(base)-20)]
		case k < 18:
			w, h = 8+rng.IntN(90), 2+rng.IntN(30)
		case k < 19:
			cs = nil
			if rng.IntN(2) == 0 {
				cs = base[:1]
			}
		default:
			cs = base[:40]
		}
		if got, want := c.Render(cs, w, h, opts), Render(cs, w, h, opts); got != want {
			t.Fatalf("step %d (%d candles, %dx%d): the canvas drew\n%s\nRender draws\n%s", step, len(cs), w, h, got, want)
		}
	}
}

// BenchmarkLiveMove120x30 is a live price moving inside the range of a 120x30 chart of 500
// candles in colour, drawn by Render (all of it: what the chart pane did before) and by a Canvas.
func BenchmarkLiveMove120x30(b *testing.B) {
	cs := walk(500, time.Minute, 64000)
	last := cs[len(cs)-1]
	moves := [2][]api.Candle{withClose(cs, last.Low), withClose(cs, last.High)}
	opts := Options{PriceDecimals: 1, Styles: colourStyles()}
	b.Run("Render", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			_ = Render(moves[i%2], 120, 30, opts)
		}
	})
	b.Run("Canvas", func(b *testing.B) {
		b.ReportAllocs()
		var c Canvas
		for i := 0; b.Loop(); i++ {
			_ = c.Render(moves[i%2], 120, 30, opts)
		}
	})
}

// TestBarsAreOneAllocation: the candles' bars are made in one allocation of their size, not
// grown by appending (BenchmarkRender120x30's 72 KB had become 120 KB).
func TestBarsAreOneAllocation(t *testing.T) {
	cs := walk(500, time.Minute, 64000)
	if n := testing.AllocsPerRun(10, func() { _ = toBars(cs) }); n != 1 {
		t.Fatalf("toBars of 500 candles allocates %v times, want 1", n)
	}
}
