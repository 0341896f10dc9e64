package common_test

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

var keyTable = commontest.DefaultKeys()

func TestFormatHelpers(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Second: "0s", 4 * time.Second: "4s", 130 * time.Second: "2m10s", 3*time.Hour + 5*time.Minute: "3h05m", 72 * time.Hour: "3d",
	} {
		if got := common.FmtAge(d); got != want {
			t.Errorf("fmtAge(%s) = %q, want %q", d, got, want)
		}
	}
	for in, want := range map[string]string{"12": "12.00", "12345": "12.3K", "1234567": "1.23M", "-2500000000": "-2.50B"} {
		if got := common.FmtCompact(d(in)); got != want {
			t.Errorf("fmtCompact(%s) = %q, want %q", in, got, want)
		}
	}
	if got := common.FmtNum(d("1234567.891"), 2); got != "1,234,567.89" {
		t.Errorf("fmtNum = %q", got)
	}
	if got := common.FmtSigned(d("0.5"), 2); got != "+0.50" {
		t.Errorf("fmtSigned = %q", got)
	}
	if got := common.Fit("abcdef", 4, false); got != "abc…" {
		t.Errorf("fit truncates to %q", got)
	}
	if got := common.Fit("ab", 4, true); got != "  ab" {
		t.Errorf("fit right-aligns to %q", got)
	}
	if got := common.FitStyled("\x1b[1mbold\x1b[0m", 6); common.TextWidth(stripANSI(got)) != 6 {
		t.Errorf("fitStyled pads styled text to %q", got)
	}
	if got := common.ShortAddr("0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"); got != "0x2c75…5c23" {
		t.Errorf("shortAddr = %q", got)
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == 0x1b:
			in = true
		case in && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'):
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestTableFitsColumnsScrollsAndCaches(t *testing.T) {
	st := common.NewStyles(commontest.Theme)
	calls := 0
	tbl := common.NewTable(st, []common.Column{common.Col("A", 5, false, 0), common.Col("B", 5, true, 1), common.Col("C", 5, true, 2)}, func(row, col int) (string, common.Paint) {
		calls++
		return strings.Repeat(string(rune('a'+col)), 2), common.Paint{}
	})
	tbl.SetSize(12, 4) // the marker and room for A and B only; 3 rows
	if len(tbl.Visible) != 2 {
		t.Fatalf("visible columns %v at width 12", tbl.Visible)
	}
	tbl.SetRows(10)
	tbl.Focused = true
	lines := tbl.Lines(nil)
	if len(lines) != 4 || common.TextWidth(stripANSI(lines[1])) != 12 {
		t.Fatalf("lines %q", lines)
	}
	first := calls
	tbl.Lines(nil)
	if calls != first {
		t.Errorf("rows rendered again without a change: %d cell calls", calls-first)
	}
	if first != 3*2 {
		t.Errorf("%d cells rendered, want only the 3 rows on screen", first)
	}
	tbl.Move(5)
	if tbl.Cursor != 5 || tbl.Offset != 3 {
		t.Errorf("cursor %d offset %d after moving 5", tbl.Cursor, tbl.Offset)
	}
	if got := tbl.RowAt(1); got != 3 {
		t.Errorf("rowAt(1) = %d", got)
	}
	tbl.MoveTo(99)
	if tbl.Cursor != 9 {
		t.Errorf("cursor %d after moving past the end", tbl.Cursor)
	}
	tbl.SetRows(0)
	if tbl.Cursor != 0 || tbl.RowAt(1) != -1 {
		t.Errorf("empty table cursor %d", tbl.Cursor)
	}
}

func TestNewKeyMapErrors(t *testing.T) {
	if _, err := common.NewKeyMap(keyTable); err != nil {
		t.Fatal(err)
	}
	missing := map[string][]string{}
	for k, v := range keyTable {
		if k != "help" {
			missing[k] = v
		}
	}
	if _, err := common.NewKeyMap(missing); err == nil || !strings.Contains(err.Error(), `"help" has no key`) {
		t.Errorf("missing action: %v", err)
	}
	clash := map[string][]string{}
	for k, v := range keyTable {
		clash[k] = v
	}
	clash["sort"] = []string{"j"} // j moves down in the lists
	if _, err := common.NewKeyMap(clash); err == nil || !strings.Contains(err.Error(), `"j" is bound to both`) {
		t.Errorf("clash: %v", err)
	}
	clash["sort"] = []string{"o"}
	clash["fill_bid"] = []string{"b"} // b buys in the tickers, but never meets the form
	if _, err := common.NewKeyMap(clash); err != nil {
		t.Errorf("keys in scopes that never meet: %v", err)
	}
}

// TestTableMarksSelectionWithoutColour (#24): the cursor row starts with a glyph, in the focused
// list and in one without the focus, and no other row does; under NO_COLOR the row is otherwise
// drawn like the others, so without the glyph (mutation: drop the marker) no row is told apart.
func TestTableMarksSelectionWithoutColour(t *testing.T) {
	th := commontest.Theme
	th.NoColor = true
	st := common.NewStyles(th)
	tbl := common.NewTable(st, []common.Column{common.Col("A", 5, false, 0)}, func(row, col int) (string, common.Paint) {
		return "row", common.Paint{}
	})
	tbl.SetSize(10, 4)
	tbl.SetRows(3)
	for _, focused := range []bool{true, false} {
		tbl.Focused = focused
		tbl.MoveTo(1)
		lines := tbl.Lines(nil)
		want := common.MarkBlur
		if focused {
			want = common.MarkFocus
		}
		for i, l := range lines[1:] {
			marked := strings.HasPrefix(stripANSI(l), want)
			if marked != (i == 1) {
				t.Errorf("focused %v: row %d %q marked %v", focused, i, stripANSI(l), marked)
			}
			if w := common.TextWidth(stripANSI(l)); w != 10 {
				t.Errorf("row %d is %d cells wide, want 10", i, w)
			}
		}
	}
}

// TestSetWidthsKeepsANumberWhole (QA 10): a column widened to its widest cell shows the number
// whole ("2,076,845.0" in a 10-wide Liq. price column was cut to "2,076,845…"), and a column of
// lower priority gives way for it. Guards SetWidths not fitting the columns again.
func TestSetWidthsKeepsANumberWhole(t *testing.T) {
	st := common.NewStyles(commontest.Theme)
	tbl := common.NewTable(st, []common.Column{common.Col("Liq. price", 10, true, 0), common.Col("Dist", 6, true, 1)},
		func(row, col int) (string, common.Paint) {
			if col == 0 {
				return "2,076,845.0", st.Text
			}
			return "99.0%", st.Text
		})
	tbl.SetSize(18, 3)
	tbl.SetRows(1)
	tbl.SetWidths([]int{11, 0})
	v := ansi.Strip(strings.Join(tbl.Lines(nil), "\n"))
	if !strings.Contains(v, "2,076,845.0") || strings.Contains(v, "…") || strings.Contains(v, "99.0%") {
		t.Errorf("want the price whole and Dist dropped:\n%s", v)
	}
}
