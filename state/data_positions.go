package state

import (
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// KindPositions is the account's open positions.
var KindPositions = newKind("positions", 10*time.Second, func() any { return &positionData{} })

type positionData struct {
	list     []api.Position
	streamed time.Time // when the last streamed list was received (see Order)
	figures  figuresMemo
}

// figuresMemo is every position's figures (positionViews) and their unrealized PnL's sum, and
// what they were worked out from: the positions pane, the account pane and the status bar each
// ask after every ticker update, and each position's figures cost divisions, so they are worked
// out once a change. mu guards it, as readers sharing the store's read lock fill it.
type figuresMemo struct {
	mu   sync.Mutex
	key  [4]uint64 // the versions of positions, tickers and account; 1 when the account is newer
	ok   bool
	rows []PositionRow // never changed once made: a change makes a new slice
	sum  decimal.Decimal
}

func (s *Store) positions() []api.Position { return s.data(KindPositions).(*positionData).list }

// PositionsMsg carries the account's open positions (it replaces the list).
type PositionsMsg struct {
	Gen       uint64
	At        time.Time
	Positions []api.Position
}

// Kind implements Msg.
func (PositionsMsg) Kind() Kind { return KindPositions }

// Order implements Msg.
func (m PositionsMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m PositionsMsg) apply(s *Store, o Order) bool {
	d := s.data(KindPositions).(*positionData)
	if d.streamed.After(o.At) {
		return false // the poll was sent before the streamed list arrived: it is older
	}
	return replace(&d.list, m.Positions)
}

// Positions returns the open positions.
func (s *Store) Positions() []api.Position {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.positions()
}

// Position returns the open position on one instrument (case-insensitive name), if any.
func (s *Store) Position(symbol string) (api.Position, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.position(symbol)
}

func (s *Store) position(symbol string) (api.Position, bool) {
	for _, p := range s.positions() {
		if strings.EqualFold(p.Instrument, symbol) && !p.Size.IsZero() {
			return p, true
		}
	}
	return api.Position{}, false
}

// PositionViews returns the positions pane's figures for every open position, each at the
// freshest mark the console has (see UnrealizedPnL), worked out once a change of the positions,
// the tickers or the account.
func (s *Store) PositionViews() []PositionRow {
	_, rows := s.PositionFigures()
	return rows
}

// PositionFigures returns the open positions and their figures (PositionViews), row for row,
// read together. Both slices are the store's own, shared with every reader and never changed
// (a change makes new ones): read them, never write to them.
func (s *Store) PositionFigures() ([]api.Position, []PositionRow) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rows, _ := s.figures()
	return s.positions(), rows
}

// figures is positionViews and its unrealized PnL's sum, from the memo while nothing they are
// worked out from changed. The caller holds the store's lock (a read lock will do).
func (s *Store) figures() ([]PositionRow, decimal.Decimal) {
	m := &s.data(KindPositions).(*positionData).figures
	key := [4]uint64{s.kinds[KindPositions].version, s.kinds[KindTickers].version, s.kinds[KindAccount].version}
	if s.kinds[KindAccount].at.After(s.kinds[KindTickers].at) { // positionViews' choice of mark
		key[3] = 1
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ok && m.key == key {
		return m.rows, m.sum
	}
	rows, sum := s.positionViews(), decimal.Zero
	for _, r := range rows {
		sum = sum.Add(r.UPnL)
	}
	m.key, m.ok, m.rows, m.sum = key, true, rows, sum
	return rows, sum
}

func (s *Store) positionViews() []PositionRow {
	ps, a := s.positions(), s.account()
	accountNewer := s.kinds[KindAccount].at.After(s.kinds[KindTickers].at)
	out := make([]PositionRow, 0, len(ps))
	for _, p := range ps {
		t, _ := s.ticker(p.Instrument)
		if m, ok := accountMark(a, p.Instrument); ok && (accountNewer || !t.MarkPrice.IsPositive()) {
			t.MarkPrice = m // the account summary's mark is the fresher one
		}
		out = append(out, PositionView(p, t, a))
	}
	return out
}

// accountMark is the mark the account summary valued a position at: its value over its size.
func accountMark(a api.AccountSummary, symbol string) (decimal.Decimal, bool) {
	ps, ok := a.PerpPositions[symbol]
	if !ok {
		return decimal.Zero, false
	}
	for _, leg := range ps.Legs {
		if !leg.Size.IsZero() && leg.PositionValue.IsPositive() {
			return leg.PositionValue.Abs().Div(leg.Size.Abs()), true
		}
	}
	return decimal.Zero, false
}

// UnrealizedPnL is the account's unrealized PnL at one mark per instrument, the freshest the
// console has (the ticker's, or the account summary's when that arrived later): the figure the
// positions pane adds up to, so the account pane and the status line agree with it. Before
// positions load it is the account summary's own figure.
func (s *Store) UnrealizedPnL() decimal.Decimal {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.kinds[KindPositions].at.IsZero() {
		return s.account().Upnl
	}
	_, sum := s.figures()
	return sum
}

// TotalPnL is what a trader reads as the account's total PnL: realized (the exchange's
// total_pnl, which counts closed PnL, fees and funding but not open positions) plus unrealized.
func TotalPnL(realized, unrealized decimal.Decimal) decimal.Decimal { return realized.Add(unrealized) }

// PnL is the account's realized PnL, its unrealized PnL (UnrealizedPnL, at the freshest mark) and
// their total, as the account pane shows them.
func (s *Store) PnL() (realized, unrealized, total decimal.Decimal) {
	realized, unrealized = s.Account().TotalPnl, s.UnrealizedPnL()
	return realized, unrealized, TotalPnL(realized, unrealized)
}

// PositionsUpdateMsg carries the account's positions as the stream sent them: the whole list, and
// a poll sent before it was received cannot take it back.
type PositionsUpdateMsg struct {
	At        time.Time // when it was received
	Positions []api.Position
}

// Kind implements Msg.
func (PositionsUpdateMsg) Kind() Kind { return KindPositions }

// Order implements Msg.
func (m PositionsUpdateMsg) Order() Order { return Order{At: m.At, Stream: true} }

func (m PositionsUpdateMsg) apply(s *Store, o Order) bool {
	d := s.data(KindPositions).(*positionData)
	d.streamed = o.At
	return replace(&d.list, m.Positions)
}
