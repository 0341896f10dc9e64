package algo

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/journal"
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

// BenchmarkChaseStepOnTheTape is one whole step of a resting chase while the stream is up, as
// Run takes it: its look for a pause and its step (its child's record and the quote from the
// tape, the price it wants, whether its child follows); nothing moved, so nothing is sent. "look"
// reads the journal's running algorithms at every step (one chase alone); "shared" as twenty do,
// the read shared (go test -run X -bench StepOnTheTape ./state/algo).
func BenchmarkChaseStepOnTheTape(b *testing.B) {
	for _, bc := range []struct {
		name  string
		every time.Duration
	}{{"look", 2 * time.Nanosecond}, {"shared", 500 * time.Millisecond}} {
		b.Run(bc.name, func(b *testing.B) { benchStep(b, bc.every) })
	}
}

func benchStep(b *testing.B, every time.Duration) {
	j, err := journal.Open(journal.Path(b.TempDir(), "sim", "0x1111111111111111111111111111111111111111"))
	must(b, err)
	b.Cleanup(func() { _ = j.Close() })
	id, err := j.BeginAlgo(bg, journal.Algo{ID: "bench", Kind: "chase", Params: []byte(`{}`)})
	must(b, err)
	tape := NewTape(func() api.StreamStatus { return api.StreamStatus{Up: true, Epoch: 1} })
	tape.Put(api.StreamEvent{Data: &api.Ticker{Symbol: btc.Name, BestBidPrice: dec("97010.1"), BestAskPrice: dec("97015.3")}},
		api.StreamEvent{Data: &api.OrderRecord{Cloid: "bench-1", OrderID: 1, State: api.StateOpen, LimitPrice: dec("97009.9"),
			Size: dec("0.01"), Unfilled: dec("0.01")}})
	d := &Deps{Journal: j, Now: time.Now, MinReprice: time.Hour, PauseEvery: every, Tape: tape, Limits: &Limits{}}
	c := &Chase{d: d, id: id, inst: btc, p: ChaseParams{Instrument: btc.Name, Side: "buy", Size: dec("0.01"), Offset: 2, Refresh: 3},
		live: &child{cloid: "bench-1", oid: 1, price: dec("97009.9"), size: dec("0.01")}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.held(bg); err != nil {
			b.Fatal(err)
		}
		if st, err := c.step(bg); err != nil || st != "" || c.live == nil {
			b.Fatalf("%q %v", st, err)
		}
	}
}
