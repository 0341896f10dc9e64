package ui

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

// TestLeverageDialog: with an ETH position, L on the positions pane opens the leverage dialog
// (in force, tier maximum, the margin the change frees); a value over the tier maximum is refused
// in the dialog; 20 is sent over HTTP and the simulator's leverage, the positions pane and the
// account's margin follow; ctrl+l in the order form opens it too.
func TestLeverageDialog(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.key(t, "4", "down", "down", "right", "down")
	if c.m.form.Field() != orderentry.FieldSize {
		t.Fatalf("field %d", c.m.form.Field())
	}
	c.typeText(t, "0.5")
	c.key(t, "enter", "enter")
	if ps := c.m.store.Positions(); len(ps) != 1 {
		t.Fatalf("no position (notice %q)", c.m.shownNotice())
	}
	imBefore := c.m.store.Account().InitialMargin
	topBefore := strings.SplitN(c.m.View(), "\n", 2)[0]
	c.key(t, "2", "L")
	if c.m.leverageDialog() == nil {
		t.Fatalf("L opened no dialog (notice %q)", c.m.shownNotice())
	}
	v := c.m.View()
	for _, want := range []string{"Leverage · ETH-PERP", "In force     10x", "Tier maximum 50x"} {
		if !strings.Contains(v, want) {
			t.Fatalf("dialog lacks %q:\n%s", want, v)
		}
	}
	c.key(t, "backspace", "backspace")
	c.typeText(t, "60")
	if !strings.Contains(c.m.leverageDialog().Note(), "over the 50x") {
		t.Fatalf("60x: note %q", c.m.leverageDialog().Note())
	}
	c.key(t, "enter") // refused in the dialog: nothing is sent
	if c.m.leverageDialog() == nil {
		t.Fatal("a refused value closed the dialog")
	}
	c.key(t, "backspace", "backspace")
	c.typeText(t, "20")
	if c.m.leverageDialog().Note() != "" || !strings.Contains(c.m.View(), "frees") {
		t.Fatalf("20x: note %q\n%s", c.m.leverageDialog().Note(), c.m.View())
	}
	c.key(t, "enter")
	if c.m.leverageDialog() != nil || c.m.shownLevel() == common.LevelError || !strings.Contains(c.m.shownNotice(), "leverage ETH-PERP 10x -> 20x done") {
		t.Fatalf("after Enter: dialog %v, notice %q", c.m.leverageDialog() != nil, c.m.shownNotice())
	}
	lv, err := c.m.ex.InstrumentLeverage(t.Context(), "", "ETH-PERP")
	if err != nil || lv.Leverage.String() != "20" {
		t.Fatalf("exchange leverage %s (%v)", lv.Leverage, err)
	}
	if ps := c.m.store.Positions(); !ps[0].Leverage.Equal(d("20")) {
		t.Errorf("positions pane leverage %s", ps[0].Leverage)
	}
	if r := c.m.store.PositionViews(); len(r) != 1 || !r[0].Leverage.Equal(d("20")) {
		t.Errorf("the positions pane's row: %+v", r)
	}
	if top := strings.SplitN(c.m.View(), "\n", 2)[0]; top == topBefore || !strings.Contains(top, "IM ") {
		t.Errorf("the top line's margin did not move: %q", top)
	}
	im := c.m.store.Account().InitialMargin
	if !im.LessThan(imBefore) {
		t.Errorf("initial margin %s did not fall from %s", im, imBefore)
	}
	// On screen: the account pane's initial margin and the position's leverage column (at 200
	// columns the positions pane shows it).
	if v := c.m.View(); !strings.Contains(v, "Init. margin  "+common.FmtNum(im, 2)) || strings.Contains(v, "Init. margin  "+common.FmtNum(imBefore, 2)) {
		t.Errorf("the account pane does not show the new initial margin %s (was %s):\n%s", common.FmtNum(im, 2), common.FmtNum(imBefore, 2), v)
	}
	if l, ok := c.m.store.Leverage("ETH-PERP"); !ok || !l.Leverage.Equal(d("20")) {
		t.Errorf("the order preview's leverage setting is %v %v", l.Leverage, ok)
	}
	c.key(t, "4", "ctrl+l")
	if c.m.leverageDialog() == nil || !strings.Contains(c.m.View(), "In force     20x") {
		t.Fatalf("ctrl+l in the form:\n%s", c.m.View())
	}
	c.key(t, "esc")
	if c.m.leverageDialog() != nil {
		t.Fatal("esc kept the dialog")
	}
}
