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
