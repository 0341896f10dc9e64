package state

import (
	"fmt"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

func openOrder(id int, unfilled string, at time.Time) api.OrderRecord {
	return api.OrderRecord{OrderID: api.OrderID(id), State: api.StateOpen, Size: d("1"), Unfilled: d(unfilled),
		Timestamp: api.Time{Time: at}}
}

func orderIDs(os []api.OrderRecord) string {
	s := ""
	for _, o := range os {
		s += fmt.Sprint(o.OrderID) + ":" + o.Unfilled.String() + " "
	}
	return s
}

// TestPollStartedBeforeStreamCannotOverwrite: a poll of the open orders sent before a streamed
// update and answered after it must not take the update back; a poll sent after it replaces the
// list whole. Guards: the replay dropped or its time comparison flipped (the old list comes back,
// or an order the exchange no longer has stays forever).
func TestPollStartedBeforeStreamCannotOverwrite(t *testing.T) {
	now := t0
	s := New(fixedClock(&now))
	s.Apply(OrdersMsg{Gen: 1, At: t0, Orders: []api.OrderRecord{openOrder(1, "1", t0)}})

	sent := t0.Add(time.Second) // poll 2 is sent...
	now = t0.Add(2 * time.Second)
	// ...then order 1 half fills and order 2 is placed, streamed...
	if !s.Apply(OrderUpdateMsg{Record: openOrder(1, "0.5", now)}) || !s.Apply(&OrderUpdateMsg{Record: openOrder(2, "1", now)}) {
		t.Fatal("streamed updates are changes")
	}
	if got := orderIDs(s.Orders()); got != "2:1 1:0.5 " {
		t.Fatalf("after the stream: %s", got)
	}
	// ...then poll 2's answer arrives, from before the fill.
	now = t0.Add(3 * time.Second)
	s.Apply(OrdersMsg{Gen: 2, At: sent, Orders: []api.OrderRecord{openOrder(1, "1", t0)}})
	if got := orderIDs(s.Orders()); got != "2:1 1:0.5 " {
		t.Fatalf("a poll sent before the stream overwrote it: %s", got)
	}
	if f := s.Freshness(KindOrders); !f.At.Equal(t0.Add(2 * time.Second)) {
		// The newest data of either route (issue #31 #7): the streamed update, received after
		// the poll was sent, not the poll's older time.
		t.Fatalf("the kind's time is its newest data's (the streamed update's): %v", f.At)
	}
	// A poll sent after the stream is the whole truth: order 2 was cancelled meanwhile.
	s.Apply(OrdersMsg{Gen: 3, At: now, Orders: []api.OrderRecord{openOrder(1, "0.5", t0.Add(2*time.Second))}})
	if got := orderIDs(s.Orders()); got != "1:0.5 " {
		t.Fatalf("a poll sent after the stream must replace the list: %s", got)
	}
	// A poll's generation never drops a stream message, and the stream drops nothing of polls.
	closed := openOrder(1, "0", now)
	closed.State = api.StateFilled
	if !s.Apply(OrderUpdateMsg{Record: closed}) || len(s.Orders()) != 0 {
		t.Fatalf("a filled order leaves the open orders: %s", orderIDs(s.Orders()))
	}
	if !s.Apply(OrdersMsg{Gen: 4, At: now.Add(time.Second), Orders: []api.OrderRecord{openOrder(3, "1", now)}}) {
		t.Fatal("a newer poll after the stream applies")
	}
}

// TestStreamOrdering: stream messages order by their sequence number (a replay after a
// resubscription is dropped), and an upsert never replaces a copy the exchange stamped later.
// Guards: the Seq comparison flipped or dropped; the per-record timestamp check flipped.
func TestStreamOrdering(t *testing.T) {
	now := t0
	s := New(fixedClock(&now))
	s.Apply(OrdersMsg{Gen: 7, Orders: nil})
	if !s.Apply(OrderUpdateMsg{Seq: 5, Record: openOrder(1, "1", t0)}) {
		t.Fatal("seq 5 applies after a poll of generation 7")
	}
	if s.Apply(OrderUpdateMsg{Seq: 5, Record: openOrder(1, "0.2", t0)}) || s.Apply(OrderUpdateMsg{Seq: 4, Record: openOrder(1, "0.3", t0)}) {
		t.Fatal("a sequence number at or below the last applied is a replay")
	}
	if !s.Apply(OrderUpdateMsg{Seq: 6, Record: openOrder(1, "0.5", t0.Add(time.Second))}) {
		t.Fatal("seq 6 applies")
	}
	if s.Apply(OrderUpdateMsg{Seq: 7, Record: openOrder(1, "0.9", t0)}) {
		t.Fatal("an update stamped before the copy held does not replace it")
	}
	if got := orderIDs(s.Orders()); got != "1:0.5 " {
		t.Fatalf("orders %s", got)
	}
	if s.Apply(OrdersMsg{Gen: 6, Orders: nil}) {
		t.Fatal("polls still order among themselves by generation")
	}
}

// TestStreamedFillStaysOnTop: a fill streamed after page 1's request was sent stays on top of
// that page, once; a later page 1 that holds it is no change. Guards: the streamed fill dropped by
// the page, moved under it, or duplicated.
func TestStreamedFillStaysOnTop(t *testing.T) {
	now := t0
	s := New(fixedClock(&now))
	s.Apply(FillsMsg{Gen: 1, At: t0, Page: api.Page[api.Fill]{Page: 1, Data: fills(10, 9)}})
	sent := t0.Add(time.Second)
	now = t0.Add(2 * time.Second)
	if !s.Apply(FillMsg{Fill: fills(11)[0]}) {
		t.Fatal("a new fill is a change")
	}
	if s.Apply(FillMsg{Fill: fills(11)[0]}) {
		t.Fatal("the same fill again is not")
	}
	s.Apply(FillsMsg{Gen: 2, At: sent, Page: api.Page[api.Fill]{Page: 1, Data: fills(10, 9)}})
	if got := fillIDs(s.Fills()); got != "11 10 9 " {
		t.Fatalf("after an older page 1: %s", got)
	}
	v := s.Version(KindFills)
	s.Apply(FillsMsg{Gen: 3, At: now, Page: api.Page[api.Fill]{Page: 1, Data: fills(11, 10, 9)}})
	if got := fillIDs(s.Fills()); got != "11 10 9 " || s.Version(KindFills) != v {
		t.Fatalf("a page 1 holding the streamed fill: %s (version %d -> %d)", got, v, s.Version(KindFills))
	}
}

// TestStreamSequenceKeepsItsHighest: a streamed record without a sequence number (Seq 0) is
// taken, but does not lower the sequence seen: a late record numbered below the highest seen is
// still refused. Guards the highest kept by max (mutant store/stream-seq-kept).
func TestStreamSequenceKeepsItsHighest(t *testing.T) {
	now := t0
	s := New(fixedClock(&now))
	if !s.Apply(OrderUpdateMsg{Seq: 5, At: now, Record: openOrder(1, "1", now)}) {
		t.Fatal("the first update is a change")
	}
	if !s.Apply(OrderUpdateMsg{At: now, Record: openOrder(2, "1", now)}) {
		t.Fatal("an update without a sequence number was refused")
	}
	if s.Apply(OrderUpdateMsg{Seq: 3, At: now, Record: openOrder(1, "0.2", now)}) {
		t.Fatalf("update 3 taken after update 5: %s", orderIDs(s.Orders()))
	}
}
