package ui

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
)

// TestChangedPriceFlashesThenStops (issue #34): a moved price is highlighted for 500 ms at least;
// the highlight ends with the tickers' next change after that, in the frame that change draws (no
// timer of its own fires while the market moves), or a second later when the market is quiet.
func TestChangedPriceFlashesThenStops(t *testing.T) {
	t.Parallel()
	now := benchNow
	clock := func() time.Time { return now }
	store := bigStore(clock, 3, 0, 0)
	timers := feed.NewFakeClock(now)
	m := New(Config{Exchange: offlineTrader(t), Store: store, Clock: clock, Timers: timers, Keys: mustKeys(t), Theme: testTheme})
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
	m.broadcast(common.DataMsg{Kind: state.KindTickers})
	ts := append([]api.Ticker(nil), store.Tickers()...)
	gen := uint64(5)
	move := func(i int) {
		ts = append([]api.Ticker(nil), ts...)
		ts[i].MarkPrice = ts[i].MarkPrice.Add(d("1"))
		gen++
		m.Update(m.feed.Task(state.KindTickers).Reply(0, state.TickersMsg{Gen: gen, At: now, Tickers: ts}, nil))
	}
	move(1)
	if m.tickers.Flashing() != 1 {
		t.Fatalf("%d flashes after one mark moved", m.tickers.Flashing())
	}
	if v := m.View(); !strings.Contains(v, "1,038.00▲") {
		t.Errorf("the moved price is not marked:\n%s", v)
	}
	fired := 0
	var run func(tea.Msg) // a timer's message and what its commands bring (a flash's end)
	run = func(msg tea.Msg) {
		switch msg := msg.(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range msg {
				if c != nil {
					run(c())
				}
			}
		default:
			if _, next := m.Update(msg); next != nil {
				run(next())
			}
		}
	}
	step := func(d time.Duration) {
		now = now.Add(d)
		for _, msg := range timers.Advance(d) {
			fired++
			run(msg)
		}
	}
	step(500 * time.Millisecond)
	if m.tickers.Flashing() != 1 || fired != 0 {
		t.Fatalf("at 500 ms with nothing else moved: %d flashing, %d timers fired; want the flash kept for the next change", m.tickers.Flashing(), fired)
	}
	step(100 * time.Millisecond)
	move(0) // the next change ends the first flash in its own frame
	if v := m.View(); strings.Contains(v, "1,038.00▲") || m.tickers.Flashing() != 1 || fired != 0 {
		t.Errorf("the next change did not end the first flash (%d flashing, %d timers fired):\n%s", m.tickers.Flashing(), fired, v)
	}
	step(1400 * time.Millisecond)
	if m.tickers.Flashing() != 1 {
		t.Fatal("the second flash stopped before its second of waiting for a change")
	}
	step(100 * time.Millisecond)
	if m.tickers.Flashing() != 0 {
		t.Error("the second flash did not stop with the market quiet")
	}
}
