package chart

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	plot "github.com/tradedesk/tradedesk/ui/chart"
	"github.com/tradedesk/tradedesk/ui/common"
)

// resolutions are the chart's resolutions in order, with their candle periods.
var resolutions = []struct {
	name   string
	label  string
	period time.Duration
}{
	{"1", "1m", time.Minute}, {"5", "5m", 5 * time.Minute}, {"15", "15m", 15 * time.Minute},
	{"30", "30m", 30 * time.Minute}, {"60", "1h", time.Hour}, {"240", "4h", 4 * time.Hour},
	{"1D", "1D", 24 * time.Hour}, {"1W", "1W", 7 * 24 * time.Hour},
}

// types are the chart's price series.
var types = []string{"mark", "index", "ltp"}

// CandleCount is how many candles the chart asks for: more than the widest screen shows.
const CandleCount = 300

// Pane draws the current instrument's candles, with the last candle following the ticker.
type Pane struct {
	*common.Common
	ex      api.Exchange
	f       *feed.Task
	styles  plot.Styles
	symbol  string // the instrument shown
	res     int    // index into resolutions
	typ     int    // index into types
	candles []api.Candle
	loaded  loadKey // what candles were made from
	key     viewKey // what the cached view was drawn from
	view    string
	own     bool        // candles is the pane's own copy (followLive's), not the store's
	plot    plot.Canvas // draws again only what a live price moved
	w, h    int
}

// New is the chart pane; it reads candles through ex.
func New(c *common.Common, ex api.Exchange) *Pane {
	t := c.Styles.Theme
	p := &Pane{Common: c, ex: ex, res: 2, styles: plot.Styles{
		Up: common.Fg(t, t.Up), Down: common.Fg(t, t.Down), Axis: common.Fg(t, t.Muted), Muted: common.Fg(t, t.Muted),
	}}
	p.f = common.PaneTask(c, state.KindChart, p.every, p.request)
	return p
}

// ChartKey is the series shown.
func (p *Pane) ChartKey() state.ChartKey {
	return state.ChartKey{Symbol: p.symbol, ChartType: types[p.typ], Resolution: resolutions[p.res].name}
}

func (p *Pane) period() time.Duration { return resolutions[p.res].period }

// every waits until just after the current candle closes (at most an hour: the last candle
// follows the ticker in between).
func (p *Pane) every() time.Duration {
	per := p.period()
	now := p.Clock()
	next := now.Truncate(per).Add(per).Sub(now) + 2*time.Second
	return min(next, time.Hour)
}

// request fetches the series shown, or nothing until an instrument is known.
func (p *Pane) request() feed.Request {
	in, ok := p.Store.Instrument(p.symbol)
	if !ok {
		return nil
	}
	k, ex := p.ChartKey(), p.ex
	per := p.period()
	return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
		to := at.Unix()
		from := at.Add(-per * CandleCount).Unix()
		cs, err := ex.Chart(ctx, api.ChartParams{InstrumentID: in.ID, ChartType: k.ChartType, Resolution: k.Resolution, From: from, To: to})
		return state.ChartMsg{Gen: gen, At: at, Key: k, Candles: cs}, err
	}
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Chart" }

// Kinds implements common.KindsShower.
func (p *Pane) Kinds() []state.Kind { return []state.Kind{state.KindChart} }

// SetSize implements common.Pane.
func (p *Pane) SetSize(w, h int) { p.w, p.h = w, h }

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(bool) {}

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.StartPanesMsg:
		p.follow()
		return common.Tea(p.f.Start())
	case common.DataMsg:
		var cmd tea.Cmd
		// A new instrument, or the instruments arriving after the instrument was picked (the
		// request needs its id): fetch now.
		if p.follow() || (msg.Kind == state.KindInstruments && !p.Store.Freshness(state.KindChart).Loaded() && !p.f.InFlight()) {
			cmd = common.Tea(p.f.Poll())
		}
		if msg.Kind == state.KindChart || msg.Kind == state.KindTickers || cmd != nil {
			p.load()
		}
		return cmd
	case tea.KeyMsg:
		return p.handleKey(msg)
	}
	return nil
}

// follow tracks the current instrument (the first instrument until one is picked); it reports
// whether it changed.
func (p *Pane) follow() bool {
	sym := p.ShownInstrument()
	if sym == p.symbol {
		return false
	}
	p.symbol = sym
	return true
}

