package common_test

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// followed is a table over names that follows each row's name, as the list panes follow an
// order id or an instrument.
func followed(names *[]string) *common.Table {
	st := common.NewStyles(commontest.Theme)
	tbl := common.NewTable(st, []common.Column{common.Col("Name", 6, false, 0)}, func(row, col int) (string, common.Paint) {
		return (*names)[row], common.Paint{}
	})
	tbl.Follow(func(row int) string { return (*names)[row] })
	tbl.SetSize(10, 6)
	tbl.SetFocused(true)
	return tbl
}

// TestTableFollowsTheRowNotItsNumber (#31 point 8): rows arriving above the cursor, or sorted
// differently, leave it on the row it was on; when that row goes nothing is selected (no row
// marked) until a move, which goes from the gap it left; coming back to the list selects again.
func TestTableFollowsTheRowNotItsNumber(t *testing.T) {
	names := []string{"a", "b", "c"}
	tbl := followed(&names)
	tbl.SetRows(len(names))
	if tbl.Selected() != 0 {
		t.Fatalf("the first rows select row %d, want 0", tbl.Selected())
	}
	tbl.MoveTo(1) // b
	names = []string{"new", "a", "b", "c"}
	tbl.SetRows(len(names))
	if s := tbl.Selected(); s != 2 || names[s] != "b" {
		t.Fatalf("after a row on top the cursor is on %d, want b (2)", s)
	}
	names = []string{"c", "b", "new", "a"}
	tbl.SetRows(len(names))
	if s := tbl.Selected(); s != 1 {
		t.Fatalf("after a sort the cursor is on %d, want b (1)", s)
	}
	names = []string{"c", "new", "a"} // b went
	tbl.SetRows(len(names))
	if tbl.Selected() != -1 || !tbl.Lost() {
		t.Fatalf("b went but row %d is selected", tbl.Selected())
	}
	for _, l := range tbl.Lines(nil)[1:] {
		if strings.HasPrefix(stripANSI(l), common.MarkFocus) {
			t.Errorf("a row is marked with nothing selected: %q", stripANSI(l))
		}
	}
	names = []string{"d", "c", "new", "a"} // rows still come: still nothing selected
	tbl.SetRows(len(names))
	if tbl.Selected() != -1 {
		t.Fatalf("a new row selected %d after the chosen one went", tbl.Selected())
	}
	names = []string{"c", "new", "a"}
	tbl.SetRows(len(names))
	tbl.Move(1) // down from the gap b left: the row after it
	if s := tbl.Selected(); s != 1 || names[s] != "new" {
		t.Fatalf("down from the gap selects %d, want new (1)", s)
	}
	names = []string{"c", "a"}
	tbl.SetRows(len(names))
	tbl.Move(-1) // up from the gap: the row before it
	if s := tbl.Selected(); s != 0 || names[s] != "c" {
		t.Fatalf("up from the gap selects %d, want c (0)", s)
	}
	names = []string{"a"}
	tbl.SetRows(len(names))
	tbl.SetFocused(false)
	tbl.SetFocused(true)
	if s := tbl.Selected(); s != 0 {
		t.Fatalf("coming back to the list selects %d, want 0", s)
	}
}

// TestTableWithoutFollowKeepsTheRowNumber: a table that does not follow (the tickers pane keeps
// its own instrument) keeps the cursor's number, as before.
func TestTableWithoutFollowKeepsTheRowNumber(t *testing.T) {
	st := common.NewStyles(commontest.Theme)
	tbl := common.NewTable(st, []common.Column{common.Col("A", 5, false, 0)}, func(row, col int) (string, common.Paint) {
		return "x", common.Paint{}
	})
	tbl.SetSize(10, 6)
	tbl.SetRows(3)
	tbl.MoveTo(2)
	tbl.SetRows(4)
	if tbl.Selected() != 2 {
		t.Fatalf("selected %d, want 2", tbl.Selected())
	}
}
