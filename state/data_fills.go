package state

import (
	"reflect"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// KindFills is the account's fills, loaded page by page, newest first.
var KindFills = newKind("fills", 30*time.Second, func() any {
	return &fillData{rows: pagedList[api.Fill, fillKey]{name: "fills", key: func(f api.Fill) fillKey { return fillKey{f.TradeID, f.OrderID} }}}
})

type fillData struct {
	rows pagedList[api.Fill, fillKey]
	// streamed are the fills received since the last page 1's request was sent: they stay on top
	// of that page (see Order).
	streamed []streamedFill
}

type streamedFill struct {
	at   time.Time
	fill api.Fill
}

// fillKey identifies one fill: a trade has one fill per order that took part, so a self-trade has
// two fills with the same trade id.
type fillKey struct {
	trade api.TradeID
	order api.OrderID
}

// FillsMsg carries one page of fills. Page 1 (the newest) is merged on top without duplicates,
// under the fills streamed after its request was sent; later pages are appended below.
type FillsMsg struct {
	Gen  uint64
	At   time.Time // when the request was sent
	Page api.Page[api.Fill]
}

// Kind implements Msg.
func (FillsMsg) Kind() Kind { return KindFills }

// Order implements Msg.
func (m FillsMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m FillsMsg) apply(s *Store, o Order) bool {
	d := s.data(KindFills).(*fillData)
	if m.Page.Page > 1 {
		return d.rows.merge(m.Page)
	}
	var keep []streamedFill
	for _, f := range d.streamed {
		if f.at.After(o.At) {
			keep = append(keep, f)
		}
	}
	d.streamed = keep
	if len(keep) == 0 {
		return d.rows.merge(m.Page)
	}
	old := d.rows.rows
	// The streamed rows come out before the merge, so the page is compared with the rows it can
	// hold, and go back on top after it.
	streamed := make(map[fillKey]struct{}, len(keep))
	for _, f := range keep {
		streamed[d.rows.key(f.fill)] = struct{}{}
	}
	d.rows.without(streamed)
	d.rows.merge(m.Page)
	for i := len(keep) - 1; i >= 0; i-- { // oldest first, so the newest ends on top
		d.rows.raise(keep[i].fill)
	}
	return !reflect.DeepEqual(old, d.rows.rows)
}

// FillMsg carries one fill that arrived (a streamed fill): it goes on top, once.
type FillMsg struct {
	Seq  uint64    // the exchange's sequence number (0: none)
	At   time.Time // when it was received
	Fill api.Fill
}

// Kind implements Msg.
func (FillMsg) Kind() Kind { return KindFills }

// Order implements Msg.
func (m FillMsg) Order() Order { return Order{Seq: m.Seq, At: m.At, Stream: true} }

func (m FillMsg) apply(s *Store, o Order) bool {
	d := s.data(KindFills).(*fillData)
	d.streamed = append(d.streamed, streamedFill{at: o.At, fill: m.Fill})
	return d.rows.upsertTop(m.Fill)
}

// Fills returns the fills loaded so far, newest first.
func (s *Store) Fills() []api.Fill {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data(KindFills).(*fillData).rows.rows
}

// FillsEvicted is how many of the oldest fills were let go to keep the list within MaxPagedRows
// (0: none; then older pages can still load).
func (s *Store) FillsEvicted() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data(KindFills).(*fillData).rows.evicted
}

// NextFillsPage returns the page to fetch to load older fills, and false when all are loaded.
func (s *Store) NextFillsPage() (int, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.data(KindFills).(*fillData).rows.next()
}