func (p *Pane) handleKey(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, p.Keys.ChartFiner):
		p.res = max(p.res-1, 0)
	case key.Matches(msg, p.Keys.ChartCoarser):
		p.res = min(p.res+1, len(resolutions)-1)
	case key.Matches(msg, p.Keys.ChartType):
		p.typ = (p.typ + 1) % len(types)
	default:
		return nil
	}
	p.load()
	return common.Tea(p.f.Poll())
}

// load takes the series from the store and moves its last candle with the live price. It does
// nothing while what it read last is the same (the series, the store's candles, the price and
// the live candle's start): a batch of 509 streamed tickers that moved other instruments copies
// no candles (issue #34).
func (p *Pane) load() {
	v := p.Store.Version(state.KindChart) // before the candles: a change between reads again next time
	cs := p.Store.Candles(p.ChartKey())
	price, ok := p.livePrice()
	if !ok || len(cs) == 0 {
		p.candles, p.loaded, p.own = cs, loadKey{}, false
		return
	}
	now := p.Clock()
	k := loadKey{series: p.ChartKey(), version: v, price: price, start: liveStart(cs[len(cs)-1], now, p.period())}
	if k == p.loaded {
		return
	}
	p.loaded = k
	// A live price, or the stream's update of the last candle: the pane's own copy takes them in
	// its last candles when it holds the others already, not a new copy of the series.
	if p.own && refollow(p.candles, cs, price, now, p.period()) {
		return
	}
	p.candles, p.own = followLive(cs, price, now, p.period()), true
}

// loadKey is what load made the candles shown from. The price is compared as it is held (a
// price the stream did not change is the same value), so an equal one read anew loads again.
type loadKey struct {
	series  state.ChartKey
	version uint64
	price   decimal.Decimal
	start   time.Time
}

// livePrice is the ticker's price of the series' type.
func (p *Pane) livePrice() (decimal.Decimal, bool) {
	t, ok := p.Store.Ticker(p.symbol)
	if !ok {
		return decimal.Zero, false
	}
	var v decimal.Decimal
	switch types[p.typ] {
	case "mark":
		v = t.MarkPrice
	case "index":
		v = t.IndexPrice
	default:
		v = t.LastPrice
	}
	return v, v.IsPositive()
}

// followLive returns candles whose last candle includes price: a price inside the last candle's
// period moves its close (and high or low); a price after it opens a new candle. The store's
// slice is not changed.
func followLive(cs []api.Candle, price decimal.Decimal, now time.Time, period time.Duration) []api.Candle {
	out := make([]api.Candle, len(cs), len(cs)+1)
	copy(out, cs)
	live, opens, ok := liveCandle(cs[len(cs)-1], price, now, period)
	switch {
	case opens:
		out = append(out, live)
	case ok:
		out[len(out)-1] = live
	}
	return out
}

// refollow makes out what followLive makes of cs, in place, when out holds cs's candles but its
// last (candles followLive made of the same series before its last candle or the price moved);
// it reports whether it could.
func refollow(out, cs []api.Candle, price decimal.Decimal, now time.Time, period time.Duration) bool {
	n := len(cs)
	live, opens, ok := liveCandle(cs[n-1], price, now, period)
	want := n
	if opens {
		want++
	}
	if len(out) != want || !slices.Equal(out[:n-1], cs[:n-1]) {
		return false
	}
	out[n-1] = cs[n-1]
	switch {
	case opens:
		out[n] = live
	case ok:
		out[n-1] = live
	}
	return true
}

// liveCandle is the candle of now at price, last being the series' last candle: last itself
// moved when now is inside it, or a new candle that opens after it (opens); ok is false when
// now is before last.
func liveCandle(last api.Candle, price decimal.Decimal, now time.Time, period time.Duration) (c api.Candle, opens, ok bool) {
	start := liveStart(last, now, period)
	switch {
	case start.After(last.Time.Time):
		return api.Candle{Time: api.Time{Time: start}, Open: last.Close,
			High: decimal.Max(last.Close, price), Low: decimal.Min(last.Close, price), Close: price}, true, true
	case start.Equal(last.Time.Time):
		last.Close = price
		last.High = decimal.Max(last.High, price)
		last.Low = decimal.Min(last.Low, price)
		return last, false, true
	}
	return last, false, false
}

// liveStart is when the candle of now starts, the series' last candle being last.
func liveStart(last api.Candle, now time.Time, period time.Duration) time.Time {
	if period < 24*time.Hour {
		return now.Truncate(period)
	}
	start := last.Time.Time // day and week candles start at midnight UTC (weeks as the exchange sends)
	for !now.Before(start.Add(period)) {
		start = start.Add(period)
	}
	return start
}

