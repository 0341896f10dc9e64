package chart

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// walk makes n deterministic candles of the given period starting at a fixed time.
func walk(n int, period time.Duration, start float64) []api.Candle {
	rng := rand.New(rand.NewPCG(7, 11))
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	price := start
	out := make([]api.Candle, n)
	for i := range out {
		open := price
		closePx := open * (1 + (rng.Float64()-0.5)*0.02)
		high := max(open, closePx) * (1 + rng.Float64()*0.006)
		low := min(open, closePx) * (1 - rng.Float64()*0.006)
		out[i] = api.Candle{
			Time:   api.Time{Time: t0.Add(time.Duration(i) * period)},
			Open:   decimal.NewFromFloat(open).Round(1),
			High:   decimal.NewFromFloat(high).Round(1),
			Low:    decimal.NewFromFloat(low).Round(1),
			Close:  decimal.NewFromFloat(closePx).Round(1),
			Volume: decimal.NewFromFloat(rng.Float64() * 500).Round(3),
		}
		price = closePx
	}
	return out
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui/chart -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file:\n got:\n%s\nwant:\n%s", name, got, want)
	}
}

// checkSize fails unless s is exactly w columns by h rows.
func checkSize(t *testing.T, s string, w, h int) {
	t.Helper()
	rows := strings.Split(s, "\n")
	if len(rows) != h {
		t.Fatalf("got %d rows, want %d", len(rows), h)
	}
	for i, r := range rows {
		if n := lipgloss.Width(r); n != w {
			t.Fatalf("row %d is %d wide, want %d: %q", i, n, w, r)
		}
	}
}

func TestRenderGolden(t *testing.T) {
	candles := walk(90, 15*time.Minute, 64250)
	for _, size := range []struct{ w, h int }{{60, 16}, {120, 30}} {
		name := "candles_" + itoa(size.w) + "x" + itoa(size.h)
		t.Run(name, func(t *testing.T) {
			got := Render(candles, size.w, size.h, Options{PriceDecimals: 1})
			checkSize(t, got, size.w, size.h)
			golden(t, name, got)
		})
	}
}

func itoa(n int) string { return decimal.NewFromInt(int64(n)).String() }

func TestRenderEdgeCases(t *testing.T) {
	one := walk(1, time.Hour, 100)
	flat := walk(20, time.Minute, 5)
	for i := range flat {
		p := decimal.RequireFromString("5.25")
		flat[i].Open, flat[i].High, flat[i].Low, flat[i].Close = p, p, p, p
	}
	cases := []struct {
		name    string
		candles []api.Candle
		w, h    int
	}{
		{"empty", nil, 40, 10},
		{"one", one, 40, 10},
		{"flat", flat, 40, 10},
		{"narrow", walk(200, time.Hour, 3000), 30, 12},
		{"tiny", walk(5, time.Hour, 3000), 8, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Render(c.candles, c.w, c.h, Options{PriceDecimals: 2})
			checkSize(t, got, c.w, c.h)
			golden(t, "edge_"+c.name, got)
		})
	}
}

// TestRenderWithoutVolume gives every row to the candles when the series has no volume.
func TestRenderWithoutVolume(t *testing.T) {
	cs := walk(30, time.Hour, 100)
	for i := range cs {
		cs[i].Volume = decimal.Zero
	}
	l := plan(newGrid(60, 20), toBars(cs), Options{PriceDecimals: 2})
	if l.volRows != 0 || l.priceRows != 19 {
		t.Fatalf("volume rows %d, price rows %d", l.volRows, l.priceRows)
	}
	got := Render(cs, 60, 20, Options{PriceDecimals: 2})
	checkSize(t, got, 60, 20)
	if strings.ContainsAny(got, "▁▂▃▄▅▆▇█") {
		t.Fatalf("volume bars drawn for a series without volume:\n%s", got)
	}
}

func TestRenderEmptyMessage(t *testing.T) {
	got := Render(nil, 30, 5, Options{Empty: "loading BTC-PERP"})
	if !strings.Contains(got, "loading BTC-PERP") {
		t.Fatalf("custom empty message missing:\n%s", got)
	}
	if Render(nil, 0, 5, Options{}) != "" || Render(walk(3, time.Hour, 1), 5, -1, Options{}) != "" {
		t.Fatal("non-positive size must render nothing")
	}
}

