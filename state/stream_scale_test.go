package state

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// bytesPerApply is the memory one Apply of next(i) allocates on average over runs, after as many
// runs before (they warm up what the store keeps per instrument).
func bytesPerApply(s *Store, runs int, next func(i int) Msg) float64 {
	msgs := make([]Msg, 2*runs)
	for i := range msgs {
		msgs[i] = next(i)
	}
	for _, m := range msgs[:runs] {
		s.Apply(m)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for _, m := range msgs[runs:] {
		s.Apply(m)
	}
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(runs)
}

// A streamed ticker or mid costs the same with 500 instruments as with 10: the store changes
// that instrument's entry, and copies neither the list nor the map of the others.
func TestStreamedUpdateCostDoesNotGrowWithInstruments(t *testing.T) {
	at := time.UnixMilli(1769690400000)
	ticker := func(n int) float64 {
		s := tickerStore(n)
		return bytesPerApply(s, 2000, func(i int) Msg {
			tk := api.Ticker{Symbol: fmt.Sprintf("X%d-PERP", i%n), MarkPrice: d(fmt.Sprint(1000 + i))}
			return &TickerUpdateMsg{At: at.Add(time.Duration(i) * time.Millisecond), Ticker: tk}
		})
	}
	mid := func(n int) float64 {
		s := New(nil)
		mids := make([]api.Mid, n)
		for i := range mids {
			mids[i] = api.Mid{Symbol: fmt.Sprintf("X%d-PERP", i), MidPrice: d("100")}
		}
		s.Apply(MidsMsg{Gen: 1, At: at, Mids: mids})
		return bytesPerApply(s, 2000, func(i int) Msg {
			m := []api.Mid{{Symbol: fmt.Sprintf("X%d-PERP", i%n), MidPrice: d(fmt.Sprint(1000 + i))}}
			return &MidsUpdateMsg{At: at.Add(time.Duration(i+1) * time.Millisecond), Mids: m}
		})
	}
	for name, cost := range map[string]func(int) float64{"ticker": ticker, "mid": mid} {
		small, large := cost(10), cost(500)
		t.Logf("streamed %s: %.0f B an update with 10 instruments, %.0f B with 500", name, small, large)
		if large > 3*small {
			t.Errorf("a streamed %s allocates %.0f B with 500 instruments against %.0f B with 10: it copies the others", name, large, small)
		}
	}
}

// Streamed tickers change the store's own list: a list Tickers handed out earlier, and the list
// a poll brought, stay as they were, and the next read shows the change of that one instrument.
func TestStreamedTickerLeavesListsHandedOutAlone(t *testing.T) {
	at := time.UnixMilli(1769690400000)
	polled := manyTickers(3, 0)
	s := New(func() time.Time { return at })
	s.Apply(TickersMsg{Gen: 1, At: at, Tickers: polled})
	before := s.Tickers()
	v := s.Version(KindTickers)
	moved := polled[1]
	moved.MarkPrice = d("555")
	if !s.Apply(TickerUpdateMsg{At: at.Add(time.Second), Ticker: moved}) || s.Version(KindTickers) == v {
		t.Fatal("a streamed ticker with a new mark changed nothing")
	}
	if !polled[1].MarkPrice.Equal(d("101")) || !before[1].MarkPrice.Equal(d("101")) {
		t.Fatalf("the update edited a list handed out: poll %s, earlier read %s", polled[1].MarkPrice, before[1].MarkPrice)
	}
	after := s.Tickers()
	for i, tk := range after {
		want := polled[i].MarkPrice
		if i == 1 {
			want = d("555")
		}
		if !tk.MarkPrice.Equal(want) || tk.Symbol != polled[i].Symbol {
			t.Errorf("ticker %d after the update: %s %s, want %s %s", i, tk.Symbol, tk.MarkPrice, polled[i].Symbol, want)
		}
	}
	if again := s.Tickers(); &again[0] != &after[0] {
		t.Error("a read with nothing changed since copied the list again")
	}
	added := api.Ticker{Symbol: "NEW-PERP", MarkPrice: d("7")}
	s.Apply(TickerUpdateMsg{At: at.Add(2 * time.Second), Ticker: added})
	if got := s.Tickers(); len(got) != 4 || got[3].Symbol != "NEW-PERP" || len(after) != 3 {
		t.Errorf("a streamed ticker of a new instrument: %d tickers (earlier read %d), want it added as the 4th", len(got), len(after))
	}
	if tk, ok := s.Ticker("NEW-PERP"); !ok || !tk.MarkPrice.Equal(d("7")) {
		t.Errorf("Ticker(NEW-PERP) = %v %v", tk.MarkPrice, ok)
	}
}

// A poll of every ticker costs the same with 500 instruments as with 10 when the list names the
// same instruments as before: the store keeps the poll's list (shared with the readers until a
// streamed ticker changes an entry) and its index, copying neither. A streamed ticker after the
// poll copies the list once, leaves the poll's list and an earlier read as they were, and a poll
// after it (older than the streamed ticker) keeps the streamed ticker. Guards: the list copied
// on every poll (issue #34: 500 tickers, 130 kB, a poll); the index rebuilt on every poll.
func TestPolledTickersAreNotCopied(t *testing.T) {
	at := time.UnixMilli(1769690400000)
	poll := func(n int) float64 {
		s := tickerStore(n)
		sets := [2][]api.Ticker{manyTickers(n, 1), manyTickers(n, 2)}
		return bytesPerApply(s, 200, func(i int) Msg {
			return TickersMsg{Gen: uint64(i + 2), At: at.Add(time.Duration(i) * time.Millisecond), Tickers: sets[i%2]}
		})
	}
	small, large := poll(10), poll(500)
	t.Logf("a poll: %.0f B with 10 instruments, %.0f B with 500", small, large)
	if large > 3*small+1024 {
		t.Errorf("a poll of 500 tickers allocates %.0f B against %.0f B with 10: it copies the list or its index", large, small)
	}
	polled := manyTickers(3, 0)
	s := New(func() time.Time { return at })
	s.Apply(TickersMsg{Gen: 1, At: at, Tickers: polled})
	read := s.Tickers()
	moved := polled[2]
	moved.MarkPrice = d("777")
	s.Apply(TickerUpdateMsg{At: at.Add(time.Second), Ticker: moved})
	if !polled[2].MarkPrice.Equal(d("102")) || !read[2].MarkPrice.Equal(d("102")) {
		t.Fatalf("the streamed ticker edited the poll's list: poll %s, earlier read %s", polled[2].MarkPrice, read[2].MarkPrice)
	}
	s.Apply(TickersMsg{Gen: 2, At: at.Add(time.Second / 2), Tickers: manyTickers(3, 5)})
	if tk, _ := s.Ticker("X2-PERP"); !tk.MarkPrice.Equal(d("777")) {
		t.Errorf("a poll sent before the streamed ticker took it back: %s", tk.MarkPrice)
	}
	if tk, _ := s.Ticker("X1-PERP"); !tk.MarkPrice.Equal(d("106")) {
		t.Errorf("the poll's other tickers: X1 %s, want 106", tk.MarkPrice)
	}
}
