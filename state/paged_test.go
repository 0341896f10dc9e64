package state

import (
	"fmt"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// fillsPage is page n of fills with a true envelope: total rows in all, limit a page.
func fillsPage(n, total, limit int, ids ...int) api.Page[api.Fill] {
	pages := (total + limit - 1) / limit
	return api.Page[api.Fill]{Data: fills(ids...), Page: n, Limit: limit, TotalCount: total, TotalPages: pages, HasNext: n < pages}
}

// TestPageOneOfAnotherHistoryReplaces (issue #24, case 7): after the exchange restarted, its page 1
// is its whole list (empty, or a few rows) or does not reach the rows held: the list becomes that
// page, and older pages load again. Guards the two replacement branches of mergeFirst (dropped:
// the previous instance's fills stay under or instead of the new ones forever).
func TestPageOneOfAnotherHistoryReplaces(t *testing.T) {
	s := New(nil)
	s.Apply(FillsMsg{Gen: 1, Page: fillsPage(1, 6, 3, 10, 9, 8)})
	s.Apply(FillsMsg{Gen: 2, Page: fillsPage(2, 6, 3, 7, 6, 5)})
	if got := fillIDs(s.Fills()); got != "10 9 8 7 6 5 " {
		t.Fatalf("loaded: %s", got)
	}
	// The same exchange, nothing new: no change (a whole-list check must not eat this).
	v := s.Version(KindFills)
	if s.Apply(FillsMsg{Gen: 3, Page: fillsPage(1, 6, 3, 10, 9, 8)}) || s.Version(KindFills) != v {
		t.Fatal("an unchanged page 1 is a change")
	}
	// A restarted exchange with no fills: an empty page 1 that says it is everything.
	if !s.Apply(FillsMsg{Gen: 4, Page: fillsPage(1, 0, 3)}) || len(s.Fills()) != 0 {
		t.Fatalf("after a restart with no fills: %s", fillIDs(s.Fills()))
	}
	s.Apply(FillsMsg{Gen: 5, Page: fillsPage(1, 6, 3, 10, 9, 8)})
	// ... with two fills of its own, whose ids the old instance had used.
	s.Apply(FillsMsg{Gen: 6, Page: fillsPage(1, 2, 3, 2, 1)})
	if got := fillIDs(s.Fills()); got != "2 1 " {
		t.Fatalf("a whole page 1 of two fills: %s", got)
	}
	if _, more := s.NextFillsPage(); more {
		t.Fatal("a whole list has no next page")
	}
	// A whole list that reaches the newest row held (an id the new instance used again): the
	// rows held below it are not the new instance's.
	s.Apply(FillsMsg{Gen: 7, Page: fillsPage(1, 6, 3, 10, 9, 8)})
	s.Apply(FillsMsg{Gen: 8, Page: fillsPage(2, 6, 3, 7, 6, 5)})
	s.Apply(FillsMsg{Gen: 9, Page: fillsPage(1, 2, 3, 11, 10)})
	if got := fillIDs(s.Fills()); got != "11 10 " {
		t.Fatalf("a whole page 1 reaching the rows held: %s", got)
	}
	// A page 1 of many pages that does not reach the newest row held: replaced, page 2 next.
	s.Apply(FillsMsg{Gen: 10, Page: fillsPage(1, 9, 3, 50, 49, 48)})
	if got := fillIDs(s.Fills()); got != "50 49 48 " {
		t.Fatalf("a page 1 that does not reach the rows held: %s", got)
	}
	if p, more := s.NextFillsPage(); !more || p != 2 {
		t.Fatalf("next page %d %v, want 2", p, more)
	}
	// A page 1 that reaches them is merged on top, as before.
	s.Apply(FillsMsg{Gen: 11, Page: fillsPage(1, 10, 3, 51, 50, 49)})
	if got := fillIDs(s.Fills()); got != "51 50 49 48 " {
		t.Fatalf("merged page 1: %s", got)
	}
}

// TestHistoryOfAnotherExchangeReplaces: the order history follows the same rule (an order's
// newer copy in a page that reaches the rows held still replaces the old one).
func TestHistoryOfAnotherExchangeReplaces(t *testing.T) {
	s := New(nil)
	page := func(total int, ids ...int) api.Page[api.OrderRecord] {
		out := api.Page[api.OrderRecord]{Page: 1, Limit: 100, TotalCount: total, TotalPages: (total + 99) / 100}
		for _, id := range ids {
			out.Data = append(out.Data, api.OrderRecord{OrderID: api.OrderID(id), State: api.StateFilled})
		}
		return out
	}
	s.Apply(HistoryMsg{Gen: 1, Page: page(3, 3, 2, 1)})
	s.Apply(HistoryMsg{Gen: 2, Page: page(0)})
	if n := len(s.History()); n != 0 {
		t.Fatalf("a restarted exchange's empty history leaves %d orders", n)
	}
}

// TestPagedListBounded (issue #16): a server that invents new rows on every page 1 (each page
// reaching the rows held, so they merge), answers later pages without end, or streams fills, never
// grows a list past its bound: the oldest rows go, the newest stay, and no older page is asked for
// after an eviction. Guards bound (dropped: the list grows with every poll; a flipped comparison
// evicts a list at its bound or keeps one over it) and next's stop after an eviction.
func TestPagedListBounded(t *testing.T) {
	s := New(nil)
	const limit = 50
	s.data(KindFills).(*fillData).rows.limit = limit
	top := 10
	s.Apply(FillsMsg{Gen: 1, Page: fillsPage(1, 1000, 10, ids(top, 10)...)})
	for gen := uint64(2); gen < 40; gen++ {
		top += 7
		s.Apply(FillsMsg{Gen: gen, Page: fillsPage(1, 1000, 10, ids(top, 10)...)})
		if n := len(s.Fills()); n > limit {
			t.Fatalf("poll %d: %d fills held, bound %d", gen, n, limit)
		}
	}
	got := s.Fills()
	if len(got) != limit || int(got[0].TradeID) != top || int(got[limit-1].TradeID) != top-limit+1 {
		t.Fatalf("held %d fills from %d to %d, want the newest %d from %d", len(got), got[0].TradeID, got[len(got)-1].TradeID, limit, top)
	}
	if s.FillsEvicted() == 0 {
		t.Fatal("no eviction counted")
	}
	if p, more := s.NextFillsPage(); more {
		t.Fatalf("after an eviction page %d is still asked for", p)
	}
	// Streamed fills, one at a time.
	for i := range 20 {
		s.Apply(FillMsg{Fill: fills(top + 1 + i)[0]})
	}
	if n := len(s.Fills()); n != limit || int(s.Fills()[0].TradeID) != top+20 {
		t.Fatalf("after streamed fills: %d held, top %d", n, s.Fills()[0].TradeID)
	}

	// A list exactly at its bound keeps every row and can load more.
	e := New(nil)
	e.data(KindFills).(*fillData).rows.limit = limit
	e.Apply(FillsMsg{Gen: 1, Page: fillsPage(1, 1000, limit, ids(limit, limit)...)})
	if n, p := len(e.Fills()), e.FillsEvicted(); n != limit || p != 0 {
		t.Fatalf("a list at its bound: %d held, %d evicted", n, p)
	}
	if p, more := e.NextFillsPage(); !more || p != 2 {
		t.Fatalf("a list at its bound cannot load page 2 (%d %v)", p, more)
	}
	// Later pages without end.
	for pg := 2; pg < 10; pg++ {
		e.Apply(FillsMsg{Gen: uint64(pg), Page: fillsPage(pg, 1000, limit, ids(limit*(pg+1)+1000, limit)...)})
	}
	if n := len(e.Fills()); n != limit || e.Fills()[0].TradeID != limit {
		t.Fatalf("after endless pages: %d held, top %d", n, e.Fills()[0].TradeID)
	}
}

// ids is n descending ids from top.
func ids(top, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = top - i
	}
	return out
}

// TestPagedBoundHistory: the order history has the same bound.
func TestPagedBoundHistory(t *testing.T) {
	s := New(nil)
	s.history().limit = 5
	var recs []api.OrderRecord
	for i := 20; i > 0; i-- {
		recs = append(recs, api.OrderRecord{OrderID: api.OrderID(i), Cloid: fmt.Sprint(i)})
	}
	s.Apply(HistoryMsg{Gen: 1, Page: api.Page[api.OrderRecord]{Page: 1, Data: recs, TotalCount: 20, TotalPages: 1}})
	if h := s.History(); len(h) != 5 || h[0].OrderID != 20 || s.HistoryEvicted() != 15 {
		t.Fatalf("history %d rows from %d, %d evicted", len(h), h[0].OrderID, s.HistoryEvicted())
	}
}
