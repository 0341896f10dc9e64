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
	ts[1].MarkPrice = ts[1].MarkPrice.Add(d("1"))
	m.Update(m.feed.Task(state.KindTickers).Reply(0, state.TickersMsg{Gen: 5, At: now, Tickers: ts}, nil))
	if m.tickers.Flashing() != 1 {
		t.Fatalf("%d flashes after one mark moved", m.tickers.Flashing())
	}
	if v := m.View(); !strings.Contains(v, "1,038.00▲") {
		t.Errorf("the moved price is not marked:\n%s", v)
	}
	step := func(d time.Duration) {
		now = now.Add(d)
		for _, msg := range timers.Advance(d) {
			m.Update(msg)
		}
	}
	step(400 * time.Millisecond)
	if m.tickers.Flashing() != 1 {
		t.Fatal("the flash stopped early")
	}
	step(100 * time.Millisecond)
	if m.tickers.Flashing() != 0 || strings.Contains(m.View(), "1,038.00▲") {
		t.Error("the flash did not stop")
	}
}
