package ui

import (
	"bytes"
	"context"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/tradedesk/tradedesk/api"
)

// TestDepthGoldens: the depth pane on a seeded simulator that has traded for a minute, with the
// trader's own bid and ask resting on book levels and the ladder grouped: beside the order form
// with the tape under it at 200x60, under the form at 120x40, a view of a group at 80x24 (the
// ladder, and the tape after ]). Regenerate with: go test ./ui -run TestDepthGoldens -update
func TestDepthGoldens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		w, h int
		keys []string
	}{
		{"200x60_grouped_x2", 200, 60, []string{"9", "+"}},
		{"120x40_grouped_x2", 120, 40, []string{"9", "+"}},
		{"80x24_ladder_x5", 80, 24, []string{"9", "+", "+"}},
		{"80x24_tape", 80, 24, []string{"9", "]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := newSimConsole(t, 0, 0, false)
			for range 60 {
				c.sim.Advance(time.Second)
			}
			ownOrdersOnTheBook(t, c.m.ex)
			c.m.setIntervals(Intervals{Timeout: 20 * time.Second})
			p := probe{Model: c.m, out: new(int)}
			tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(tc.w, tc.h))
			t.Cleanup(func() { _ = tm.Quit() })
			teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
				return bytes.Contains(b, []byte("BTC-PERP"))
			}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
			waitSettled(t, tm)
			for _, k := range tc.keys {
				tm.Send(keyMsg(k))
			}
			waitSettled(t, tm)
			tm.Send(tea.KeyMsg{}) // one more message: the last key's effects are drawn
			waitSettled(t, tm)
			if err := tm.Quit(); err != nil {
				t.Fatal(err)
			}
			fm := tm.FinalModel(t, teatest.WithFinalTimeout(20*time.Second)).(probe)
			golden.RequireEqual(t, []byte(fm.View()))
		})
	}
}

// ownOrdersOnTheBook rests an ETH-PERP (the watchlist's first, the current instrument) bid on the book's second bid level and an ask on its third
// ask level, so the ladder marks them.
func ownOrdersOnTheBook(t *testing.T, ex api.Exchange) {
	t.Helper()
	ctx := context.Background()
	b, err := ex.OrderBook(ctx, "ETH-PERP", 5)
	if err != nil || len(b.Bids) < 2 || len(b.Asks) < 3 {
		t.Fatalf("book %+v: %v", b, err)
	}
	orders := []api.OrderWire{
		{InstrumentID: 2, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: b.Bids[1].Price.String(), Size: "0.2",
			Tif: api.TifGTC, Cloid: "00000000-0000-4000-8000-000000000011"},
		{InstrumentID: 2, Side: api.SideSell, PositionSide: api.PositionSideBoth, Price: b.Asks[2].Price.String(), Size: "0.3",
			Tif: api.TifGTC, Cloid: "00000000-0000-4000-8000-000000000012"},
	}
	if _, err := ex.PlaceOrders(ctx, orders); err != nil {
		t.Fatal(err)
	}
}
