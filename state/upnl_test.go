package state

import (
	"testing"
	"time"
)

// TestUnrealizedPnLWorkedOutOncePerChange: the account pane and the status bar both ask for the
// unrealized PnL after every ticker update; the second ask, with nothing changed, costs no
// position's figures again (far under one PositionViews, measured in the same test), and a moved
// mark is a new sum. Guards: the sum worked out on every call again; a memo kept across a change.
func TestUnrealizedPnLWorkedOutOncePerChange(t *testing.T) {
	now := t0
	s := loadedStore(&now) // ETH long 2 from 2900 at mark 3000
	checkDec(t, "uPnL", s.UnrealizedPnL(), "200")
	views := testing.AllocsPerRun(10, func() { s.PositionViews() })
	again := testing.AllocsPerRun(10, func() { s.UnrealizedPnL() })
	if views == 0 || again*4 > views {
		t.Errorf("UnrealizedPnL unchanged: %.0f allocations; one PositionViews %.0f", again, views)
	}
	tk := testTickers()[1]
	tk.MarkPrice = d("3100")
	s.Apply(TickerUpdateMsg{At: t0.Add(time.Second), Ticker: tk})
	checkDec(t, "uPnL after the mark moved", s.UnrealizedPnL(), "400")
}
