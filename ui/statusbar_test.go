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
	t.Parallel()
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

// TestCommandLineRefusalReadsWhole (QA 13b #6, issue #31 #15), against the simulator at 80x24: a
// refused command closes the line and its refusal wraps over up to three lines at the screen's
// end, so its way out ("or drop post", "or close it first") is on screen, moving up over the
// panes' last rows while the screen keeps its 24 lines; a refusal longer than that ends "… (! for
// all)". The next key reaches the panes, not the line. Guards the refusal cut at one line with
// nothing saying there is more, a wrap that grows the screen, and the line left open.
func TestCommandLineRefusalReadsWhole(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 80, 24, false)
	pump(t, c.m, c.m.Init())
	screen := func() []string {
		t.Helper()
		lines := strings.Split(ansi.Strip(c.m.View()), "\n")
		if len(lines) != 24 {
			t.Fatalf("the screen has %d lines, want 24", len(lines))
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > 80 {
				t.Errorf("a line is %d cells wide: %q", w, l)
			}
		}
		return lines
	}
	words := func(ls []string) string { return strings.Join(strings.Fields(strings.Join(ls, " ")), " ") }
	c.command(t, "buy 0.1 btc mkt post")
	if c.m.cmdline.Active() {
		t.Fatal("the line stays open after a refusal")
	}
	s := screen()
	refusal := "command not sent: " + c.m.cmdline.Err()
	if got := words(s[21:]); !strings.Contains(got, refusal) || !strings.HasSuffix(refusal, "or drop post") {
		t.Fatalf("the refusal %q does not read whole at the screen's end:\n%s", refusal, strings.Join(s[20:], "\n"))
	}

	c.commandConfirmed(t, "sell 1.5 eth mkt")
	c.command(t, "buy 0.5 eth mkt tp 3% sl 3%")
	s = screen()
	if got := words(s[21:]); !strings.Contains(got, "or close it first") || !strings.HasSuffix(got, "… (! for all)") {
		t.Fatalf("the bracket refusal does not keep its way out:\n%s", strings.Join(s[19:], "\n"))
	}
	c.key(t, "?")
	if c.m.cmdline.Active() || !c.m.helpOpen() {
		t.Errorf("the key after a refusal did not reach the panes (line open %v, help %v)", c.m.cmdline.Active(), c.m.helpOpen())
	}
}
