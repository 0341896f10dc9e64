package sim

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// retained is the heap that what build returns holds, in bytes: the median of three builds,
// each kept alive until the collection after it. The process's heap is measured, so another
// goroutine (a server of an earlier test winding down) can move one reading either way; the
// median leaves such a one out.
func retained(build func() any) uint64 {
	var got [3]uint64
	for i := range got {
		before := liveHeap()
		v := build()
		after := liveHeap()
		runtime.KeepAlive(v)
		got[i] = after - min(before, after)
	}
	slices.Sort(got[:])
	return got[1]
}

// A simulator with 500 synthetic markets holds them in a few MB: their made-up candles share a
// budget instead of costing most of a MB each (as the default markets' do once every chart of
// theirs is asked for). Each market's cost is a ratio within this run: a synthetic market's
// retained heap against a default one's, four simulators' worth of default markets measured so
// that their reading is well above another goroutine's noise. It measures the process's heap,
// so it runs alone (not in parallel); TestSyntheticPerpsAreListedQuotedAndTraded runs them.
// Under -race two simulators' worth, not four (drawing every chart of theirs is most of the
// test's CPU, several times dearer there): a default market still reads at nearly 1 MB, fifty
// times a synthetic one; the plain run keeps four.
func TestMarketsAddsSyntheticPerpsInAFewMB(t *testing.T) {
	clock := NewTestClock(testStart)
	sims := 4
	if raceBuild {
		sims = 2
	}
	defaults := func(drawn bool) uint64 {
		return retained(func() any {
			s := make([]*Sim, sims)
			for i := range s {
				s[i] = New(WithSeed(3), WithClock(clock))
				for _, m := range s[i].eng.markets { // each default market's whole made-up past, as asked for
					for k := range m.charts.s {
						for r := range m.charts.s[k] {
							if drawn {
								m.charts.series(k, r)
							}
						}
					}
				}
			}
			return s
		}) / uint64(sims)
	}
	plain, full := defaults(false), defaults(true)
	many := retained(func() any { return New(WithSeed(3), WithClock(clock), WithMarkets(500)) })
	perDefault := float64(full) / float64(len(defaultMarkets()))
	perSynthetic := float64(many-min(plain, many)) / 500
	t.Logf("heap: %.1f MB with the 9 default markets (%.1f MB, %.0f kB each, with every chart asked for), %.1f MB with 500 synthetic ones more (%.1f kB each)",
		float64(plain)/1e6, float64(full)/1e6, perDefault/1e3, float64(many)/1e6, perSynthetic/1e3)
	if plain == 0 || perSynthetic > perDefault/8 || many > plain+64<<20 {
		t.Errorf("500 synthetic markets take %.0f kB each (%.1f MB in all); a default market takes %.0f kB: their history is not bounded",
			perSynthetic/1e3, float64(many-min(plain, many))/1e6, perDefault/1e3)
	}
}

// A simulator with 500 synthetic markets lists them beside the default instruments, quotes and
// trades them, and draws their made-up past.
func TestSyntheticPerpsAreListedQuotedAndTraded(t *testing.T) {
	t.Parallel()
	clock := NewTestClock(testStart)
	// Two minutes of market in steps of 20 s: the loop moves, quotes and trades all 506 markets
	// six times (at the default second, 120 times: most of the test's time, 10x that under -race).
	s := New(WithSeed(3), WithClock(clock), WithMarkets(500), WithStep(20*time.Second))
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	s.Advance(2 * time.Minute)
	c := api.New(srv.URL)
	ins, err := c.Instruments(context.Background(), "all")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ins.Perps); n != 6+500 {
		t.Fatalf("%d perpetuals listed, want the 6 default ones and 500 synthetic", n)
	}
	last := ins.Perps[len(ins.Perps)-1]
	if last.Name != "SYN500-PERP" || last.ID != 1500 || !last.TickSize.IsPositive() || !last.LotSize.IsPositive() {
		t.Errorf("last perpetual %s (id %d, tick %s, lot %s), want SYN500-PERP id 1500 with a tick and a lot",
			last.Name, last.ID, last.TickSize, last.LotSize)
	}
	ts, err := c.Ticker(context.Background(), "SYN500-PERP")
	if err != nil || len(ts) != 1 || !ts[0].BestBidPrice.IsPositive() || !ts[0].BestAskPrice.GreaterThan(ts[0].BestBidPrice) ||
		!ts[0].Volume24h.IsPositive() {
		t.Fatalf("SYN500-PERP ticker: %+v, %v; want a quoted market with a 24-hour volume", ts, err)
	}
	for _, typ := range api.ChartTypes {
		cs, err := c.Chart(context.Background(), api.ChartParams{InstrumentID: 1500, ChartType: typ, Resolution: "1",
			From: clock.Now().Add(-24 * time.Hour).Unix(), To: clock.Now().Unix()})
		if err != nil || len(cs) < 8 {
			t.Fatalf("SYN500-PERP %s one-minute candles: %d, %v; want its made-up history", typ, len(cs), err)
		}
	}
}

