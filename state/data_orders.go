package state

import (
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindOrders is the account's open orders.
var KindOrders = newKind("orders", 10*time.Second, func() any { return &orderData{} })

type orderData struct {
	list []api.OrderRecord // newest first, as the exchange lists them
	// streamed are the upserts received since the last whole list's request was sent: the next
	// whole list is laid under them (see Order).
	streamed []streamedOrder
}

type streamedOrder struct {
	at  time.Time // received, by the store's clock
	rec api.OrderRecord
}

// OrdersMsg carries the account's open orders (all of them: it replaces the list, under the
// streamed updates received after its request was sent).
type OrdersMsg struct {
	Gen    uint64
	At     time.Time // when the request was sent
	Orders []api.OrderRecord
}

// Kind implements Msg.
func (OrdersMsg) Kind() Kind { return KindOrders }

// Order implements Msg.
func (m OrdersMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m OrdersMsg) apply(s *Store, o Order) bool {
	d := s.data(KindOrders).(*orderData)
	list := m.Orders
	var keep []streamedOrder
	for _, u := range d.streamed {
		if u.at.After(o.At) {
			keep = append(keep, u)
			list, _ = upsertOrder(list, u.rec)
		}
	}
	d.streamed = keep
	return replace(&d.list, list)
}

// OrderUpdateMsg carries one order that changed (a streamed update): it is placed, replaced, or
// gone from the open orders when it filled, was cancelled or triggered.
type OrderUpdateMsg struct {
	Seq    uint64    // the exchange's sequence number (0: none)
	At     time.Time // when it was received
	Record api.OrderRecord
}

// Kind implements Msg.
func (OrderUpdateMsg) Kind() Kind { return KindOrders }

// Order implements Msg.
func (m OrderUpdateMsg) Order() Order { return Order{Seq: m.Seq, At: m.At, Stream: true} }

func (m OrderUpdateMsg) apply(s *Store, o Order) bool {
	d := s.data(KindOrders).(*orderData)
	d.streamed = append(d.streamed, streamedOrder{at: o.At, rec: m.Record})
	list, changed := upsertOrder(d.list, m.Record)
	d.list = list
	s.streamedHistory(m.Record)
	return changed
}

// upsertOrder returns list with rec in it (or without it when rec is no longer open), as a new
// slice when it changes. A held copy with a newer exchange timestamp stays.
func upsertOrder(list []api.OrderRecord, rec api.OrderRecord) ([]api.OrderRecord, bool) {
	open := rec.State == "" || rec.State == api.StateOpen
	for i, held := range list {
		if held.OrderID != rec.OrderID {
			continue
		}
		if held.Timestamp.After(rec.Timestamp.Time) {
			return list, false
		}
		out := make([]api.OrderRecord, 0, len(list))
		out = append(out, list[:i]...)
		if open {
			out = append(out, rec)
		}
		return append(out, list[i+1:]...), true
	}
	if !open {
		return list, false
	}
	out := make([]api.OrderRecord, 0, len(list)+1)
	return append(append(out, rec), list...), true
}

// Orders returns the open orders.
func (s *Store) Orders() []api.OrderRecord {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data(KindOrders).(*orderData).list
}
