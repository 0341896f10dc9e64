package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/ui/common"
)

// TestLongErrorWrapsIntoTheFooterLine (#13 QA 5): at 80 columns a refusal too long for the
// status line takes the footer's line too, its words whole, so it reads without the messages
// view; one too long for two lines ends "… (! for all)"; an info notice keeps one line and the
// footer, and so does an open help; the screen keeps its 24 lines. Guards the error cut at 80 columns with nothing saying
// there is more, and a wrap that grows the screen.
func TestLongErrorWrapsIntoTheFooterLine(t *testing.T) {
	c := newSimConsole(t, 80, 24, false)
	pump(t, c.m, c.m.Init())
	bottom := func() []string {
		t.Helper()
		lines := strings.Split(ansi.Strip(c.m.View()), "\n")
		if len(lines) != 24 {
			t.Fatalf("the screen has %d lines, want 24", len(lines))
		}
		return lines[22:]
	}
	usage := "command not sent: sell what? the order reads sell SIZE [INSTRUMENT] PRICE|mkt [tp PRICE] [sl PRICE] [post] [reduce] [ioc|fok]"
	c.m.setNotice(common.LevelError, usage)
	b := bottom()
	if got := strings.Join(strings.Fields(b[0]+" "+b[1]), " "); got != "✗ "+usage {
		t.Errorf("the refusal on two lines reads %q, want %q", got, "✗ "+usage)
	}
	if !strings.HasPrefix(b[1], "  [tp") {
		t.Errorf("the second line does not go on under the text: %q", b[1])
	}

	long := strings.Repeat("the exchange refused this order for a reason that takes many words ", 3) + "END"
	c.m.setNotice(common.LevelError, long)
	b = bottom()
	if !strings.HasSuffix(strings.TrimRight(b[1], " "), "… (! for all)") || strings.Contains(b[0]+b[1], "END") {
		t.Errorf("an error too long for two lines does not point to the messages view:\n%s", strings.Join(b, "\n"))
	}
	for _, l := range b {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("a line is %d cells wide: %q", w, l)
		}
	}

	c.key(t, "?") // the help keeps its footer: the key that closes it
	if b = bottom(); b[1] != ansi.Strip(c.m.footerView()) || !strings.HasSuffix(strings.TrimRight(b[0], " "), "… (! for all)") {
		t.Errorf("with the help open the footer gives way to the error:\n%s", strings.Join(b, "\n"))
	}
	c.key(t, "esc")

	c.m.setNotice(common.LevelInfo, long)
	b = bottom()
	if !strings.HasSuffix(strings.TrimRight(b[0], " "), "… (! for all)") || b[1] != ansi.Strip(c.m.footerView()) {
		t.Errorf("an info notice should keep one line and the footer:\n%s", strings.Join(b, "\n"))
	}
}
