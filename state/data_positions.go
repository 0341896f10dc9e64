package state

import (
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindPositions is the account's open positions.
var KindPositions = newKind("positions", 10*time.Second, func() any { return &positionData{} })

type positionData struct{ list []api.Position }

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

func (m PositionsMsg) apply(s *Store, _ Order) bool {
	return replace(&s.data(KindPositions).(*positionData).list, m.Positions)
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

// PositionViews returns the positions pane's figures for every open position.
func (s *Store) PositionViews() []PositionRow {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ps, a := s.positions(), s.account()
	out := make([]PositionRow, 0, len(ps))
	for _, p := range ps {
		t, _ := s.ticker(p.Instrument)
		out = append(out, PositionView(p, t, a))
	}
	return out
}
