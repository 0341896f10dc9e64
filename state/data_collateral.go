package state

import (
	"strconv"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindCollateral is the supported collateral list.
var KindCollateral = newKind("collateral", 15*time.Minute, func() any { return &collateralData{} })

type collateralData struct{ list []api.Collateral }

func (s *Store) collateralData() *collateralData { return s.data(KindCollateral).(*collateralData) }

// CollateralMsg carries the supported collateral list (it replaces the list).
type CollateralMsg struct {
	Gen        uint64
	At         time.Time
	Collateral []api.Collateral
}

// Kind implements Msg.
func (CollateralMsg) Kind() Kind { return KindCollateral }

// Order implements Msg.
func (m CollateralMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m CollateralMsg) apply(s *Store, _ Order) bool {
	return replace(&s.collateralData().list, m.Collateral)
}

// Collateral returns the supported collateral.
func (s *Store) Collateral() []api.Collateral {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.collateralData().list
}

// CollateralBySymbol returns one collateral by symbol (case-insensitive).
func (s *Store) CollateralBySymbol(symbol string) (api.Collateral, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, c := range s.collateralData().list {
		if strings.EqualFold(c.Symbol, symbol) {
			return c, true
		}
	}
	return api.Collateral{}, false
}

// CollateralByID returns one collateral by its id.
func (s *Store) CollateralByID(id api.CollateralID) (api.Collateral, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, c := range s.collateralData().list {
		if c.ID == id {
			return c, true
		}
	}
	return api.Collateral{}, false
}

// CollateralShown is how the panes show a collateral: its symbol and display precision
// (DisplayDecimals), or "#id" and 8 places before the collateral list has loaded.
func (s *Store) CollateralShown(id api.CollateralID) (symbol string, places int32) {
	if c, ok := s.CollateralByID(id); ok {
		return c.Symbol, DisplayDecimals(c.Symbol, int32(c.Decimals))
	}
	return "#" + strconv.FormatInt(int64(id), 10), 8
}