// View implements Pane: a header line and the chart, drawn again only when the candles, the live
// price or the size changed.
func (p *Pane) View() string {
	k := p.viewKey()
	if !k.same(p.key) {
		p.key = k
		p.view = p.render()
	}
	return p.view
}

// viewKey is what the view is drawn from.
type viewKey struct {
	series  state.ChartKey
	version uint64 // the store's candles (a poll may change older candles than the last)
	w, h    int
	n       int
	last    api.Candle
	fresh   string // the data's age and error, when stale, failed or not loaded
}

// same reports whether k draws what o draws: the last candle's prices compared by value.
func (k viewKey) same(o viewKey) bool {
	a, b := k.last, o.last
	return k.series == o.series && k.version == o.version && k.w == o.w && k.h == o.h && k.n == o.n && k.fresh == o.fresh &&
		a.Time.Equal(b.Time.Time) && a.Open.Equal(b.Open) && a.High.Equal(b.High) && a.Low.Equal(b.Low) &&
		a.Close.Equal(b.Close) && a.Volume.Equal(b.Volume)
}

func (p *Pane) viewKey() viewKey {
	k := viewKey{series: p.ChartKey(), version: p.Store.Version(state.KindChart), w: p.w, h: p.h, n: len(p.candles)}
	if k.n > 0 {
		k.last = p.candles[k.n-1]
	}
	if f := p.Store.Freshness(state.KindChart); f.Stale || f.Err != nil || !f.Loaded() {
		k.fresh = "|" + common.FmtAge(f.Age)
		if f.Err != nil {
			k.fresh += f.Err.Error()
		}
	}
	return k
}

func (p *Pane) render() string {
	if p.w <= 0 || p.h <= 0 {
		return ""
	}
	header := p.header()
	if p.h == 1 {
		return header
	}
	in, _ := p.Store.Instrument(p.symbol)
	empty := "loading " + p.symbol + " candles…"
	f := p.Store.Freshness(state.KindChart)
	switch {
	case p.symbol == "":
		empty = "waiting for instruments…"
	case f.Err != nil && len(p.candles) == 0:
		empty = "chart failed: " + common.PlainError(f.Err) + " (retrying)"
	case f.Loaded() && f.Err == nil && len(p.candles) == 0:
		empty = "no candles for " + p.symbol + " at " + resolutions[p.res].label
	}
	body := p.plot.Render(p.candles, p.w, p.h-1, plot.Options{
		PriceDecimals: in.PriceDecimals(), Styles: p.styles, Empty: empty, Interval: p.period(),
	})
	return header + "\n" + body
}

// header names the series, shows the last candle's OHLCV and the keys, or the data's staleness.
func (p *Pane) header() string {
	st := p.Styles
	in, _ := p.Store.Instrument(p.symbol)
	pd := in.PriceDecimals()
	var b strings.Builder
	b.WriteString(st.Bold.On(p.symbol) + " " + st.Accent.On(types[p.typ]+" "+resolutions[p.res].label))
	if n := len(p.candles); n > 0 {
		c := p.candles[n-1]
		pt := st.Up
		if c.Close.LessThan(c.Open) {
			pt = st.Down
		}
		b.WriteString(" " + pt.On("O "+common.FmtNum(c.Open, pd)+" H "+common.FmtNum(c.High, pd)+" L "+common.FmtNum(c.Low, pd)+" C "+common.FmtNum(c.Close, pd)))
		if c.Volume.IsPositive() {
			b.WriteString(st.Muted.On(" V " + common.FmtCompact(c.Volume)))
		}
	}
	if s := common.FreshLine(st, p.Store, state.KindChart, p.w); s != "" && len(p.candles) > 0 {
		return common.FitStyled(b.String()+" "+strings.TrimRight(s, " "), p.w)
	}
	k := p.Keys
	b.WriteString(st.Muted.On("  " + common.KeyName(k.ChartFiner) + " " + common.KeyName(k.ChartCoarser) + " resolution · " + common.KeyName(k.ChartType) + " type"))
	return common.FitStyled(b.String(), p.w)
}

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding {
	return []key.Binding{p.Keys.ChartFiner, p.Keys.ChartType}
}

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding {
	return [][]key.Binding{{p.Keys.ChartFiner, p.Keys.ChartCoarser, p.Keys.ChartType}}
}

// Candles are the candles shown (the last one following the ticker).
func (p *Pane) Candles() []api.Candle { return p.candles }

// Symbol is the instrument shown ("" until the pane has heard of one).
func (p *Pane) Symbol() string { return p.symbol }
