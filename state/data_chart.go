package state

import (
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindChart is the candles of the chart series asked for.
var KindChart = newKind("chart", 10*time.Minute, func() any { return &chartData{m: map[ChartKey][]api.Candle{}} })

type chartData struct{ m map[ChartKey][]api.Candle }

// ChartKey names one chart series.
type ChartKey struct {
	Symbol     string // instrument name
	ChartType  string // mark, index or ltp
	Resolution string // 1, 5, 15, 30, 60, 240, 1D, 1W
}

// ChartMsg carries the candles of one chart series (it replaces that series).
type ChartMsg struct {
	Gen     uint64
	At      time.Time
	Key     ChartKey
	Candles []api.Candle
}

// Kind implements Msg.
func (ChartMsg) Kind() Kind { return KindChart }

// Order implements Msg.
func (m ChartMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m ChartMsg) apply(s *Store, _ Order) bool {
	d := s.data(KindChart).(*chartData)
	d.m = copyMap(d.m, m.Key, m.Candles)
	return true
}

// Candles returns one chart series.
func (s *Store) Candles(k ChartKey) []api.Candle {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data(KindChart).(*chartData).m[k]
}

// CandleUpdateMsg carries the current candle of one chart series as the stream sent it: it
// replaces the series' last candle when it is the same period, and is appended when it opens a
// new one. An older candle, or a series not loaded yet, is left to the next chart poll.
type CandleUpdateMsg struct {
	At     time.Time // when it was received
	Key    ChartKey
	Candle api.Candle
}

// Kind implements Msg.
func (CandleUpdateMsg) Kind() Kind { return KindChart }

// Order implements Msg.
func (m CandleUpdateMsg) Order() Order { return Order{At: m.At, Stream: true} }

func (m CandleUpdateMsg) apply(s *Store, _ Order) bool {
	d := s.data(KindChart).(*chartData)
	old := d.m[m.Key]
	if len(old) == 0 {
		return false
	}
	last := old[len(old)-1]
	var cs []api.Candle
	switch {
	case m.Candle.Time.Equal(last.Time.Time):
		if candleEqual(last, m.Candle) {
			return false
		}
		cs = append(append(make([]api.Candle, 0, len(old)), old[:len(old)-1]...), m.Candle)
	case m.Candle.Time.After(last.Time.Time):
		cs = append(append(make([]api.Candle, 0, len(old)+1), old...), m.Candle)
	default:
		return false
	}
	d.m = copyMap(d.m, m.Key, cs)
	return true
}

func candleEqual(a, b api.Candle) bool {
	return a.Time.Equal(b.Time.Time) && a.Open.Equal(b.Open) && a.High.Equal(b.High) && a.Low.Equal(b.Low) &&
		a.Close.Equal(b.Close) && a.Volume.Equal(b.Volume)
}
