package state

import (
	"fmt"
	"log/slog"
	"sort"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// KindBook is the order book of the instruments the ladder shows, one book per instrument. A
// quiet book streams nothing, so its age counts from the last contact of any kind (a poll, its
// reconciliation every 30 s while streaming, an update): stale after 35 s, or at once on a failure.
var KindBook = newKind("book", 35*time.Second, func() any { return &bookData{books: map[string]*book{}} })

type bookData struct {
	books map[string]*book
}

// book is one instrument's book. Its level slices are edited in place by updates (a delta costs
// a binary search per changed level, not a rebuild), so they never leave the store: readers get
// copies of the window they draw (BookWindow).
type book struct {
	bids, asks []api.BookLevel // bids best (highest) first, asks best (lowest) first
	seq        uint64          // the stream's last sequence number (0: none yet)
	at         time.Time       // the exchange's timestamp of the last snapshot or update
	streamAt   time.Time       // when the last streamed message was received (zero: never)
	err        string          // why the book cannot be drawn ("" when it is sound)
	gap        bool            // the stream skipped a sequence number: a snapshot is needed
	loaded     bool
}

func (s *Store) bookData() *bookData { return s.data(KindBook).(*bookData) }

// BookMsg carries the result of a polled `orderbook`: a snapshot that replaces the instrument's
// book, unless a streamed update was received after the poll's request was sent.
type BookMsg struct {
	Gen  uint64
	At   time.Time // when the request was sent
	Book api.OrderBook
}

// Kind implements Msg.
func (BookMsg) Kind() Kind { return KindBook }

// Order implements Msg.
func (m BookMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

func (m BookMsg) apply(s *Store, o Order) bool {
	b := s.bookData().get(m.Book.Symbol)
	if b.streamAt.After(o.At) {
		return false // the stream has newer levels than this poll's answer
	}
	return b.snapshot(m.Book.Symbol, m.Book.Bids, m.Book.Asks, 0, m.Book.Time.Time)
}

// BookUpdateMsg is one streamed `orderbook` notification: a snapshot replaces the book, an update
// changes the levels it lists (a size of 0 deletes a level). Sequence numbers are per instrument,
// so the store checks them per book (Order carries none): a number at or below the last applied
// is a replay and dropped; a gap marks the book unusable until the next snapshot
// (BookNeedsSnapshot).
type BookUpdateMsg struct {
	At       time.Time // when it was received
	Symbol   string
	Snapshot bool
	Seq      uint64 // the exchange's sequence_number (0: none)
	Time     time.Time
	Bids     []api.BookLevel
	Asks     []api.BookLevel
}

// Kind implements Msg.
func (BookUpdateMsg) Kind() Kind { return KindBook }

// Order implements Msg.
func (m BookUpdateMsg) Order() Order { return Order{At: m.At, Stream: true} }

func (m BookUpdateMsg) apply(s *Store, o Order) bool {
	b := s.bookData().get(m.Symbol)
	if m.Seq > 0 && b.seq > 0 && m.Seq <= b.seq && !m.Snapshot {
		return false
	}
	b.streamAt = o.At
	if m.Snapshot {
		return b.snapshot(m.Symbol, m.Bids, m.Asks, m.Seq, m.Time)
	}
	if b.gap || !b.loaded {
		return false // wait for the snapshot
	}
	if m.Seq > 0 && b.seq > 0 && m.Seq != b.seq+1 {
		b.fail(m.Symbol, fmt.Sprintf("sequence gap (%d after %d): waiting for a fresh book", m.Seq, b.seq))
		b.gap = true
		return true
	}
	if m.Seq > 0 {
		b.seq = m.Seq
	}
	return b.update(m.Symbol, m.Bids, m.Asks, m.Time)
}

func (d *bookData) get(symbol string) *book {
	b := d.books[symbol]
	if b == nil {
		b = &book{}
		d.books[symbol] = b
	}
	return b
}

// snapshot replaces the book with checked levels, or marks it failed with the reason.
func (b *book) snapshot(symbol string, bids, asks []api.BookLevel, seq uint64, at time.Time) bool {
	b.loaded, b.gap, b.seq, b.at = true, false, seq, at
	if why := checkBook(bids, asks); why != "" {
		return b.fail(symbol, why)
	}
	changed := b.err != "" || !levelsEqual(b.bids, bids) || !levelsEqual(b.asks, asks)
	b.err = ""
	b.bids = append(b.bids[:0], bids...)
	b.asks = append(b.asks[:0], asks...)
	return changed
}

// fail marks the book unusable (nothing of it is drawn) and logs why, once per reason.
func (b *book) fail(symbol, why string) bool {
	if b.err == why {
		return false
	}
	slog.Warn("order book dropped", "instrument", symbol, "reason", why)
	b.err, b.bids, b.asks = why, b.bids[:0], b.asks[:0]
	return true
}

// update applies changed levels, each in O(log n) to find it; a negative size drops the whole
// update and waits for a snapshot, and a book left crossed or with a side over api.MaxBookLevels
// (the stream checks that first: see api.Stream) is marked failed.
func (b *book) update(symbol string, bids, asks []api.BookLevel, at time.Time) bool {
	for _, l := range append(bids[:len(bids):len(bids)], asks...) {
		if l.Size.IsNegative() || !l.Price.IsPositive() {
			b.gap = true
			return b.fail(symbol, fmt.Sprintf("update with price %s size %s: waiting for a fresh book", l.Price, l.Size))
		}
	}
	changed := false
	for _, l := range bids {
		b.bids = setLevel(b.bids, l, true, &changed)
	}
	for _, l := range asks {
		b.asks = setLevel(b.asks, l, false, &changed)
	}
	b.at = at
	if n := max(len(b.bids), len(b.asks)); n > api.MaxBookLevels {
		b.gap = true
		return b.fail(symbol, fmt.Sprintf("%d levels a side after an update, over the %d kept: waiting for a fresh book", n, api.MaxBookLevels))
	}
	if len(b.bids) > 0 && len(b.asks) > 0 && !b.bids[0].Price.LessThan(b.asks[0].Price) {
		b.gap = true
		return b.fail(symbol, fmt.Sprintf("crossed after an update: bid %s ≥ ask %s; waiting for a fresh book", b.bids[0].Price, b.asks[0].Price))
	}
	return changed
}

// setLevel sets one level of a side (bids descending, asks ascending); size 0 deletes it.
func setLevel(side []api.BookLevel, l api.BookLevel, bids bool, changed *bool) []api.BookLevel {
	i := sort.Search(len(side), func(i int) bool {
		c := side[i].Price.Cmp(l.Price)
		if bids {
			return c <= 0
		}
		return c >= 0
	})
	found := i < len(side) && side[i].Price.Equal(l.Price)
	switch {
	case l.Size.IsZero() && found:
		*changed = true
		return append(side[:i], side[i+1:]...)
	case l.Size.IsZero():
		return side
	case found:
		if !side[i].Size.Equal(l.Size) {
			side[i].Size = l.Size
			*changed = true
		}
		return side
	}
	*changed = true
	side = append(side, api.BookLevel{})
	copy(side[i+1:], side[i:])
	side[i] = l
	return side
}

// checkBook is why a snapshot cannot be drawn as it is ("" when it can): a level priced at or
// below zero, a size at or below zero, a side out of order or with a price twice, or bids that
// reach the asks.
func checkBook(bids, asks []api.BookLevel) string {
	for _, side := range []struct {
		name   string
		levels []api.BookLevel
		desc   bool
	}{{"bids", bids, true}, {"asks", asks, false}} {
		for i, l := range side.levels {
			if !l.Price.IsPositive() || !l.Size.IsPositive() {
				return fmt.Sprintf("%s level %d has price %s size %s", side.name, i+1, l.Price, l.Size)
			}
			if i == 0 {
				continue
			}
			c := l.Price.Cmp(side.levels[i-1].Price)
			if c == 0 {
				return fmt.Sprintf("%s list price %s twice", side.name, l.Price)
			}
			if (c > 0) == side.desc {
				return fmt.Sprintf("%s are not sorted (%s after %s)", side.name, l.Price, side.levels[i-1].Price)
			}
		}
	}
	if len(bids) > 0 && len(asks) > 0 && !bids[0].Price.LessThan(asks[0].Price) {
		return fmt.Sprintf("crossed book: best bid %s ≥ best ask %s", bids[0].Price, asks[0].Price)
	}
	return ""
}

func levelsEqual(a, b []api.BookLevel) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Price.Equal(b[i].Price) || !a[i].Size.Equal(b[i].Size) {
			return false
		}
	}
	return true
}

