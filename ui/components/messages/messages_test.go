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
	v := ansi.Strip(l.Render(common.NewStyles(commontest.Theme), 120, 24))
	if !strings.Contains(v, "Messages — newest first") || !strings.Contains(v, strings.Repeat("x", Max+5)) {
		t.Fatalf("the view lacks its title or the newest message:\n%s", v)
	}
}