// TestRenderNarrowShowsNewest checks that when the candles outnumber the columns the newest are shown.
func TestRenderNarrowShowsNewest(t *testing.T) {
	cs := walk(200, time.Hour, 3000)
	w, h := 30, 12
	l := plan(newGrid(w, h), toBars(cs), Options{PriceDecimals: 2})
	if len(l.visible) != l.plotW || l.step != 1 {
		t.Fatalf("visible %d candles at step %d in %d columns, want one per column", len(l.visible), l.step, l.plotW)
	}
	if !l.visible[len(l.visible)-1].t.Equal(cs[len(cs)-1].Time.Time) {
		t.Fatal("the newest candle is not the last one shown")
	}
}

// TestRenderFlatLabels checks that a flat market labels its price at the instrument's precision.
func TestRenderFlatLabels(t *testing.T) {
	flat := walk(3, time.Minute, 5)
	for i := range flat {
		p := decimal.RequireFromString("5.25")
		flat[i].Open, flat[i].High, flat[i].Low, flat[i].Close = p, p, p, p
	}
	got := Render(flat, 40, 10, Options{PriceDecimals: 3})
	if !strings.Contains(got, "5.250") {
		t.Fatalf("flat price label 5.250 missing:\n%s", got)
	}
}

// TestRenderStylesPerRun checks colours are applied and that a row is styled per run, not per cell.
func TestRenderStylesPerRun(t *testing.T) {
	r := lipgloss.NewRenderer(os.Stdout)
	r.SetColorProfile(termenv.TrueColor)
	st := Styles{
		Up:   r.NewStyle().Foreground(lipgloss.Color("#00ff00")),
		Down: r.NewStyle().Foreground(lipgloss.Color("#ff0000")),
		Axis: r.NewStyle().Foreground(lipgloss.Color("#888888")),
	}
	cs := walk(30, time.Hour, 100)
	got := Render(cs, 50, 12, Options{PriceDecimals: 2, Styles: st})
	checkSize(t, got, 50, 12)
	if !strings.Contains(got, "\x1b[") {
		t.Fatal("styled output has no escape sequences")
	}
	axisRow := strings.Split(got, "\n")[11]
	if n := strings.Count(axisRow, "\x1b[38"); n != 1 {
		t.Fatalf("the time axis row should be one styled run, got %d colour sequences", n)
	}
}

func TestFormatPrice(t *testing.T) {
	cases := []struct {
		v    float64
		d    int32
		want string
	}{
		{64250.44, 1, "64,250.4"},
		{1234567, 0, "1,234,567"},
		{0.000123, 6, "0.000123"},
		{-1234.5, 2, "-1,234.50"},
		{-0.0001, 2, "0.00"},
		{999, 2, "999.00"},
	}
	for _, c := range cases {
		if got := formatPrice(c.v, c.d); got != c.want {
			t.Errorf("formatPrice(%v, %d) = %q, want %q", c.v, c.d, got, c.want)
		}
	}
}

func TestCompact(t *testing.T) {
	cases := map[float64]string{950: "950", 12345: "12.35k", 4.5e6: "4.5M", 7.8e9: "7.8B", 0.25: "0.25", 1e12: "1T"}
	for v, want := range cases {
		if got := compact(v); got != want {
			t.Errorf("compact(%v) = %q, want %q", v, got, want)
		}
	}
}

func BenchmarkRender120x30(b *testing.B) {
	cs := walk(500, time.Minute, 64000)
	for b.Loop() {
		_ = Render(cs, 120, 30, Options{PriceDecimals: 1})
	}
}

// FuzzRender: any candles (even malformed) at any size give exactly w x h cells and no panic.
func FuzzRender(f *testing.F) {
	f.Add(int64(100), int64(90), int64(110), int64(95), int64(5), 40, 10, 3)
	f.Add(int64(0), int64(0), int64(0), int64(0), int64(0), 12, 4, 1)
	f.Add(int64(-5), int64(10), int64(-20), int64(3), int64(-1), 1, 1, 50)
	f.Fuzz(func(t *testing.T, o, h, l, c, v int64, w, ht, n int) {
		if w < 0 || ht < 0 || w > 300 || ht > 100 || n < 0 || n > 500 {
			return
		}
		cs := make([]api.Candle, n)
		for i := range cs {
			k := int64(i)
			cs[i] = api.Candle{Time: api.Time{Time: time.Unix(1700000000+k*60, 0)}, Open: decimal.NewFromInt(o + k),
				High: decimal.NewFromInt(h - k), Low: decimal.NewFromInt(l + k%7), Close: decimal.NewFromInt(c), Volume: decimal.NewFromInt(v * k)}
		}
		got := Render(cs, w, ht, Options{PriceDecimals: 2})
		if w == 0 || ht == 0 {
			if got != "" {
				t.Fatal("non-empty output for an empty size")
			}
			return
		}
		checkSize(t, got, w, ht)
	})
}