// BookRow is one row of a ladder: a price (a group's price when grouped), the size resting there
// and the size from the best price out to this row.
type BookRow struct {
	Price, Size, Cum decimal.Decimal
}

// BookView is a window of one instrument's book as a ladder draws it.
type BookView struct {
	Loaded  bool   // a book of this instrument has arrived
	Err     string // why the book is not shown ("" when it is sound)
	Asks    []BookRow
	Bids    []BookRow // both best first
	BestBid decimal.Decimal
	BestAsk decimal.Decimal
	Levels  [2]int // the raw levels held: bids, asks
	Time    time.Time
}

// Mid is the average of the best bid and ask (zero when a side is empty).
func (v BookView) Mid() decimal.Decimal {
	if !v.BestBid.IsPositive() || !v.BestAsk.IsPositive() {
		return decimal.Zero
	}
	return v.BestBid.Add(v.BestAsk).Div(decimal.NewFromInt(2))
}

// Spread is the best ask minus the best bid (zero when a side is empty).
func (v BookView) Spread() decimal.Decimal {
	if !v.BestBid.IsPositive() || !v.BestAsk.IsPositive() {
		return decimal.Zero
	}
	return v.BestAsk.Sub(v.BestBid)
}

// BookWindow is up to rows rows of each side of symbol's book, best first, with levels grouped
// into buckets of group (zero or less: no grouping): a bid goes to the bucket at or below its
// price, an ask to the bucket at or above it. It reads only the levels it shows.
func (s *Store) BookWindow(symbol string, group decimal.Decimal, rows int) BookView {
	s.mu.RLock()
	defer s.mu.RUnlock()
	b := s.bookData().books[symbol]
	if b == nil || !b.loaded {
		return BookView{}
	}
	v := BookView{Loaded: true, Err: b.err, Levels: [2]int{len(b.bids), len(b.asks)}, Time: b.at}
	if b.err != "" {
		return v
	}
	if len(b.bids) > 0 {
		v.BestBid = b.bids[0].Price
	}
	if len(b.asks) > 0 {
		v.BestAsk = b.asks[0].Price
	}
	v.Bids = groupLevels(b.bids, group, rows, true)
	v.Asks = groupLevels(b.asks, group, rows, false)
	return v
}

