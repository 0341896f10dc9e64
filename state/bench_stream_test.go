package state

import (
	"testing"
	"time"
)

// streamedRound is one streamed ticker per instrument of a store loaded with n tickers, each
// with a new mark, as the stream sends them in one market step.
func streamedRound(n, bump int) []TickerUpdateMsg {
	at := time.UnixMilli(1769690400000)
	out := make([]TickerUpdateMsg, n)
	for i, t := range manyTickers(n, bump) {
		out[i] = TickerUpdateMsg{At: at.Add(time.Duration(bump) * time.Second), Ticker: t}
	}
	return out
}

// tickerStore is a store holding a polled list of n tickers.
func tickerStore(n int) *Store {
	s := New(func() time.Time { return time.UnixMilli(1769690400000) })
	s.Apply(TickersMsg{Gen: 1, At: time.UnixMilli(1769690300000), Tickers: manyTickers(n, 0)})
	return s
}

// BenchmarkStreamTickers applies a streamed ticker of every one of 500 instruments (one market
// step of the stream): the figure per op is the whole round, the target 0.5 ms.
func BenchmarkStreamTickers(b *testing.B) {
	s := tickerStore(500)
	rounds := [2][]TickerUpdateMsg{streamedRound(500, 1), streamedRound(500, 2)}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for _, m := range rounds[i%2] {
			s.Apply(m)
		}
	}
}

// BenchmarkStreamTickerScale applies streamed tickers to stores of 10 and of 500 instruments,
// interleaved in the same run, and reports the cost of one update at each size and their ratio
// (per-message work proportional to what changed: about 1, where a copy of the list made it
// grow with the list).
func BenchmarkStreamTickerScale(b *testing.B) {
	type side struct {
		s      *Store
		rounds [2][]TickerUpdateMsg
		took   time.Duration
		n      int
	}
	sides := []*side{{n: 10}, {n: 500}}
	for _, x := range sides {
		x.s = tickerStore(x.n)
		x.rounds = [2][]TickerUpdateMsg{streamedRound(x.n, 1), streamedRound(x.n, 2)}
	}
	const batch = 500
	updates := 0
	for i := 0; b.Loop(); i++ {
		for _, x := range sides {
			start := time.Now()
			for j := range batch {
				x.s.Apply(x.rounds[(i+j/x.n)%2][j%x.n])
			}
			x.took += time.Since(start)
		}
		updates += batch
	}
	small := float64(sides[0].took.Nanoseconds()) / float64(updates)
	large := float64(sides[1].took.Nanoseconds()) / float64(updates)
	b.ReportMetric(small, "ns/update@10")
	b.ReportMetric(large, "ns/update@500")
	b.ReportMetric(large/small, "ratio")
}
