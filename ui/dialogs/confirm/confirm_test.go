package confirm

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

func newDialog(t *testing.T, a *action.Action) *Dialog {
	t.Helper()
	keys := commontest.Keys(t)
	return New(common.NewStyles(commontest.Theme), &keys, a, 80)
}

func press(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func answer(t *testing.T, cmd tea.Cmd) ResultMsg {
	t.Helper()
	if cmd == nil {
		t.Fatal("no answer")
	}
	msg, ok := cmd().(ResultMsg)
	if !ok {
		t.Fatalf("answered %#v", msg)
	}
	return msg
}

// TestEnterConfirmsOnce: the first Enter confirms; a second one (a key repeat, an impatient
// trader) answers nothing, so the action is sent once.
func TestEnterConfirmsOnce(t *testing.T) {
	a := &action.Action{Title: "Place order", Lines: []string{"BUY 0.01 BTC-PERP @ 96000"}}
	d := newDialog(t, a)
	if v := d.View(); !strings.Contains(v, "Place order") || !strings.Contains(v, "BUY 0.01 BTC-PERP @ 96000") {
		t.Fatalf("the dialog does not show the action:\n%s", v)
	}
	if msg := answer(t, d.Update(press("enter"))); !msg.Confirmed || msg.Act != a {
		t.Fatalf("Enter answered %+v", msg)
	}
	if d.Update(press("enter")) != nil || !d.Answered() {
		t.Fatal("a second Enter answered again")
	}
}

func TestEscDropsTheAction(t *testing.T) {
	d := newDialog(t, &action.Action{Title: "Cancel ALL open orders"})
	if msg := answer(t, d.Update(press("esc"))); msg.Confirmed {
		t.Fatal("Esc confirmed the action")
	}
	if d.Update(press("enter")) != nil {
		t.Fatal("Enter after Esc confirmed the dropped action")
	}
}

// TestATypedWordIsRequiredWhenAsked: under the fat-finger guard Enter alone sends nothing; the
// word typed (in any case) does.
func TestATypedWordIsRequiredWhenAsked(t *testing.T) {
	d := newDialog(t, &action.Action{Title: "Place order", Typed: "yes"})
	if !d.Capturing() || !strings.Contains(d.View(), "Type yes") {
		t.Fatalf("the dialog does not ask for the word:\n%s", d.View())
	}
	if d.Update(press("enter")) != nil {
		t.Fatal("Enter without the word confirmed")
	}
	for _, r := range "YeS" {
		d.Update(press(string(r)))
	}
	if msg := answer(t, d.Update(press("enter"))); !msg.Confirmed {
		t.Fatal("the typed word did not confirm")
	}
}

// TestWarningsStayInViewWhenTheBodyScrolls: at 80x24 a bracket's confirmation has more lines
// than fit; its warning (why the trader must type yes) goes under the title, on screen with the
// prompt, while the details scroll. When everything fits, the lines keep their order. Guards
// dropping the move (the warning then sits below the fold, QA 13b #7).
func TestWarningsStayInViewWhenTheBodyScrolls(t *testing.T) {
	st := common.NewStyles(commontest.Theme)
	lines := []string{"SELL 1.000 ETH-PERP", ""}
	for i := range 20 {
		lines = append(lines, "Detail "+strings.Repeat("x", i))
	}
	lines = append(lines, st.Warn.On("! stop-loss 3,618.79 lies beyond the estimated liquidation price 3,549.07"))
	d := newDialog(t, &action.Action{Title: "Place bracket order", Lines: lines, Typed: "yes"})
	d.SetSize(80, 20)
	v := d.View()
	warn, scroll, prompt := strings.Index(v, "! stop-loss"), strings.Index(v, "↑/↓ scroll · lines"), strings.Index(v, "Type yes")
	if warn < 0 || scroll < 0 || prompt < 0 || warn > scroll || !strings.Contains(v, "SELL 1.000") {
		t.Fatalf("the warning is not on screen above the scrolled details:\n%s", v)
	}
	// ↓ reaches the last detail under the kept warning.
	for range 30 {
		d.Update(press("down"))
	}
	if v := d.View(); !strings.Contains(v, "Detail "+strings.Repeat("x", 19)) || !strings.Contains(v, "! stop-loss") {
		t.Fatalf("scrolled to the end, the last detail or the warning is not shown:\n%s", v)
	}
	d.SetSize(80, 60)
	v = d.View()
	if strings.Contains(v, "↑/↓ scroll") || strings.Index(v, "! stop-loss") < strings.Index(v, "Detail xxx") {
		t.Fatalf("a body that fits is not shown in its order:\n%s", v)
	}
}

// TestWrappedLinesGoOnUnderTheirText (QA 13b #7): at 80 columns a detail row too long for the
// box goes on under its value ("-137.04 USD" under the stop's price, not under its label) and a
// warning under its text, two cells in. Guards the box's plain wrap to the left edge.
func TestWrappedLinesGoOnUnderTheirText(t *testing.T) {
	st := common.NewStyles(commontest.Theme)
	d := newDialog(t, &action.Action{Title: "Position take-profit / stop-loss", Typed: "yes", Lines: []string{
		"Stop-loss    3,618.79 (market)   never fires: liquidated first at 3,549.07, -137.04 USD",
		st.Warn.On("! stop-loss 3,618.79 lies beyond the estimated liquidation price 3,549.07: the position would be liquidated first"),
	}})
	lines := strings.Split(ansi.Strip(d.View()), "\n")
	want := map[string]bool{"│              -137.04 USD": false, "│   the position would be liquidated first": false}
	for _, l := range lines {
		for w := range want {
			if strings.HasPrefix(l, w) {
				want[w] = true
			}
		}
	}
	for w, ok := range want {
		if !ok {
			t.Errorf("no line starts %q:\n%s", w, strings.Join(lines, "\n"))
		}
	}
}

// TestReboundDialogKeys (issue #33, 5): with confirm on ctrl+y, dismiss on ctrl+g and up/down on
// ctrl+p/ctrl+n, the dialog's prompt, its refusal of a missing word and its scroll line name
// those keys, Enter no longer confirms and ctrl+y does. It fails if the dialog spells out Enter,
// Esc or the arrows again.
func TestReboundDialogKeys(t *testing.T) {
	keys := commontest.Rebound(t, map[string][]string{"confirm": {"ctrl+y"}, "dismiss": {"ctrl+g"}, "up": {"ctrl+p"}, "down": {"ctrl+n"}})
	lines := []string{"SELL 1.000 ETH-PERP"}
	for i := range 30 {
		lines = append(lines, "Detail "+strings.Repeat("x", i))
	}
	d := New(common.NewStyles(commontest.Theme), &keys, &action.Action{Title: "Place order", Lines: lines, Typed: "yes"}, 80)
	d.SetSize(80, 20)
	v := ansi.Strip(d.View())
	if !strings.Contains(v, "press ctrl+y to send, ctrl+g to go back") || !strings.Contains(v, "ctrl+p/ctrl+n scroll · lines") || !d.Scrolls() {
		t.Fatalf("the prompt or the scroll line does not name the bound keys:\n%s", v)
	}
	d.Update(tea.KeyMsg{Type: tea.KeyCtrlY})
	if v = ansi.Strip(d.View()); !strings.Contains(v, "type yes first, then ctrl+y") {
		t.Errorf("the refusal does not name ctrl+y:\n%s", v)
	}
	for _, r := range "yes" {
		d.Update(press(string(r)))
	}
	if d.Update(press("enter")) != nil {
		t.Fatal("Enter confirmed though confirm is ctrl+y")
	}
	if msg := answer(t, d.Update(tea.KeyMsg{Type: tea.KeyCtrlY})); !msg.Confirmed {
		t.Fatal("ctrl+y did not confirm")
	}
	d = New(common.NewStyles(commontest.Theme), &keys, &action.Action{Title: "Cancel order"}, 80)
	if v = ansi.Strip(d.View()); !strings.Contains(v, "ctrl+y to confirm · ctrl+g to go back") {
		t.Errorf("the plain prompt does not name the bound keys:\n%s", v)
	}
}
