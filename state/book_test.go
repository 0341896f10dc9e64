package state

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

var bookT0 = time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)

func lv(px, sz string) api.BookLevel {
	return api.BookLevel{Price: decimal.RequireFromString(px), Size: decimal.RequireFromString(sz)}
}

func sampleBook() api.OrderBook {
	return api.OrderBook{Symbol: "BTC-PERP",
		Bids: []api.BookLevel{lv("100.0", "1"), lv("99.9", "2"), lv("99.5", "3"), lv("98.2", "4")},
		Asks: []api.BookLevel{lv("100.1", "1.5"), lv("100.4", "2"), lv("101.0", "1"), lv("102.7", "5")}}
}

func rowsText(rs []BookRow) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(r.Price.String() + "x" + r.Size.String() + "=" + r.Cum.String() + " ")
	}
	return strings.TrimSpace(b.String())
}

// TestBookWindowGroupsBidsDownAndAsksUp guards the bucket direction (a bid grouped up would
// show a price above the real bid) and the cumulative sum (from the best price out).
func TestBookWindowGroupsBidsDownAndAsksUp(t *testing.T) {
	s := New(func() time.Time { return bookT0 })
	if !s.Apply(BookMsg{Gen: 1, At: bookT0, Book: sampleBook()}) {
		t.Fatal("the snapshot changed nothing")
	}
	v := s.BookWindow("BTC-PERP", decimal.Zero, 3)
	if got := rowsText(v.Bids); got != "100x1=1 99.9x2=3 99.5x3=6" {
		t.Errorf("bids %s", got)
	}
	if got := rowsText(v.Asks); got != "100.1x1.5=1.5 100.4x2=3.5 101x1=4.5" {
		t.Errorf("asks %s", got)
	}
	if !v.Mid().Equal(decimal.RequireFromString("100.05")) || !v.Spread().Equal(decimal.RequireFromString("0.1")) {
		t.Errorf("mid %s spread %s", v.Mid(), v.Spread())
	}
	v = s.BookWindow("BTC-PERP", decimal.NewFromInt(1), 10)
	if got := rowsText(v.Bids); got != "100x1=1 99x5=6 98x4=10" {
		t.Errorf("bids by 1: %s", got)
	}
	if got := rowsText(v.Asks); got != "101x4.5=4.5 103x5=9.5" {
		t.Errorf("asks by 1: %s", got)
	}
}

// TestBadBooksAreNotDrawn: a crossed book, a price twice, a negative size or an unsorted side is
// an error state with no levels, never a ladder drawn as if true; a sound snapshot recovers.
func TestBadBooksAreNotDrawn(t *testing.T) {
	for name, mutate := range map[string]func(*api.OrderBook){
		"crossed":   func(b *api.OrderBook) { b.Bids[0] = lv("100.2", "1") },
		"duplicate": func(b *api.OrderBook) { b.Asks[1] = lv("100.1", "1") },
		"negative":  func(b *api.OrderBook) { b.Bids[2] = lv("99.5", "-3") },
		"unsorted":  func(b *api.OrderBook) { b.Asks[1], b.Asks[2] = b.Asks[2], b.Asks[1] },
		"zero px":   func(b *api.OrderBook) { b.Bids[3] = lv("0", "1") },
	} {
		t.Run(name, func(t *testing.T) {
			s := New(func() time.Time { return bookT0 })
			bad := sampleBook()
			mutate(&bad)
			s.Apply(BookMsg{Gen: 1, At: bookT0, Book: bad})
			v := s.BookWindow("BTC-PERP", decimal.Zero, 10)
			if v.Err == "" || len(v.Bids)+len(v.Asks) != 0 {
				t.Fatalf("bad book shown: err %q, %d rows", v.Err, len(v.Bids)+len(v.Asks))
			}
			s.Apply(BookMsg{Gen: 2, At: bookT0, Book: sampleBook()})
			if v := s.BookWindow("BTC-PERP", decimal.Zero, 10); v.Err != "" || len(v.Bids) != 4 {
				t.Errorf("a sound snapshot did not recover: %q", v.Err)
			}
		})
	}
}

