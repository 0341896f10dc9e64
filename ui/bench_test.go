package ui

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

var benchNow = time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)

// benchModel is a console at 200x60 over a store with 500 instruments, 100 positions and 500 open
// orders. Its client points at a closed port: nothing is polled in a benchmark.
func benchModel(b *testing.B) *Model {
	clock := func() time.Time { return benchNow }
	store := bigStore(clock, 500, 100, 500)
	m := New(Config{Exchange: api.New("http://127.0.0.1:1/", api.WithAddress("0x00000000000000000000000000000000000000aa")),
		Store: store, Clock: clock, Keys: mustKeys(b), Theme: testTheme, Mode: ModeDemo})
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	for _, k := range []state.Kind{state.KindInstruments, state.KindTickers, state.KindPositions, state.KindOrders, state.KindAccount} {
		m.broadcast(common.DataMsg{Kind: k})
	}
	m.View()
	return m
}

// BenchmarkFrame is one full frame (the root View) at 200x60 with 500 instruments, 100 positions
// and 500 open orders, data unchanged since the last frame. Target: median under 1 ms. The root
// View's cached frame is marked stale each time (dirty), so every pane is drawn again from its own
// caches, as after a message that changes nothing a pane shows; without it the benchmark timed the
// cached string (15 ns, 0 allocs).
func BenchmarkFrame(b *testing.B) {
	m := benchModel(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		m.dirty = true
		_ = m.View()
	}
}

// BenchmarkTickerUpdate applies one tickers poll (every price moved) to the store and renders the
// frame that follows.
func BenchmarkTickerUpdate(b *testing.B) {
	m := benchModel(b)
	var sets [2][]api.Ticker
	for i := range sets {
		for _, t := range m.store.Tickers() {
			t.MarkPrice = t.MarkPrice.Add(d("0.01").Mul(d(string(rune('1' + i)))))
			sets[i] = append(sets[i], t)
		}
	}
	gen := uint64(10)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		gen++
		msg := state.TickersMsg{Gen: gen, At: benchNow, Tickers: sets[gen%2]}
		_, _ = m.Update(m.feed.Task(state.KindTickers).Reply(0, msg, nil))
		_ = m.View()
	}
}
