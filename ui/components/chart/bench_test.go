package chart

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// BenchmarkPaneStreamStep is the chart's part of an idle streamed step at 120x30: the stream's
// update of the last candle and a new mark, each told to the pane, then its view.
func BenchmarkPaneStreamStep(b *testing.B) {
	now := time.Date(2026, 3, 2, 9, 7, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	st := state.New(clock)
	st.Apply(state.InstrumentsMsg{Gen: 1, At: now, Instruments: api.Instruments{Perps: []api.PerpInstrument{
		{ID: 1, Name: "BTC-PERP", TickSize: decimal.RequireFromString("0.1"), LotSize: decimal.RequireFromString("0.001")},
	}}})
	key := state.ChartKey{Symbol: "BTC-PERP", ChartType: "mark", Resolution: "15"}
	var cs []api.Candle
	for i := range 300 {
		px := decimal.NewFromInt(int64(64000 + (i*37)%400))
		cs = append(cs, api.Candle{Time: api.Time{Time: now.Truncate(15 * time.Minute).Add(time.Duration(i-299) * 15 * time.Minute)},
			Open: px, High: px.Add(decimal.NewFromInt(50)), Low: px.Sub(decimal.NewFromInt(40)), Close: px.Add(decimal.NewFromInt(10)), Volume: decimal.NewFromInt(12)})
	}
	st.Apply(state.ChartMsg{Gen: 1, At: now, Key: key, Candles: cs})
	p := New(commontest.NewCommon(b, st, clock), nil)
	p.SetSize(120, 30)
	var steps [2]struct {
		c api.Candle
		t api.Ticker
	}
	for i, px := range []int64{64205, 64207} {
		c := cs[len(cs)-1]
		c.Close = decimal.NewFromInt(px)
		steps[i].c, steps[i].t = c, api.Ticker{Symbol: "BTC-PERP", MarkPrice: decimal.NewFromInt(px + 1)}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s := steps[i%2]
		st.Apply(state.CandleUpdateMsg{At: now, Key: key, Candle: s.c})
		p.Update(common.DataMsg{Kind: state.KindChart})
		st.Apply(state.TickerUpdateMsg{At: now, Ticker: s.t})
		p.Update(common.DataMsg{Kind: state.KindTickers})
		_ = p.View()
	}
}