// TestBookUpdatesChangeOnlyTheirLevels: an update inserts, resizes and deletes levels in place
// (size 0 deletes), a replayed sequence number is dropped, a gap waits for a snapshot, and a poll
// sent before a streamed update cannot overwrite it.
func TestBookUpdatesChangeOnlyTheirLevels(t *testing.T) {
	s := New(func() time.Time { return bookT0 })
	b := sampleBook()
	s.Apply(BookUpdateMsg{At: bookT0, Symbol: "BTC-PERP", Snapshot: true, Seq: 10, Bids: b.Bids, Asks: b.Asks})
	if !s.Apply(BookUpdateMsg{At: bookT0.Add(time.Millisecond), Symbol: "BTC-PERP", Seq: 11,
		Bids: []api.BookLevel{lv("99.95", "7"), lv("99.5", "0")}, Asks: []api.BookLevel{lv("100.4", "9")}}) {
		t.Fatal("update changed nothing")
	}
	v := s.BookWindow("BTC-PERP", decimal.Zero, 10)
	if got := rowsText(v.Bids); got != "100x1=1 99.95x7=8 99.9x2=10 98.2x4=14" {
		t.Errorf("bids after update: %s", got)
	}
	if got := rowsText(v.Asks); got != "100.1x1.5=1.5 100.4x9=10.5 101x1=11.5 102.7x5=16.5" {
		t.Errorf("asks after update: %s", got)
	}
	if s.Apply(BookUpdateMsg{At: bookT0.Add(2 * time.Millisecond), Symbol: "BTC-PERP", Seq: 11, Asks: []api.BookLevel{lv("100.4", "1")}}) {
		t.Error("a replayed sequence number was applied")
	}
	// A poll sent before the update was received does not replace the streamed levels.
	if s.Apply(BookMsg{Gen: 1, At: bookT0, Book: sampleBook()}) {
		t.Error("an older poll overwrote the streamed book")
	}
	s.Apply(BookUpdateMsg{At: bookT0.Add(3 * time.Millisecond), Symbol: "BTC-PERP", Seq: 13, Asks: []api.BookLevel{lv("100.4", "1")}})
	if v := s.BookWindow("BTC-PERP", decimal.Zero, 10); v.Err == "" || !s.BookNeedsSnapshot("BTC-PERP") {
		t.Errorf("a sequence gap was not flagged: %q", v.Err)
	}
	s.Apply(BookUpdateMsg{At: bookT0.Add(4 * time.Millisecond), Symbol: "BTC-PERP", Snapshot: true, Seq: 20, Bids: b.Bids, Asks: b.Asks})
	if s.BookNeedsSnapshot("BTC-PERP") || s.BookWindow("BTC-PERP", decimal.Zero, 1).Err != "" {
		t.Error("a snapshot did not clear the gap")
	}
	// An update that crosses the book is not drawn.
	s.Apply(BookUpdateMsg{At: bookT0.Add(5 * time.Millisecond), Symbol: "BTC-PERP", Seq: 21, Bids: []api.BookLevel{lv("100.5", "1")}})
	if v := s.BookWindow("BTC-PERP", decimal.Zero, 10); v.Err == "" || len(v.Bids) != 0 {
		t.Errorf("a crossing update was drawn: %q", v.Err)
	}
}

func trade(id uint64, sym, side, px string, sec int) api.Trade {
	return api.Trade{TradeID: api.TradeID(id), Instrument: sym, Side: side, Price: decimal.RequireFromString(px),
		Size: decimal.RequireFromString("0.5"), Time: api.Time{Time: bookT0.Add(time.Duration(sec) * time.Second)}}
}

