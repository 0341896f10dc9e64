package messages

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestRepeatsCountAndTheLogIsBounded: a repeat of the newest message counts instead of adding a
// line, a key-shaped run never reaches the log, and only the last Max are kept.
func TestRepeatsCountAndTheLogIsBounded(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	l := New(func() time.Time { return now })
	l.Add(common.LevelError, "tickers: timeout")
	l.Add(common.LevelError, "tickers: timeout")
	if e := l.Entries(); len(e) != 1 || e[0].Count != 2 {
		t.Fatalf("a repeat: %+v", e)
	}
	l.Add(common.LevelWarn, "key 0x"+strings.Repeat("ab", 32))
	if got := l.Entries()[1].Text; strings.Contains(got, strings.Repeat("ab", 8)) {
		t.Fatalf("a key reached the log: %q", got)
	}
	for i := range Max + 5 {
		l.Add(common.LevelInfo, strings.Repeat("x", i+1))
	}
	if n := len(l.Entries()); n != Max {
		t.Fatalf("%d kept, want %d", n, Max)
	}
	keys := commontest.Keys(t)
	v := ansi.Strip(l.Render(common.NewStyles(commontest.Theme), &keys, 120, 24))
	if !strings.Contains(v, "Messages — newest first") || !strings.Contains(v, strings.Repeat("x", Max+5)) {
		t.Fatalf("the view lacks its title or the newest message:\n%s", v)
	}
}

// TestReboundKeysInTheView (issue #33, 5): the view names the keys that close and scroll it as
// they are bound: with messages on F2, dismiss on ctrl+g and up/down on ctrl+p/ctrl+n, its foot
// says "F2 or ctrl+g closes." and its scroll line "ctrl+p/ctrl+n scroll". It fails if the view
// spells out the default keys again.
func TestReboundKeysInTheView(t *testing.T) {
	l := New(func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) })
	for i := range 40 {
		l.Add(common.LevelInfo, "message "+strings.Repeat("y", i))
	}
	keys := commontest.Rebound(t, map[string][]string{"messages": {"f2"}, "dismiss": {"ctrl+g"}, "up": {"ctrl+p"}, "down": {"ctrl+n"}})
	v := ansi.Strip(l.Render(common.NewStyles(commontest.Theme), &keys, 120, 24))
	if !strings.Contains(v, "f2 or ctrl+g closes.") || !strings.Contains(v, "ctrl+p/ctrl+n scroll · lines") || strings.Contains(v, "Esc") || strings.Contains(v, "↑") {
		t.Errorf("the view does not name the bound keys:\n%s", v)
	}
	if !common.Scrolls(v) {
		t.Error("common.Scrolls does not see the view scroll")
	}
}

// TestTheViewKeepsItsOpenState: Open shows the view from its top (a scroll left from before is
// reset), Close hides it; the root's modal stack reads Shown. Guards the view's own open state
// (the root's flag it replaced).
func TestTheViewKeepsItsOpenState(t *testing.T) {
	l := New(time.Now)
	if l.Shown() {
		t.Fatal("a new log's view is open")
	}
	l.Scroll(3)
	if l.Open(); !l.Shown() || l.scroll != 0 {
		t.Fatalf("after Open: shown %v, scroll %d", l.Shown(), l.scroll)
	}
	if l.Close(); l.Shown() {
		t.Fatal("Close left the view open")
	}
}
