package state

import (
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindHistory is the account's order history, loaded page by page, newest first.
var KindHistory = newKind("history", 30*time.Second, func() any {
	return &pagedList[api.OrderRecord, api.OrderID]{name: "history", key: func(o api.OrderRecord) api.OrderID { return o.OrderID }}
})

// HistoryMsg carries one page of order history, merged like FillsMsg (by order id; a newer copy of
// an order replaces the older one).
type HistoryMsg struct {
	Gen  uint64
	At   time.Time
	Page api.Page[api.OrderRecord]
}

// Kind implements Msg.
func (HistoryMsg) Kind() Kind { return KindHistory }

// Order implements Msg.
func (m HistoryMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m HistoryMsg) apply(s *Store, _ Order) bool { return s.history().merge(m.Page) }

func (s *Store) history() *pagedList[api.OrderRecord, api.OrderID] {
	return s.data(KindHistory).(*pagedList[api.OrderRecord, api.OrderID])
}

// History returns the order history loaded so far, newest first.
func (s *Store) History() []api.OrderRecord {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.history().rows
}

// HistoryEvicted is how many of the oldest orders were let go to keep the history within
// MaxPagedRows (0: none).
func (s *Store) HistoryEvicted() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.history().evicted
}

// NextHistoryPage returns the page to fetch to load older history, and false when all are loaded.
func (s *Store) NextHistoryPage() (int, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.history().next()
}

// streamedHistory takes a streamed order record into the order history loaded (under s.mu): the
// copy held of the order is replaced, unless it is newer by the exchange's timestamp; a new
// order's goes on top (the history is newest first). The history's version moves when it
// changed, so its pane shows what the stream said without polling for it. Before the history's
// first page loaded nothing is taken: that page brings it.
func (s *Store) streamedHistory(rec api.OrderRecord) {
	ks := &s.kinds[KindHistory]
	if ks.at.IsZero() || rec.OrderID == 0 {
		return
	}
	h := s.history()
	for _, held := range h.rows {
		if held.OrderID == rec.OrderID && held.Timestamp.After(rec.Timestamp.Time) {
			return
		}
	}
	if h.upsertTop(rec) {
		ks.version++
	}
}
