package chart

import (
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func TestFollowLive(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	cs := []api.Candle{{Time: api.Time{Time: t0}, Open: d("10"), High: d("12"), Low: d("9"), Close: d("11")}}
	cases := []struct {
		name          string
		now           time.Time
		period        time.Duration
		price         string
		n             int
		o, h, l, last string
	}{
		{"inside the candle, a new high", t0.Add(5 * time.Minute), 15 * time.Minute, "13", 1, "10", "13", "9", "13"},
		{"inside the candle, a new low", t0.Add(14 * time.Minute), 15 * time.Minute, "8", 1, "10", "12", "8", "8"},
		{"after it: a new candle opens at the last close", t0.Add(16 * time.Minute), 15 * time.Minute, "11.5", 2, "11", "11.5", "11", "11.5"},
		{"day candles", t0.Add(20 * time.Hour), 24 * time.Hour, "10.5", 1, "10", "12", "9", "10.5"},
		{"the next day", t0.Add(25 * time.Hour), 24 * time.Hour, "10.5", 2, "11", "11", "10.5", "10.5"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := followLive(cs, d(c.price), c.now, c.period)
			k := out[len(out)-1]
			if len(out) != c.n || k.Open.String() != c.o || k.High.String() != c.h || k.Low.String() != c.l || k.Close.String() != c.last {
				t.Fatalf("%d candles, last %s/%s/%s/%s", len(out), k.Open, k.High, k.Low, k.Close)
			}
			if !cs[0].Close.Equal(d("11")) {
				t.Fatal("the input was changed")
			}
		})
	}
}

// TestPaneLivePriceMovesItsOwnLastCandle: a live price that moves only the live candle, and the
// stream's update of the last candle, are taken in the pane's own copy of the series (no copy of
// the 300 candles per price or update), the candles and the view being those of a pane that
// loads the series afresh. Guards: load copying the whole series with followLive for each
// (issue #34's idle garbage).
func TestPaneLivePriceMovesItsOwnLastCandle(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 2, 9, 7, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	st := state.New(clock)
	st.Apply(state.InstrumentsMsg{Gen: 1, At: now, Instruments: api.Instruments{Perps: []api.PerpInstrument{
		{ID: 1, Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001"), MaxLeverage: d("50"), MinNotionalUSD: d("10")},
	}}})
	var cs []api.Candle
	for i := range 60 {
		px := decimal.NewFromInt(int64(64000 + (i*37)%400))
		cs = append(cs, api.Candle{Time: api.Time{Time: now.Truncate(15 * time.Minute).Add(time.Duration(i-59) * 15 * time.Minute)},
			Open: px, High: px.Add(d("50")), Low: px.Sub(d("40")), Close: px.Add(d("10")), Volume: d("12.5")})
	}
	st.Apply(state.ChartMsg{Gen: 1, At: now, Key: state.ChartKey{Symbol: "BTC-PERP", ChartType: "mark", Resolution: "15"}, Candles: cs})
	ticker := func(px string) {
		st.Apply(state.TickerUpdateMsg{At: now, Ticker: api.Ticker{Symbol: "BTC-PERP", MarkPrice: d(px)}})
	}
	pane := func() *Pane {
		p := New(commontest.NewCommon(t, st, clock), nil)
		p.SetSize(100, 20)
		p.Update(common.DataMsg{Kind: state.KindTickers})
		return p
	}
	ticker("64100")
	p := pane()
	_ = p.View()
	made := &p.Candles()[0]
	ticker("64150.5")
	p.Update(common.DataMsg{Kind: state.KindTickers})
	if &p.Candles()[0] != made {
		t.Fatal("a live price made the series again: the live candle should move in the pane's copy")
	}
	fresh := pane()
	if !slices.Equal(p.Candles(), fresh.Candles()) || p.View() != fresh.View() {
		t.Fatalf("after a live price the pane shows\n%s\na pane loaded afresh shows\n%s", p.View(), fresh.View())
	}
	// The stream's update of the last candle (a new volume, a new low) likewise.
	upd := cs[len(cs)-1]
	upd.Low, upd.Volume = upd.Low.Sub(d("100")), d("20")
	st.Apply(state.CandleUpdateMsg{At: now, Key: state.ChartKey{Symbol: "BTC-PERP", ChartType: "mark", Resolution: "15"}, Candle: upd})
	p.Update(common.DataMsg{Kind: state.KindChart})
	if &p.Candles()[0] != made || !p.Candles()[len(cs)-1].Volume.Equal(d("20")) {
		t.Fatal("the stream's update of the last candle made the series again, or was not taken")
	}
	if fresh := pane(); !slices.Equal(p.Candles(), fresh.Candles()) || p.View() != fresh.View() {
		t.Fatalf("after the last candle's update the pane shows\n%s\na pane loaded afresh shows\n%s", p.View(), fresh.View())
	}
	if !cs[len(cs)-1].Close.Equal(d("64000").Add(d("10")).Add(decimal.NewFromInt(int64((59 * 37) % 400)))) {
		t.Fatal("the store's candles were changed")
	}
}

// TestPaneDrawsAPollThatChangedAnOlderCandle: a poll that changes a candle before the last (the
// same number of candles, the same last one) is drawn. Guards: the view's key holding only the
// last candle and the count.
func TestPaneDrawsAPollThatChangedAnOlderCandle(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 2, 9, 7, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	st := state.New(clock)
	st.Apply(state.InstrumentsMsg{Gen: 1, At: now, Instruments: api.Instruments{Perps: []api.PerpInstrument{
		{ID: 1, Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001")}}}})
	key := state.ChartKey{Symbol: "BTC-PERP", ChartType: "mark", Resolution: "15"}
	var cs []api.Candle
	for i := range 40 {
		px := decimal.NewFromInt(int64(64000 + (i*37)%400))
		cs = append(cs, api.Candle{Time: api.Time{Time: now.Truncate(15 * time.Minute).Add(time.Duration(i-39) * 15 * time.Minute)},
			Open: px, High: px.Add(d("50")), Low: px.Sub(d("40")), Close: px.Add(d("10"))})
	}
	st.Apply(state.ChartMsg{Gen: 1, At: now, Key: key, Candles: cs})
	st.Apply(state.TickerUpdateMsg{At: now, Ticker: api.Ticker{Symbol: "BTC-PERP", MarkPrice: d("64100")}})
	pane := func() *Pane {
		p := New(commontest.NewCommon(t, st, clock), nil)
		p.SetSize(80, 16)
		p.Update(common.DataMsg{Kind: state.KindTickers})
		return p
	}
	p := pane()
	before := p.View()
	polled := append([]api.Candle(nil), cs...)
	polled[30].High = d("66000") // a spike the first fetch had not seen
	st.Apply(state.ChartMsg{Gen: 2, At: now, Key: key, Candles: polled})
	p.Update(common.DataMsg{Kind: state.KindChart})
	if v, want := p.View(), pane().View(); v == before || v != want {
		t.Fatalf("the poll's older spike is not drawn:\n%s\na pane loaded afresh shows\n%s", v, want)
	}
}
