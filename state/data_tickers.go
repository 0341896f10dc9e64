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
	// streamed are the tickers received since the last poll's request was sent, by symbol: the
	// next poll's list is laid under them (see Order).
	streamed map[string]streamedTicker
}

type streamedTicker struct {
	at time.Time
	t  api.Ticker
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

func (m TickersMsg) apply(s *Store, o Order) bool {
	d := s.tickerData()
	m.Tickers = d.overlay(m.Tickers, o.At)
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

// overlay returns list with the streamed tickers received after at in place of the polled ones,
// and forgets the streamed tickers received before (the list already holds them).
func (d *tickerData) overlay(list []api.Ticker, at time.Time) []api.Ticker {
	copied := false
	for sym, st := range d.streamed {
		if !st.at.After(at) {
			delete(d.streamed, sym)
			continue
		}
		for i := range list {
			if list[i].Symbol == sym {
				if !copied {
					list, copied = append([]api.Ticker(nil), list...), true
				}
				list[i] = st.t
			}
		}
	}
	return list
}

// TickerUpdateMsg carries one instrument's ticker as the stream sent it: it replaces that ticker
// (or adds it), and a poll sent before it was received cannot take it back.
type TickerUpdateMsg struct {
	At     time.Time // when it was received
	Ticker api.Ticker
}

// Kind implements Msg.
func (TickerUpdateMsg) Kind() Kind { return KindTickers }

// Order implements Msg.
func (m TickerUpdateMsg) Order() Order { return Order{At: m.At, Stream: true} }

func (m TickerUpdateMsg) apply(s *Store, o Order) bool {
	d := s.tickerData()
	if d.streamed == nil {
		d.streamed = map[string]streamedTicker{}
	}
	d.streamed[m.Ticker.Symbol] = streamedTicker{o.At, m.Ticker}
	list := make([]api.Ticker, len(d.list), len(d.list)+1)
	copy(list, d.list)
	i, ok := d.idx[m.Ticker.Symbol]
	if !ok {
		idx := make(map[string]int, len(d.idx)+1)
		for k, v := range d.idx {
			idx[k] = v
		}
		i = len(list)
		idx[m.Ticker.Symbol] = i
		list = append(list, m.Ticker)
		d.list, d.idx = list, idx
		return true
	}
	if tickersEqual(list[i:i+1], []api.Ticker{m.Ticker}) {
		return false
	}
	list[i] = m.Ticker
	d.list = list
	return true
}

// BBOUpdateMsg carries one instrument's best bid and offer as the stream sent it: it moves that
// ticker's best bid and ask (price and size), like a TickerUpdateMsg of the ticker with them.
// A bbo of an instrument with no ticker yet is dropped (the ticker poll brings the instrument).
type BBOUpdateMsg struct {
	At  time.Time // when it was received
	BBO api.BBO
}

// Kind implements Msg.
func (BBOUpdateMsg) Kind() Kind { return KindTickers }

// Order implements Msg.
func (m BBOUpdateMsg) Order() Order { return Order{At: m.At, Stream: true} }

func (m BBOUpdateMsg) apply(s *Store, o Order) bool {
	t, ok := s.ticker(m.BBO.Symbol)
	if !ok || t.Symbol != m.BBO.Symbol {
		return false
	}
	b := m.BBO
	t.BestBidPrice, t.BestBidSize, t.BestAskPrice, t.BestAskSize = b.BidPrice, b.BidSize, b.AskPrice, b.AskSize
	return TickerUpdateMsg{At: m.At, Ticker: t}.apply(s, o)
}
