package algo

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// BenchmarkChaseDecision is one chase step's own work once the quote is read: the price it
// wants and whether its child follows (go test -run X -bench Decision ./state/algo).
func BenchmarkChaseDecision(b *testing.B) {
	d := &Deps{Now: time.Now, MinReprice: time.Second}
	c := &Chase{d: d, inst: btc, p: ChaseParams{Side: "buy", Offset: 2, Refresh: 3, Aggressive: true, Limit: dec("97500")},
		live: &child{price: dec("97000")}}
	bid, ask := dec("97010.1"), dec("97015.3")
	b.ReportAllocs()
	for b.Loop() {
		_ = c.follows(c.want(bid, ask))
	}
}

// BenchmarkTWAPSliceDecision is one TWAP slice's own work once the book is read: the slice due,
// what it still asks, and its price walked inside the band over a 20-level book.
func BenchmarkTWAPSliceDecision(b *testing.B) {
	p := TWAPParams{Side: "buy", Size: dec("1"), Start: time.Now(), Duration: time.Hour, Slices: 60, BandLo: dec("96000"), BandHi: dec("98000")}
	t := newTWAP(&Deps{Now: time.Now}, "b", p, btc)
	var book api.OrderBook
	for i := range 20 {
		book.Asks = append(book.Asks, api.BookLevel{Price: dec("97000").Add(decimal.NewFromInt(int64(i))), Size: dec("0.01")})
	}
	b.ReportAllocs()
	for b.Loop() {
		i := max(t.due(), 0)
		want := t.cum[i].Sub(committed(t.children))
		_, _ = t.slicePrice(book, want)
	}
}
