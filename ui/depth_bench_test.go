package ui

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// deepBook is a book of n levels a side around 1000 (instrument C000-PERP of bigStore: tick
// 0.01), and a delta that resizes, adds and deletes a few levels near the top.
func deepBook(n int) (api.OrderBook, [2]state.BookUpdateMsg) {
	b := api.OrderBook{Symbol: "C000-PERP"}
	for i := range n {
		sz := decimal.New(int64(100+i*7%90), -2)
		b.Bids = append(b.Bids, api.BookLevel{Price: decimal.New(99990-int64(i)*2, -2), Size: sz})
		b.Asks = append(b.Asks, api.BookLevel{Price: decimal.New(100010+int64(i)*2, -2), Size: sz})
	}
	var ups [2]state.BookUpdateMsg
	for k := range ups {
		u := state.BookUpdateMsg{Symbol: "C000-PERP"}
		for i := range 5 {
			sz := decimal.New(int64(50+k*30+i), -2)
			u.Bids = append(u.Bids, api.BookLevel{Price: decimal.New(99990-int64(i)*4, -2), Size: sz})
			u.Asks = append(u.Asks, api.BookLevel{Price: decimal.New(100011+int64(i)*2, -2), Size: sz.Mul(decimal.NewFromInt(int64(k)))})
		}
		ups[k] = u
	}
	return b, ups
}

// tapeOf is n trades of C000-PERP, oldest first by id.
func tapeOf(n int) []api.Trade {
	out := make([]api.Trade, n)
	for i := range out {
		side := api.SideBuy
		if i%3 == 0 {
			side = api.SideSell
		}
		out[n-1-i] = api.Trade{Instrument: "C000-PERP", TradeID: api.TradeID(i + 1), Side: side,
			Price: decimal.New(100000+int64(i%40), -2), Size: decimal.New(int64(1+i%500), -2), Time: api.Time{Time: benchNow.Add(time.Duration(i) * time.Second)}}
	}
	return out
}

// withDepth loads a 500-level book and 1,000 trades of the current instrument into the bench
// console, so the ladder and the tape are on screen.
func withDepth(b *testing.B, m *Model) [2]state.BookUpdateMsg {
	b.Helper()
	book, ups := deepBook(500)
	m.store.Apply(state.BookMsg{Gen: 1, At: benchNow, Book: book})
	m.store.Apply(state.TradesMsg{Gen: 1, At: benchNow, Symbol: "C000-PERP", Trades: tapeOf(1000)})
	m.broadcast(common.DataMsg{Kind: state.KindBook})
	m.broadcast(common.DataMsg{Kind: state.KindTrades})
	if m.store.TradeCount("C000-PERP") != 1000 || len(m.depth.Tape.Trades()) == 0 || m.depth.Ladder.Rows() == 0 {
		b.Fatalf("the depth pane is not on screen: %d trades, %d ladder rows", m.store.TradeCount("C000-PERP"), m.depth.Ladder.Rows())
	}
	m.View()
	return ups
}

// BenchmarkLadderFrame is a book delta (five levels a side on a 500-level book) applied to the
// store, the ladder told, and the full frame at 200x60 drawn.
func BenchmarkLadderFrame(b *testing.B) {
	m := benchModel(b)
	ups := withDepth(b, m)
	seq := uint64(0)
	m.store.Apply(state.BookUpdateMsg{Symbol: "C000-PERP", Snapshot: true, Seq: 1, Bids: ups[0].Bids, Asks: ups[0].Asks})
	book, _ := deepBook(500)
	m.store.Apply(state.BookUpdateMsg{At: benchNow, Symbol: "C000-PERP", Snapshot: true, Seq: 1, Bids: book.Bids, Asks: book.Asks})
	seq = 1
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		seq++
		u := ups[i%2]
		u.Seq, u.At = seq, benchNow
		m.store.Apply(u)
		m.broadcast(common.DataMsg{Kind: state.KindBook})
		_ = m.View()
	}
}
