package state

import (
	"testing"
	"time"
)

// TestUnrealizedPnLWorkedOutOncePerChange: the account pane and the status bar both ask for the
// unrealized PnL after every ticker update; the second ask, with nothing changed, costs no
// position's figures again (far under working one position's figures out, measured in the same
// test), and a moved mark is a new sum. Guards: the sum worked out on every call again; a memo
// kept across a change.
func TestUnrealizedPnLWorkedOutOncePerChange(t *testing.T) {
	now := t0
	s := loadedStore(&now) // ETH long 2 from 2900 at mark 3000
	checkDec(t, "uPnL", s.UnrealizedPnL(), "200")
	fresh := figuresFresh(s)
	again := testing.AllocsPerRun(10, func() { s.UnrealizedPnL() })
	if fresh == 0 || again != 0 {
		t.Errorf("UnrealizedPnL unchanged: %.0f allocations; the figures worked out %.0f", again, fresh)
	}
	tk := testTickers()[1]
	tk.MarkPrice = d("3100")
	s.Apply(TickerUpdateMsg{At: t0.Add(time.Second), Ticker: tk})
	checkDec(t, "uPnL after the mark moved", s.UnrealizedPnL(), "400")
}

// TestPositionFiguresWorkedOutOncePerChange: the positions pane takes its figures from the store
// after every ticker update, as the account pane's sum does; asked again with nothing changed
// they are the same figures, neither worked out again nor copied (no allocation: every reader
// shares the memo's rows, which a change replaces and never writes to), and a moved mark or a new
// account summary gives new ones. Guards: the pane's figures worked out on every ask (issue #34:
// they were worked out twice an update, once for the pane and once for the sum); copied on every
// ask (100 rows a ticker update); a memo kept across a change.
func TestPositionFiguresWorkedOutOncePerChange(t *testing.T) {
	now := t0
	s := loadedStore(&now)
	_ = s.UnrealizedPnL() // the sum first: the figures come from the same work
	fresh := figuresFresh(s)
	again := testing.AllocsPerRun(10, func() { s.PositionFigures() })
	if fresh == 0 || again != 0 {
		t.Errorf("PositionFigures unchanged: %.0f allocations; the figures worked out %.0f", again, fresh)
	}
	ps, rows := s.PositionFigures()
	if len(ps) != len(rows) || len(rows) != 1 || rows[0].Instrument != ps[0].Instrument || !rows[0].UPnL.Equal(d("200")) {
		t.Fatalf("figures %+v of positions %+v", rows, ps)
	}
	memo := rows
	tk := testTickers()[1]
	tk.MarkPrice = d("3100")
	s.Apply(TickerUpdateMsg{At: t0.Add(time.Second), Ticker: tk})
	checkDec(t, "mark after it moved", s.PositionViews()[0].Mark, "3100")
	checkDec(t, "uPnL after the mark moved", s.PositionViews()[0].UPnL, "400")
	checkDec(t, "the rows read before the move", memo[0].UPnL, "200")
}

// figuresFresh is the allocations of working every position's figures out, as positionViews does.
func figuresFresh(s *Store) float64 {
	return testing.AllocsPerRun(10, func() {
		s.mu.RLock()
		defer s.mu.RUnlock()
		_ = s.positionViews()
	})
}
