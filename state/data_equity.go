package state

import (
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// KindEquity is the account's value over time (account_history), oldest first: each poll's
// answer replaces it.
var KindEquity = newKind("equity", 3*time.Minute, func() any { return &equityData{} })

type equityData struct{ points []api.AccountSnapshot }

// EquityMsg carries the account's value over time, oldest first (it replaces the series).
type EquityMsg struct {
	Gen    uint64
	At     time.Time
	Points []api.AccountSnapshot
}

// Kind implements Msg.
func (EquityMsg) Kind() Kind { return KindEquity }

// Order implements Msg.
func (m EquityMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m EquityMsg) apply(s *Store, _ Order) bool {
	d := s.data(KindEquity).(*equityData)
	return replace(&d.points, m.Points)
}

// Equity returns the account's value over time, oldest first.
func (s *Store) Equity() []api.AccountSnapshot {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data(KindEquity).(*equityData).points
}

// EquityChange is how the account's value moved over the series: the last point's value less
// the first's, and that as a percentage of the first (zero when the first is not positive).
// ok is false with fewer than two points.
func EquityChange(ps []api.AccountSnapshot) (change, pct decimal.Decimal, ok bool) {
	if len(ps) < 2 {
		return decimal.Zero, decimal.Zero, false
	}
	first, last := ps[0].AccountValue, ps[len(ps)-1].AccountValue
	change = last.Sub(first)
	if first.IsPositive() {
		pct = change.Div(first).Shift(2)
	}
	return change, pct, true
}
