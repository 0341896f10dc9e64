package state

import (
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindTrades is the recent trades (the tape) of the instruments the tape shows, per instrument.
// No trade for a while is a quiet market, not stale data: stale after 35 s without contact (polls
// reconcile every 30 s while streaming), or at once on a failure.
var KindTrades = newKind("trades", 35*time.Second, func() any { return &tradesData{tapes: map[string]*tape{}} })

// MaxTape is how many trades the store keeps per instrument.
const MaxTape = 1000

type tradesData struct {
	tapes map[string]*tape
}

// tape is one instrument's trades, oldest first (a new trade is an append), each trade id once.
type tape struct {
	list []api.Trade
	ids  map[api.TradeID]struct{}
}

func (s *Store) tradesData() *tradesData { return s.data(KindTrades).(*tradesData) }

// TradesMsg carries the result of a polled `trades` for Symbol (newest first, as the exchange
// lists them). Trades not yet held are added; a trade of another instrument is dropped and logged.
type TradesMsg struct {
	Gen    uint64
	At     time.Time
	Symbol string
	Trades []api.Trade
}

// Kind implements Msg.
func (TradesMsg) Kind() Kind { return KindTrades }

// Order implements Msg.
func (m TradesMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m TradesMsg) apply(s *Store, _ Order) bool {
	t := s.tradesData().get(m.Symbol)
	added := false
	for i := len(m.Trades) - 1; i >= 0; i-- { // oldest first
		if t.add(m.Symbol, m.Trades[i]) {
			added = true
		}
	}
	if added {
		t.settle()
	}
	return added
}

// TradeMsg is one streamed trade of Symbol (the subscription's instrument): added to its tape
// unless its id is held already (a replay) or it belongs to another instrument (dropped, logged).
type TradeMsg struct {
	At     time.Time // when it was received
	Symbol string
	Trade  api.Trade
}

// Kind implements Msg.
func (TradeMsg) Kind() Kind { return KindTrades }

// Order implements Msg. Trade ids, not the kind's sequence, tell a replay.
func (m TradeMsg) Order() Order { return Order{At: m.At, Stream: true} }

func (m TradeMsg) apply(s *Store, _ Order) bool {
	t := s.tradesData().get(m.Symbol)
	if !t.add(m.Symbol, m.Trade) {
		return false
	}
	t.settle()
	return true
}

func (d *tradesData) get(symbol string) *tape {
	t := d.tapes[symbol]
	if t == nil {
		t = &tape{ids: map[api.TradeID]struct{}{}}
		d.tapes[symbol] = t
	}
	return t
}

// add appends one trade unless it is held already or is not a sound trade of symbol.
func (t *tape) add(symbol string, tr api.Trade) bool {
	if tr.Instrument != "" && !strings.EqualFold(tr.Instrument, symbol) {
		slog.Warn("trade dropped", "reason", "trade of another instrument", "want", symbol, "got", tr.Instrument, "trade_id", uint64(tr.TradeID))
		return false
	}
	if !tr.Price.IsPositive() || !tr.Size.IsPositive() || (tr.Side != api.SideBuy && tr.Side != api.SideSell) {
		slog.Warn("trade dropped", "reason", "bad price, size or side", "instrument", symbol, "trade_id", uint64(tr.TradeID),
			"price", tr.Price.String(), "size", tr.Size.String(), "side", tr.Side)
		return false
	}
	if _, held := t.ids[tr.TradeID]; held {
		return false
	}
	t.ids[tr.TradeID] = struct{}{}
	t.list = append(t.list, tr)
	return true
}

// settle keeps the tape oldest first (sorting only when a trade arrived out of order) and
// forgets the oldest past MaxTape, a quarter of it at a time so a trade is an append.
func (t *tape) settle() {
	n := len(t.list)
	if n > 1 && tradeBefore(t.list[n-1], t.list[n-2]) {
		sort.SliceStable(t.list, func(i, j int) bool { return tradeBefore(t.list[i], t.list[j]) })
	}
	if over := len(t.list) - MaxTape; over > MaxTape/4 {
		for _, old := range t.list[:over] {
			delete(t.ids, old.TradeID)
		}
		t.list = append(t.list[:0:0], t.list[over:]...)
	}
}

// tradeBefore orders trades by the exchange's time, then by id.
func tradeBefore(a, b api.Trade) bool {
	if !a.Time.Equal(b.Time.Time) {
		return a.Time.Before(b.Time.Time)
	}
	return a.TradeID < b.TradeID
}

// Trades returns up to n of symbol's most recent trades, newest first (a copy).
func (s *Store) Trades(symbol string, n int) []api.Trade {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t := s.tradesData().tapes[symbol]
	if t == nil {
		return nil
	}
	n = min(n, len(t.list))
	out := make([]api.Trade, n)
	for i := range n {
		out[i] = t.list[len(t.list)-1-i]
	}
	return out
}

// TradeCount is how many trades of symbol the store holds.
func (s *Store) TradeCount(symbol string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if t := s.tradesData().tapes[symbol]; t != nil {
		return len(t.list)
	}
	return 0
}
