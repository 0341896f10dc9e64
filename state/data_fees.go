package state

import (
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindFees is the account's fee rates and rolling volumes (user_fees). Until it loads, the order
// preview uses the configured rates (SetFees, DefaultFees).
var KindFees = newKind("fees", 15*time.Minute, func() any { return &feeData{} })

type feeData struct {
	loaded bool
	rec    api.UserFees
}

// FeesMsg carries the account's fee schedule.
type FeesMsg struct {
	Gen  uint64
	At   time.Time
	Fees api.UserFees
}

// Kind implements Msg.
func (FeesMsg) Kind() Kind { return KindFees }

// Order implements Msg.
func (m FeesMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m FeesMsg) apply(s *Store, _ Order) bool {
	d := s.data(KindFees).(*feeData)
	d.loaded, d.rec = true, m.Fees
	return true
}

// UserFees returns the account's fee schedule, and whether it has loaded.
func (s *Store) UserFees() (api.UserFees, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d := s.data(KindFees).(*feeData)
	return d.rec, d.loaded
}

// feesFor is the rates an order on inst pays: the account's own (perpetual or spot) once
// user_fees has loaded, else the configured ones. The caller holds s.mu.
func (s *Store) feesFor(inst Instrument) Fees {
	d := s.data(KindFees).(*feeData)
	if !d.loaded {
		return s.fees
	}
	if inst.Spot {
		return Fees{Taker: d.rec.SpotTaker, Maker: d.rec.SpotMaker}
	}
	return Fees{Taker: d.rec.PerpTaker, Maker: d.rec.PerpMaker}
}