// BookNeedsSnapshot reports whether symbol's book waits for a snapshot (a sequence gap or a bad
// update): the stream resubscribes.
func (s *Store) BookNeedsSnapshot(symbol string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	b := s.bookData().books[symbol]
	return b != nil && b.gap
}

// groupLevels merges levels (best first) into up to rows buckets and sums their sizes.
func groupLevels(levels []api.BookLevel, group decimal.Decimal, rows int, bids bool) []BookRow {
	out := make([]BookRow, 0, min(rows, len(levels)))
	cum := decimal.Zero
	for _, l := range levels {
		px := GroupPrice(l.Price, group, bids)
		cum = cum.Add(l.Size)
		if n := len(out); n > 0 && out[n-1].Price.Equal(px) {
			out[n-1].Size = out[n-1].Size.Add(l.Size)
			out[n-1].Cum = cum
			continue
		}
		if len(out) == rows {
			break
		}
		out = append(out, BookRow{Price: px, Size: l.Size, Cum: cum})
	}
	return out
}

// GroupPrice is the level px is grouped into when the book is grouped by group: down to a
// multiple of group for a bid, up for an ask (px itself when group is not positive). The ladder
// places the trader's own orders on the grouped levels by it.
func GroupPrice(px, group decimal.Decimal, bids bool) decimal.Decimal {
	if !group.IsPositive() {
		return px
	}
	q := px.Div(group)
	if bids {
		q = q.Floor()
	} else {
		q = q.Ceil()
	}
	return q.Mul(group)
}
