package state

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestStreamedCandleUpdatesTheSeries: the current candle replaces the last one of its period, a
// new period is appended, an older candle is ignored (guards the time comparisons).
func TestStreamedCandleUpdatesTheSeries(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := New(func() time.Time { return t0 })
	key := ChartKey{Symbol: "BTC-PERP", ChartType: "mark", Resolution: "1"}
	candle := func(min int, close string) api.Candle {
		return api.Candle{Time: api.Time{Time: t0.Add(time.Duration(min) * time.Minute)}, Open: d("100"), High: d("110"),
			Low: d("90"), Close: d(close), Volume: d("1")}
	}
	s.Apply(CandleUpdateMsg{At: t0, Key: key, Candle: candle(0, "101")})
	if len(s.Candles(key)) != 0 {
		t.Fatal("a candle of a series never loaded was taken")
	}
	s.Apply(ChartMsg{Gen: 1, At: t0, Key: key, Candles: []api.Candle{candle(-1, "99"), candle(0, "100")}})
	step := func(c api.Candle, want ...string) {
		t.Helper()
		s.Apply(CandleUpdateMsg{At: t0.Add(time.Second), Key: key, Candle: c})
		got := s.Candles(key)
		if len(got) != len(want) {
			t.Fatalf("%d candles, want %d", len(got), len(want))
		}
		for i, w := range want {
			if !got[i].Close.Equal(d(w)) {
				t.Fatalf("candle %d closes at %s, want %s", i, got[i].Close, w)
			}
		}
	}
	step(candle(0, "105"), "99", "105")        // same period: replaced
	step(candle(1, "106"), "99", "105", "106") // next period: appended
	step(candle(-1, "1"), "99", "105", "106")  // older: ignored
}

// TestStreamedBBOMovesTheTicker: a bbo moves its ticker's best bid and ask, nothing else.
func TestStreamedBBOMovesTheTicker(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	s := New(func() time.Time { return t0 })
	s.Apply(TickersMsg{Gen: 1, At: t0, Tickers: []api.Ticker{{Symbol: "BTC-PERP", MarkPrice: d("97000"),
		BestBidPrice: d("96990"), BestAskPrice: d("97010")}}})
	if !s.Apply(BBOUpdateMsg{At: t0.Add(time.Second), BBO: api.BBO{Symbol: "BTC-PERP", BidPrice: d("96995"),
		BidSize: d("1.5"), AskPrice: d("97005"), AskSize: d("2")}}) {
		t.Fatal("the bbo changed nothing")
	}
	tk, _ := s.Ticker("BTC-PERP")
	if !tk.BestBidPrice.Equal(d("96995")) || !tk.BestAskSize.Equal(d("2")) || !tk.MarkPrice.Equal(d("97000")) {
		t.Fatalf("ticker after the bbo: %+v", tk)
	}
	s.Apply(BBOUpdateMsg{At: t0.Add(2 * time.Second), BBO: api.BBO{Symbol: "NOPE-PERP", BidPrice: d("1")}})
	if _, ok := s.Ticker("NOPE-PERP"); ok {
		t.Error("a bbo of an unknown instrument made a ticker")
	}
}
