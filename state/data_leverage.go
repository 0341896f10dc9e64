package state

import (
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindLeverage is the account's leverage setting on the instruments asked for.
var KindLeverage = newKind("leverage", 15*time.Minute, func() any {
	return &leverageData{m: map[string]api.InstrumentLeverage{}}
})

type leverageData struct {
	m map[string]api.InstrumentLeverage
} // upper-case instrument -> setting

// leverage is the setting on one instrument, without the lock.
func (s *Store) leverage(symbol string) (api.InstrumentLeverage, bool) {
	l, ok := s.data(KindLeverage).(*leverageData).m[strings.ToUpper(symbol)]
	return l, ok
}

// LeverageMsg carries the account's leverage setting on one instrument.
type LeverageMsg struct {
	Gen      uint64
	At       time.Time
	Leverage api.InstrumentLeverage
}

// Kind implements Msg.
func (LeverageMsg) Kind() Kind { return KindLeverage }

// Order implements Msg.
func (m LeverageMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m LeverageMsg) apply(s *Store, _ Order) bool {
	d := s.data(KindLeverage).(*leverageData)
	d.m = copyMap(d.m, strings.ToUpper(m.Leverage.Instrument), m.Leverage)
	return true
}

// Leverage returns the account's leverage setting on one instrument, if it has been fetched.
func (s *Store) Leverage(symbol string) (api.InstrumentLeverage, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.leverage(symbol)
}
