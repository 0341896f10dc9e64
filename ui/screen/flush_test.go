package screen

import (
	"strings"
	"testing"
	"time"
)

// TestAFlushCutsWideLinesAndClearsTheRest: a changed line is cut to the terminal's width, and
// cleared to its end only when it is narrower (clearing after a full line would erase its last
// cell); a wide character that does not fit is left out and its line cleared.
func TestAFlushCutsWideLinesAndClearsTheRest(t *testing.T) {
	var b strings.Builder
	r := NewRenderer(&b, 30)
	r.Resize(6, 4)
	r.Frame("abc\nabcdef\nabcdefgh\nabcde日本")
	got := strings.Split(strings.TrimPrefix(b.String(), cursorHome), "\r\n")
	want := []string{"abc" + eraseLineRight, "abcdef", "abcdef", "abcde" + eraseLineRight + eraseScreenBelow}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("wrote %q, want %q", got, want)
	}
}

// BenchmarkFlushAChangedScreen: a 200x60 frame whose every line changed, styled and boxed as
// the panes draw them (issue #34: the idle demo's terminal writes were a tenth of its CPU).
func BenchmarkFlushAChangedScreen(b *testing.B) {
	row := "│ \x1b[1;38;5;231mBTC-PERP\x1b[0m      97,245.2▼     97,193.7   +0.71%     97,225.5     97,264.3  │ "
	for len(row) < 200 { // under 200 cells: the panes fit their lines
		row += "· 0.164 ·"
	}
	frames := [2]string{}
	for f := range frames {
		lines := make([]string, 60)
		for i := range lines {
			lines[i] = row + strings.Repeat("x", f+i%3)
		}
		frames[f] = strings.Join(lines, "\n")
	}
	var out strings.Builder
	r := NewRenderer(&out, 1000)
	r.Resize(200, 60)
	r.now = func() time.Time { return time.Time{} } // the pace always allows the frame
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		out.Reset()
		r.shown = nil
		r.pending = frames[i%2]
		r.flush()
	}
}