// TestTapeIsNewestFirstWithoutDuplicates: polls and streamed trades merge by trade id, newest
// first; a trade of another instrument or with a negative size is dropped.
func TestTapeIsNewestFirstWithoutDuplicates(t *testing.T) {
	s := New(func() time.Time { return bookT0 })
	s.Apply(TradesMsg{Gen: 1, At: bookT0, Symbol: "BTC-PERP", Trades: []api.Trade{
		trade(3, "BTC-PERP", "b", "101", 3), trade(2, "BTC-PERP", "s", "100", 2), trade(9, "ETH-PERP", "b", "3000", 2)}})
	s.Apply(TradeMsg{At: bookT0, Symbol: "BTC-PERP", Trade: trade(4, "BTC-PERP", "s", "99", 4)})
	if s.Apply(TradeMsg{At: bookT0, Symbol: "BTC-PERP", Trade: trade(3, "BTC-PERP", "b", "101", 3)}) {
		t.Error("a trade held already was added again")
	}
	bad := trade(5, "BTC-PERP", "b", "100", 5)
	bad.Size = decimal.NewFromInt(-1)
	s.Apply(TradeMsg{At: bookT0, Symbol: "BTC-PERP", Trade: bad})
	s.Apply(TradesMsg{Gen: 2, At: bookT0, Symbol: "BTC-PERP", Trades: []api.Trade{trade(4, "BTC-PERP", "s", "99", 4), trade(1, "BTC-PERP", "b", "98", 1)}})
	var ids []api.TradeID
	for _, tr := range s.Trades("BTC-PERP", 10) {
		ids = append(ids, tr.TradeID)
	}
	if len(ids) != 4 || ids[0] != 4 || ids[1] != 3 || ids[2] != 2 || ids[3] != 1 {
		t.Errorf("tape ids %v, want [4 3 2 1]", ids)
	}
	if n := len(s.Trades("ETH-PERP", 10)); n != 0 {
		t.Errorf("%d trades of another instrument kept", n)
	}
	for i := range MaxTape * 2 {
		s.Apply(TradeMsg{At: bookT0, Symbol: "BTC-PERP", Trade: trade(uint64(100+i), "BTC-PERP", "b", "100", 10+i)})
	}
	if n := s.TradeCount("BTC-PERP"); n > MaxTape+MaxTape/4 || n < MaxTape {
		t.Errorf("%d trades held, want about %d", n, MaxTape)
	}
	if got := s.Trades("BTC-PERP", 1)[0].TradeID; got != api.TradeID(100+MaxTape*2-1) {
		t.Errorf("newest %d", got)
	}
}

// TestBookHoldsAtMostTheCapASide: updates that keep adding bid levels stop at api.MaxBookLevels a
// side: the one past it marks the book unusable until a fresh snapshot, with the reason, and frees
// its levels. Guards a book that grows without bound (555 MB in 35 s under a hostile stream).
func TestBookHoldsAtMostTheCapASide(t *testing.T) {
	s := New(func() time.Time { return bookT0 })
	s.Apply(BookUpdateMsg{At: bookT0, Symbol: "BTC-PERP", Snapshot: true, Seq: 1, Asks: []api.BookLevel{lv("100000", "1")}})
	seq := uint64(1)
	add := func(from, n int) {
		levels := make([]api.BookLevel, n)
		for i := range levels {
			levels[i] = lv(decimal.NewFromInt(int64(from+i)).String(), "1")
		}
		seq++
		s.Apply(BookUpdateMsg{At: bookT0, Symbol: "BTC-PERP", Seq: seq, Bids: levels})
	}
	for from := 1; from <= api.MaxBookLevels; from += 1000 {
		add(from, 1000)
	}
	if v := s.BookWindow("BTC-PERP", decimal.Zero, 1); v.Err != "" || v.Levels[0] != api.MaxBookLevels {
		t.Fatalf("at the cap: %d bids held, err %q", v.Levels[0], v.Err)
	}
	add(api.MaxBookLevels+1, 1)
	v := s.BookWindow("BTC-PERP", decimal.Zero, 1)
	if !strings.Contains(v.Err, "over the 5000 kept") || v.Levels[0] != 0 || !s.BookNeedsSnapshot("BTC-PERP") {
		t.Fatalf("past the cap: %d bids held, err %q, needs a snapshot %v", v.Levels[0], v.Err, s.BookNeedsSnapshot("BTC-PERP"))
	}
}
