package state

import (
	"fmt"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

func manyTickers(n int, bump int) []api.Ticker {
	out := make([]api.Ticker, n)
	for i := range out {
		out[i] = api.Ticker{Symbol: fmt.Sprintf("X%d-PERP", i), MarkPrice: d(fmt.Sprint(100 + i + bump)), BestBidPrice: d("99"), BestAskPrice: d("101")}
	}
	return out
}

// BenchmarkApplyTickers applies a changed set of 500 tickers, as the one-second poll does.
func BenchmarkApplyTickers(b *testing.B) {
	s := New(nil)
	sets := [2][]api.Ticker{manyTickers(500, 0), manyTickers(500, 1)}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.Apply(TickersMsg{Gen: uint64(i), Tickers: sets[i%2]})
	}
}

// BenchmarkCheckOrder validates one limit order against a loaded store (the order form does this
// on every key press).
func BenchmarkCheckOrder(b *testing.B) {
	now := t0
	s := loadedStore(&now)
	in := limitBuy("BTC-PERP", "49000", "0.01")
	in.Cloid = "0f8fad5b-d9cb-469f-a165-70867728950e"
	b.ReportAllocs()
	for b.Loop() {
		if _, errs := s.CheckOrder(in, DefaultGuard()); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}

// BenchmarkFillsPage1 merges a page 1 of 100 fills (5 new) on top of 10,000 loaded fills.
func BenchmarkFillsPage1(b *testing.B) {
	s := New(nil)
	ids := make([]int, 10000)
	for i := range ids {
		ids[i] = 20000 - i
	}
	s.Apply(FillsMsg{Page: api.Page[api.Fill]{Page: 1, Data: fills(ids...)}})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		top := make([]int, 100)
		for j := range top {
			top[j] = 20000 + 5*(i+1) - j
		}
		s.Apply(FillsMsg{Page: api.Page[api.Fill]{Page: 1, Data: fills(top...)}})
	}
}
