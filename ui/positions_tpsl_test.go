package ui

import (
	"github.com/tradedesk/tradedesk/ui/components/positions"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/api"
)

// TestPositionTpslFromThePane: t on a position opens the command line on "tpsl SYM tp "; the legs
// typed and confirmed put the position's take-profit and stop-loss (grouping position) on the
// simulator over HTTP, through the same confirmation, and the pane shows them. Guards the key
// starting the line on another instrument, and a pane that does not show what it set.
func TestPositionTpslFromThePane(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	placeFixtureOrders(t, c.m.ex) // a long of 0.5 ETH-PERP
	pump(t, c.m, c.m.Init())
	c.key(t, "2", "t")
	if !c.m.cmdline.Active() || c.m.cmdline.Value() != "tpsl eth-perp tp " {
		t.Fatalf("t on the position: line open %v %q", c.m.cmdline.Active(), c.m.cmdline.Value())
	}
	c.typeText(t, "3600 sl 3300")
	c.key(t, "enter")
	if c.m.confirmation() == nil {
		t.Fatalf("no confirmation; line error %q, notice %q", c.m.cmdline.Err(), c.m.shownNotice())
	}
	c.key(t, "enter")
	var legs []string
	for _, o := range ordersOn(c.openOrders(t), "ETH-PERP") {
		if o.Grouping == api.GroupingPosition {
			legs = append(legs, o.Tpsl+" "+o.TriggerPx.Decimal.String())
		}
	}
	if len(legs) != 2 {
		t.Fatalf("position legs %v (notice %q)", legs, c.m.shownNotice())
	}
	if v := c.m.View(); !strings.Contains(v, "3,600.00/3,300.00") {
		t.Errorf("the positions pane does not show the TP/SL:\n%s", v)
	}
}

// TestPositionsShowTheirTpslAtEverySize (#13 QA): a position's take-profit and stop-loss are on
// the screen at 80x24, 120x40 and 200x60, at the instrument's tick with thousands separators
// (3,600.25, not "3600"), in the TP/SL column where it fits (200x60) and else first on the
// selected position's detail line. Guards the detail line giving out before the TP/SL (it came
// last), prices rounded to five digits or to thousands ("99.28k"), and a column that drops at
// 200x60.
func TestPositionsShowTheirTpslAtEverySize(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		c := newSimConsole(t, size[0], size[1], false)
		placeFixtureOrders(t, c.m.ex) // a long of 0.5 ETH-PERP
		pump(t, c.m, c.m.Init())
		c.key(t, "2")
		c.commandConfirmed(t, "tpsl eth-perp tp 3600.25 sl 3300.5")
		pump(t, c.m, c.m.refreshNow(c.m.kinds...))
		v := ansi.Strip(c.m.View())
		if !strings.Contains(v, "3,600.25/3,300.50") {
			t.Errorf("%dx%d: the position's TP/SL 3,600.25/3,300.50 is not shown:\n%s", size[0], size[1], v)
		}
		if column := slices.Contains(positionsOf(c.m).Table().Visible, positions.ColTpsl); column != (size[0] == 200) {
			t.Errorf("%dx%d: TP/SL column shown %v", size[0], size[1], column)
		}
	}
}

// positionsOf is the console's positions pane.
func positionsOf(m *Model) *positions.Pane {
	for _, s := range m.slots {
		if p, ok := s.pane.(*positions.Pane); ok {
			return p
		}
	}
	return nil
}
