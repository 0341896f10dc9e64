package state

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindTickers is every instrument's ticker (`ticker all`).
var KindTickers = newKind("tickers", 5*time.Second, func() any { return &tickerData{idx: map[string]int{}} })

// tickerData is the store's tickers. list and idx are the store's own, so a streamed ticker
// changes its one entry in place (per-message work does not grow with the number of
// instruments); Tickers hands out snap, a copy taken on the first read after a change and never
// changed after, so a slice read earlier stays valid. A poll's list becomes list and snap at once
// (shared): the first streamed ticker after it copies the list before changing its entry, so a
// poll costs no copy of the whole list and a stream of them one copy in all.
type tickerData struct {
	list   []api.Ticker
	shared bool           // list is snap too: copy it before changing an entry
	idx    map[string]int // symbol -> index in list
	// snap is the list as Tickers last handed it out; nil once list changed since. snapMu
	// guards it, as readers sharing the store's read lock take it.
	snap   []api.Ticker
	snapMu sync.Mutex
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
	if !sameSymbols(d.list, m.Tickers) {
		idx := make(map[string]int, len(m.Tickers))
		for i, t := range m.Tickers {
			idx[t.Symbol] = i
		}
		d.idx = idx
	}
	// The poll's list is handed out as it is, and kept until a streamed ticker changes an entry.
	d.list, d.snap, d.shared = m.Tickers, m.Tickers, true
	return true
}

// sameSymbols reports whether two lists name the same instruments in the same order (so the
// index of one serves the other).
func sameSymbols(a, b []api.Ticker) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Symbol != b[i].Symbol {
			return false
		}
	}
	return true
}

func tickersEqual(a, b []api.Ticker) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !tickerEqual(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

func tickerEqual(x, y *api.Ticker) bool {
	return x.Symbol == y.Symbol && x.LastUpdated.Equal(y.LastUpdated.Time) &&
		x.MarkPrice.Equal(y.MarkPrice) && x.LastPrice.Equal(y.LastPrice) &&
		x.BestBidPrice.Equal(y.BestBidPrice) && x.BestAskPrice.Equal(y.BestAskPrice) &&
		x.BestBidSize.Equal(y.BestBidSize) && x.BestAskSize.Equal(y.BestAskSize) &&
		x.MidPrice.Equal(y.MidPrice) && x.Volume24h.Equal(y.Volume24h) &&
		x.Change24h.Equal(y.Change24h) && x.FundingRate.Equal(y.FundingRate) &&
		x.OpenInterest.Equal(y.OpenInterest) && x.IndexPrice.Equal(y.IndexPrice)
}

// Tickers returns every ticker in the order the exchange sent them. The first read after a
// change copies the list once; later reads share that copy until the next change.
func (s *Store) Tickers() []api.Ticker {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d := s.tickerData()
	d.snapMu.Lock()
	defer d.snapMu.Unlock()
	if d.snap == nil && d.list != nil {
		d.snap = slices.Clone(d.list)
	}
	return d.snap
}

// AppendTickers appends every ticker, in the order the exchange sent them, to dst and returns
// it. A reader that keeps its own list, and takes it again at every change (the tickers pane,
// several times a second while 500 instruments stream), copies into memory it reuses where
// Tickers allocates a copy of the whole list a change (issue #34).
func (s *Store) AppendTickers(dst []api.Ticker) []api.Ticker {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append(dst, s.tickerData().list...)
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
	for sym, st := range d.streamed {
		if !st.at.After(at) {
			delete(d.streamed, sym)
		}
	}
	if len(d.streamed) == 0 {
		return list
	}
	copied := false
	for i := range list { // one look-up a ticker, not a scan of the list a streamed one
		if st, ok := d.streamed[list[i].Symbol]; ok {
			if !copied {
				list, copied = slices.Clone(list), true
			}
			list[i] = st.t
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
	i, ok := d.idx[m.Ticker.Symbol]
	if d.shared && !(ok && tickerEqual(&d.list[i], &m.Ticker)) {
		d.list, d.shared = slices.Clone(d.list), false // the poll's list stays as it was handed out
	}
	switch {
	case !ok:
		d.idx[m.Ticker.Symbol] = len(d.list)
		d.list = append(d.list, m.Ticker)
	case tickerEqual(&d.list[i], &m.Ticker):
		return false
	default:
		d.list[i] = m.Ticker
	}
	d.snap = nil
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
