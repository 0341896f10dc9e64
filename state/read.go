package state

// The Store's read side: every accessor takes the read lock and returns what the panes show.

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// Version is bumped every time k's data (or its error) changes, so a pane can keep its rendering
// until the version it drew moves.
func (s *Store) Version(k Kind) uint64 {
	if k < 0 || k >= numKinds {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.version[k]
}

// Freshness says how old k's data is by the store's clock, and whether its last poll failed.
func (s *Store) Freshness(k Kind) Freshness {
	if k < 0 || k >= numKinds {
		return Freshness{}
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	f := Freshness{At: s.at[k], Err: s.err[k]}
	if !f.At.IsZero() {
		f.Age = s.clock().Sub(f.At)
		if f.Age < 0 {
			f.Age = 0
		}
	}
	f.Stale = f.Err != nil || (!f.At.IsZero() && s.staleAfter[k] > 0 && f.Age > s.staleAfter[k])
	return f
}

// Tickers returns every ticker in the order the exchange sent them.
func (s *Store) Tickers() []api.Ticker {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.tickers
}

// Ticker returns one instrument's ticker by name (case-insensitive when no exact match).
func (s *Store) Ticker(symbol string) (api.Ticker, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.ticker(symbol)
}

func (s *Store) ticker(symbol string) (api.Ticker, bool) {
	if i, ok := s.tickerIdx[symbol]; ok {
		return s.tickers[i], true
	}
	for _, t := range s.tickers {
		if strings.EqualFold(t.Symbol, symbol) {
			return t, true
		}
	}
	return api.Ticker{}, false
}

// Mid returns an instrument's mid price: from mids, else the ticker's mid, else the average of its
// best bid and ask.
func (s *Store) Mid(symbol string) (decimal.Decimal, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.mid(symbol)
}

func (s *Store) mid(symbol string) (decimal.Decimal, bool) {
	if m, ok := s.mids[symbol]; ok && m.IsPositive() {
		return m, true
	}
	t, ok := s.ticker(symbol)
	if !ok {
		return decimal.Zero, false
	}
	if t.MidPrice.IsPositive() {
		return t.MidPrice, true
	}
	if t.BestBidPrice.IsPositive() && t.BestAskPrice.IsPositive() {
		return t.BestBidPrice.Add(t.BestAskPrice).Div(decimal.NewFromInt(2)), true
	}
	return decimal.Zero, false
}

// Instrument returns an instrument by name (case-insensitive).
func (s *Store) Instrument(symbol string) (Instrument, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i, ok := s.instByName[strings.ToUpper(symbol)]
	if !ok {
		return Instrument{}, false
	}
	return s.instruments[i], true
}

// InstrumentByID returns an instrument by id (a perpetual when a spot pair shares the id).
func (s *Store) InstrumentByID(id api.InstrumentID) (Instrument, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	i, ok := s.instByID[id]
	if !ok {
		return Instrument{}, false
	}
	return s.instruments[i], true
}

// FindInstrument resolves what a trader typed: a name (case-insensitive) or a numeric id.
func (s *Store) FindInstrument(nameOrID string) (Instrument, bool) {
	nameOrID = strings.TrimSpace(nameOrID)
	if in, ok := s.Instrument(nameOrID); ok {
		return in, true
	}
	if id, err := strconv.ParseInt(nameOrID, 10, 64); err == nil {
		return s.InstrumentByID(api.InstrumentID(id))
	}
	return Instrument{}, false
}

// Instruments returns every instrument: perpetuals first, then spot, in the exchange's order.
func (s *Store) Instruments() []Instrument {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.instruments
}

// InstrumentNames returns every instrument name, sorted (for completion).
func (s *Store) InstrumentNames() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.names
}

// Account returns the account summary (the zero value until one arrives).
func (s *Store) Account() api.AccountSummary {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.account
}

// Positions returns the open positions.
func (s *Store) Positions() []api.Position {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.positions
}

// Position returns the open position on one instrument (case-insensitive name), if any.
func (s *Store) Position(symbol string) (api.Position, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.position(symbol)
}

func (s *Store) position(symbol string) (api.Position, bool) {
	for _, p := range s.positions {
		if strings.EqualFold(p.Instrument, symbol) && !p.Size.IsZero() {
			return p, true
		}
	}
	return api.Position{}, false
}

// PositionViews returns the positions pane's figures for every open position.
func (s *Store) PositionViews() []PositionRow {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]PositionRow, 0, len(s.positions))
	for _, p := range s.positions {
		t, _ := s.ticker(p.Instrument)
		out = append(out, PositionView(p, t, s.account))
	}
	return out
}

// Orders returns the open orders.
func (s *Store) Orders() []api.OrderRecord {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.orders
}

// Fills returns the fills loaded so far, newest first.
func (s *Store) Fills() []api.Fill {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.fills.rows
}

// NextFillsPage returns the page to fetch to load older fills, and false when all are loaded.
func (s *Store) NextFillsPage() (int, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.fills.next()
}

// History returns the order history loaded so far, newest first.
func (s *Store) History() []api.OrderRecord {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.history.rows
}

// NextHistoryPage returns the page to fetch to load older history, and false when all are loaded.
func (s *Store) NextHistoryPage() (int, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.history.next()
}

// Collateral returns the supported collateral.
func (s *Store) Collateral() []api.Collateral {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.collateral
}

// CollateralBySymbol returns one collateral by symbol (case-insensitive).
func (s *Store) CollateralBySymbol(symbol string) (api.Collateral, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, c := range s.collateral {
		if strings.EqualFold(c.Symbol, symbol) {
			return c, true
		}
	}
	return api.Collateral{}, false
}

// Candles returns one chart series.
func (s *Store) Candles(k ChartKey) []api.Candle {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.charts[k]
}

// Brokers returns the broker approvals loaded so far.
func (s *Store) Brokers() []api.BrokerApproval {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.brokers
}

// Leverage returns the account's leverage setting on one instrument, if it has been fetched.
func (s *Store) Leverage(symbol string) (api.InstrumentLeverage, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	l, ok := s.leverage[strings.ToUpper(symbol)]
	return l, ok
}
