package common_test

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/ui/common"
)

// TestScrolledLines: a pane of text scrolled down shows its lines from the offset, fitted to its
// width and height; an offset past the last line (the lines shrank under it) shows them from the
// top; ScrollDown stops where the last
// line is at the bottom (and at the top when all the lines fit).
func TestScrolledLines(t *testing.T) {
	lines := []string{"a", "b", "c", "d", "e"}
	if got := common.ScrolledLines(lines, 2, 3, 2); got != "c  \nd  " {
		t.Errorf("from line 2: %q", got)
	}
	if got := common.ScrolledLines(lines, 7, 2, 2); got != "a \nb " {
		t.Errorf("past the end: %q", got)
	}
	if got := common.ScrolledLines(lines, 0, 1, 6); strings.Count(got, "\n") != 5 || !strings.HasPrefix(got, "a\nb") {
		t.Errorf("taller than the lines: %q", got)
	}
	for _, c := range []struct{ offset, by, n, h, want int }{
		{0, 1, 5, 2, 1}, {2, 1, 5, 2, 3}, {3, 1, 5, 2, 3}, {0, 4, 5, 2, 3}, {4, 0, 5, 2, 3}, {1, 1, 5, 9, 0},
	} {
		if got := common.ScrollDown(c.offset, c.by, c.n, c.h); got != c.want {
			t.Errorf("ScrollDown(%d, %d, %d lines, %d high) = %d, want %d", c.offset, c.by, c.n, c.h, got, c.want)
		}
	}
}
