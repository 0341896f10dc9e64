package state

import (
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindTickers is every instrument's ticker (`ticker all`).
var KindTickers = newKind("tickers", 5*time.Second, func() any { return &tickerData{idx: map[string]int{}} })

type tickerData struct {
	list []api.Ticker
	idx  map[string]int // symbol -> index in list
}

func (s *Store) tickerData() *tickerData { return s.data(KindTickers).(*tickerData) }

// TickersMsg carries the result of `ticker all` (it replaces every ticker).
type TickersMsg struct {
	Gen     uint64
	At      time.Time
	Tickers []api.Ticker
}

// Kind implements Msg.
func (TickersMsg) Kind() Kind { return KindTickers }

// Order implements Msg.
func (m TickersMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m TickersMsg) apply(s *Store, _ Order) bool {
	d := s.tickerData()
	if tickersEqual(d.list, m.Tickers) {
		return false
	}
	idx := make(map[string]int, len(m.Tickers))
	for i, t := range m.Tickers {
		idx[t.Symbol] = i
	}
	d.list, d.idx = m.Tickers, idx
	return true
}

func tickersEqual(a, b []api.Ticker) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Symbol != y.Symbol || !x.LastUpdated.Equal(y.LastUpdated.Time) ||
			!x.MarkPrice.Equal(y.MarkPrice) || !x.LastPrice.Equal(y.LastPrice) ||
			!x.BestBidPrice.Equal(y.BestBidPrice) || !x.BestAskPrice.Equal(y.BestAskPrice) ||
			!x.BestBidSize.Equal(y.BestBidSize) || !x.BestAskSize.Equal(y.BestAskSize) ||
			!x.MidPrice.Equal(y.MidPrice) || !x.Volume24h.Equal(y.Volume24h) ||
			!x.Change24h.Equal(y.Change24h) || !x.FundingRate.Equal(y.FundingRate) ||
			!x.OpenInterest.Equal(y.OpenInterest) || !x.IndexPrice.Equal(y.IndexPrice) {
			return false
		}
	}
	return true
}

// Tickers returns every ticker in the order the exchange sent them.
func (s *Store) Tickers() []api.Ticker {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.tickerData().list
}

// Ticker returns one instrument's ticker by name (case-insensitive when no exact match).
func (s *Store) Ticker(symbol string) (api.Ticker, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.ticker(symbol)
}

func (s *Store) ticker(symbol string) (api.Ticker, bool) {
	d := s.tickerData()
	if i, ok := d.idx[symbol]; ok {
		return d.list[i], true
	}
	for _, t := range d.list {
		if strings.EqualFold(t.Symbol, symbol) {
			return t, true
		}
	}
	return api.Ticker{}, false
}
