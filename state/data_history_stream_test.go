package state

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestStreamedOrdersJoinTheHistory (issue #36): a streamed order record joins the order history
// once its first page loaded, so the history pane needs no poll for it: a new order on top, a
// known one replaced in place (its version moves), an older copy by the exchange's timestamp
// never over a newer one; before the first page nothing is taken (the page brings it).
func TestStreamedOrdersJoinTheHistory(t *testing.T) {
	s := New(nil)
	at := func(sec int) api.Time { return api.Time{Time: time.Unix(int64(1_800_000_000+sec), 0)} }
	rec := func(id int, st string, sec int) OrderUpdateMsg {
		return OrderUpdateMsg{Record: api.OrderRecord{OrderID: api.OrderID(id), Cloid: "c", State: st, Timestamp: at(sec)}}
	}
	s.Apply(rec(9, api.StateOpen, 0))
	if len(s.History()) != 0 || s.Freshness(KindHistory).Loaded() {
		t.Fatalf("before the first page the history took %+v", s.History())
	}
	s.Apply(HistoryMsg{Page: api.Page[api.OrderRecord]{Page: 1, Data: []api.OrderRecord{{OrderID: 2, State: api.StateOpen, Timestamp: at(2)}, {OrderID: 1, State: api.StateFilled, Timestamp: at(1)}}}})
	v := s.Version(KindHistory)
	s.Apply(rec(3, api.StateOpen, 3))
	s.Apply(rec(2, api.StateCancelled, 4))
	h := s.History()
	if len(h) != 3 || h[0].OrderID != 3 || h[1].OrderID != 2 || h[1].State != api.StateCancelled || h[2].OrderID != 1 {
		t.Fatalf("history %+v", h)
	}
	if s.Version(KindHistory) != v+2 {
		t.Fatalf("history version %d, want %d", s.Version(KindHistory), v+2)
	}
	s.Apply(rec(2, api.StateOpen, 3)) // an older copy, late
	if h := s.History(); h[1].State != api.StateCancelled {
		t.Fatalf("an older streamed copy replaced the newer: %+v", h[1])
	}
}