// Synthetic markets leave the default ones as they were: the same seed draws the same made-up
// history for BTC-PERP with or without them, and SYNk-PERP is the same whatever the number added.
func TestSyntheticMarketsLeaveTheDefaultOnesAlone(t *testing.T) {
	t.Parallel()
	plain := New(WithSeed(5), WithClock(NewTestClock(testStart)))
	more := New(WithSeed(5), WithClock(NewTestClock(testStart)), WithMarkets(3))
	most := New(WithSeed(5), WithClock(NewTestClock(testStart)), WithMarkets(40))
	btc := func(s *Sim) []bar { return s.eng.byID[1].charts.series(chartLTP, 0).bars }
	if a, b := btc(plain), btc(more); len(a) != len(b) || a[0] != b[0] || a[len(a)-1] != b[len(b)-1] {
		t.Error("BTC-PERP's made-up history changed when synthetic markets were added")
	}
	if a, b := more.eng.byID[1002], most.eng.byID[1002]; a.name != "SYN2-PERP" || a.start.String() != b.start.String() || !a.tick.d.Equal(b.tick.d) {
		t.Errorf("SYN2-PERP: %s at %s (tick %s) with 3 markets, %s at %s (tick %s) with 40", a.name, a.start, a.tick.d, b.name, b.start, b.tick.d)
	}
	if CheckMarkets(-1) == nil || CheckMarkets(MaxMarkets+1) == nil || CheckMarkets(0) != nil || CheckMarkets(MaxMarkets) != nil {
		t.Error("CheckMarkets: want 0 to MaxMarkets taken, anything else refused")
	}
	if err := CheckMarkets(-1); !strings.Contains(err.Error(), "want 0 to") {
		t.Errorf("CheckMarkets(-1) = %v: does not say what to give", err)
	}
}

// A synthetic market's live candles stay within the storage its charts started with: a day of
// prices and trades adds bars and drops the oldest, and the mark and index candles are its
// prices without the volume.
func TestCompactChartsStayBounded(t *testing.T) {
	t.Parallel()
	keeps := syntheticKeeps(500)
	c := newCompactCharts(testStart.UnixMilli(), keeps)
	caps := func() (n int) {
		for _, x := range c.s[chartLTP] {
			n += cap(x.bars)
		}
		return n + cap(c.day.bars)
	}
	start := caps()
	for i := range 24 * 60 * 6 {
		at := testStart.Add(time.Duration(i) * 10 * time.Second)
		c.point(chartMark, at, int64(1000+i%7))
		c.trade(at, int64(1000+i%5), 3)
	}
	if got := caps(); got != start {
		t.Errorf("a day of live data took the compact charts from %d bars of storage to %d", start, got)
	}
	if n := len(c.s[chartLTP][0].bars); n < keeps[0] || n > capFor(keeps[0]) {
		t.Errorf("%d one-minute bars kept, want %d to %d", n, keeps[0], capFor(keeps[0]))
	}
	notional, _ := c.stats24h(testStart.Add(24 * time.Hour))
	if notional <= 0 {
		t.Error("no 24-hour volume from the hour-long slots")
	}
	m := &market{marketSpec: marketSpec{tick: mustUnit("0.01"), lot: mustUnit("1")}}
	to := testStart.Add(24 * time.Hour).UnixMilli()
	for typ, want := range map[int]bool{chartMark: false, chartIndex: false, chartLTP: true} {
		cs := c.candles(m, typ, 0, to-3600_000, to)
		if len(cs) == 0 || cs[len(cs)-1].Volume.IsPositive() != want {
			t.Errorf("chart type %d: %d candles, volume shown %v, want %v", typ, len(cs), !want, want)
		}
	}
}

// BenchmarkStepMarkets runs market steps with the 9 default markets and with 500 synthetic
// ones more, in the same run, and reports the cost of one market's step at each size and their
// ratio (about 1: a market's requote cancels its own quotes, not a scan of every market's).
func BenchmarkStepMarkets(b *testing.B) {
	sims := []*Sim{New(WithSeed(1), WithClock(NewTestClock(testStart))),
		New(WithSeed(1), WithClock(NewTestClock(testStart)), WithMarkets(500))}
	took := make([]time.Duration, len(sims))
	for b.Loop() {
		for i, s := range sims {
			start := time.Now()
			s.Advance(time.Second)
			took[i] += time.Since(start)
		}
	}
	per := func(i int) float64 {
		return float64(took[i].Nanoseconds()) / float64(b.N) / float64(len(sims[i].eng.markets))
	}
	b.ReportMetric(per(0), "ns/market-step@9")
	b.ReportMetric(per(1), "ns/market-step@509")
	b.ReportMetric(per(1)/per(0), "ratio")
}

// The stream's candles of a synthetic market read the same compact charts: its mark candle
// shows no volume, its last-price candle the traded volume.
func TestSyntheticMarketStreamCandles(t *testing.T) {
	t.Parallel()
	e := newEnv(t, WithMarkets(1))
	e.sim.Advance(2 * time.Minute)
	c := e.wsDial(t)
	vol := map[string]string{}
	for i, typ := range []string{"mark", "ltp"} {
		id := string(rune('1' + i))
		wsSend(t, c, `{"jsonrpc":"2.0","id":"`+id+`","method":"subscribe","params":{"channel":"chart","symbol":"1001","chart_type":"`+typ+`","resolution":"60"}}`)
		m := wsRead(t, c, func(m wsMsg) bool {
			return m.Method == "subscription" && strings.Contains(m.Params.Channel, ":"+typ+":")
		})
		var k struct {
			Volume json.Number `json:"volume"`
		}
		if err := json.Unmarshal(m.Params.Data, &k); err != nil {
			t.Fatalf("%s candle %s: %v", typ, m.Params.Data, err)
		}
		vol[typ] = k.Volume.String()
	}
	if vol["mark"] != "0" || vol["ltp"] == "0" || vol["ltp"] == "" {
		t.Errorf("SYN1-PERP streamed candles: mark volume %q, last-price volume %q; want 0 and the traded volume", vol["mark"], vol["ltp"])
	}
}
