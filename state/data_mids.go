package state

import (
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// KindMids is every instrument's mid price (`mids all`).
var KindMids = newKind("mids", 5*time.Second, func() any { return &midData{m: map[string]decimal.Decimal{}} })

type midData struct {
	m map[string]decimal.Decimal
	// streamed are the mids received since the last poll's request was sent (see Order).
	streamed map[string]streamedMid
}

type streamedMid struct {
	at  time.Time
	mid decimal.Decimal
}

func (s *Store) midData() *midData { return s.data(KindMids).(*midData) }

// MidsMsg carries the result of `mids all` (it replaces every mid).
type MidsMsg struct {
	Gen  uint64
	At   time.Time
	Mids []api.Mid
}

// Kind implements Msg.
func (MidsMsg) Kind() Kind { return KindMids }

// Order implements Msg.
func (m MidsMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m MidsMsg) apply(s *Store, o Order) bool {
	d := s.midData()
	m.Mids = d.overlay(m.Mids, o.At)
	if len(m.Mids) == len(d.m) {
		same := true
		for _, x := range m.Mids {
			if old, ok := d.m[x.Symbol]; !ok || !old.Equal(x.MidPrice) {
				same = false
				break
			}
		}
		if same {
			return false
		}
	}
	mids := make(map[string]decimal.Decimal, len(m.Mids))
	for _, x := range m.Mids {
		mids[x.Symbol] = x.MidPrice
	}
	d.m = mids
	return true
}

// Mid returns an instrument's mid price: from mids, else the ticker's mid, else the average of its
// best bid and ask.
func (s *Store) Mid(symbol string) (decimal.Decimal, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.mid(symbol)
}

func (s *Store) mid(symbol string) (decimal.Decimal, bool) {
	if m, ok := s.midData().m[symbol]; ok && m.IsPositive() {
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

// overlay returns mids with the streamed mids received after at in place of the polled ones, and
// forgets the streamed mids received before.
func (d *midData) overlay(mids []api.Mid, at time.Time) []api.Mid {
	copied := false
	for sym, sm := range d.streamed {
		if !sm.at.After(at) {
			delete(d.streamed, sym)
			continue
		}
		for i := range mids {
			if mids[i].Symbol == sym {
				if !copied {
					mids, copied = append([]api.Mid(nil), mids...), true
				}
				mids[i].MidPrice = sm.mid
			}
		}
	}
	return mids
}

// MidsUpdateMsg carries mids as the stream sent them: each replaces (or adds) its instrument's
// mid, and a poll sent before they were received cannot take them back.
type MidsUpdateMsg struct {
	At   time.Time // when it was received
	Mids []api.Mid
}

// Kind implements Msg.
func (MidsUpdateMsg) Kind() Kind { return KindMids }

// Order implements Msg.
func (m MidsUpdateMsg) Order() Order { return Order{At: m.At, Stream: true} }

func (m MidsUpdateMsg) apply(s *Store, o Order) bool {
	d := s.midData()
	if d.streamed == nil {
		d.streamed = map[string]streamedMid{}
	}
	// The map is the store's own (Mid reads it, nothing hands it out), so it changes in place.
	changed := false
	for _, x := range m.Mids {
		d.streamed[x.Symbol] = streamedMid{o.At, x.MidPrice}
		if old, ok := d.m[x.Symbol]; ok && old.Equal(x.MidPrice) {
			continue
		}
		d.m[x.Symbol] = x.MidPrice
		changed = true
	}
	return changed
}
