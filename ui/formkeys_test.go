package ui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
	"github.com/tradedesk/tradedesk/ui/components/transfer"
)

// TestTabMovesBetweenTheOrderFormsFields (#13 "Form keys"): the new user's `b`, `m`, Tab, `0.5`
// ends with 0.5 in the size (Tab left the form for the Account pane before, and 0.5 was lost);
// shift+Tab goes back; Tab also moves over the choice fields and wraps; Esc leaves the form, and
// then Tab moves to the next pane and the footer says how to go back in. The footer in the form
// says Tab and Esc, and the help overlay says what Tab does in a form.
func TestTabMovesBetweenTheOrderFormsFields(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	form := c.m.form
	c.key(t, "1", "b")
	if c.m.slots[c.m.focus].pane != form || form.Field() != orderentry.FieldPrice || !form.InForm() {
		t.Fatalf("b did not put the trader in the form's price: field %d in form %v", form.Field(), form.InForm())
	}
	c.key(t, "m", "tab")
	c.typeText(t, "0.5")
	if form.Field() != orderentry.FieldSize || form.Value(orderentry.FieldSize) != "0.5" || form.Value(orderentry.FieldPrice) == "" {
		t.Fatalf("b m Tab 0.5: field %d, size %q, price %q; want 0.5 in the size after the mark price",
			form.Field(), form.Value(orderentry.FieldSize), form.Value(orderentry.FieldPrice))
	}
	foot := ansi.Strip(c.m.footerView())
	for _, want := range []string{"Tab next field", "S-Tab previous field", "Esc leave form"} {
		if !strings.Contains(foot, want) {
			t.Errorf("the footer in the form does not say %q: %q", want, foot)
		}
	}
	if strings.Contains(foot, "next pane") {
		t.Errorf("the footer in the form offers Tab for the next pane: %q", foot)
	}
	c.key(t, "shift+tab")
	if form.Field() != orderentry.FieldPrice {
		t.Errorf("shift+Tab from the size went to field %d, want the price", form.Field())
	}
	// Size, USD, take-profit, stop-loss, time in force, reduce-only, post-only, the button, then
	// around to the instrument.
	c.key(t, "tab", "tab", "tab", "tab", "tab", "tab", "tab", "tab", "tab")
	if c.m.slots[c.m.focus].pane != form || form.Field() != orderentry.FieldInstrument {
		t.Errorf("Tab over the choice fields and the button: pane %q field %d, want the form's instrument",
			c.m.slots[c.m.focus].pane.Title(), form.Field())
	}
	c.key(t, "shift+tab", "shift+tab")
	if form.Field() != orderentry.FieldPost {
		t.Errorf("shift+Tab twice from the instrument: field %d, want post-only", form.Field())
	}

	c.key(t, "esc")
	if form.InForm() || form.Capturing() {
		t.Fatal("Esc did not leave the form")
	}
	foot = ansi.Strip(c.m.footerView())
	for _, want := range []string{"Tab next pane", "↓/↑ into the form", "Enter send or review"} {
		if !strings.Contains(foot, want) {
			t.Errorf("the footer outside the form does not say %q: %q", want, foot)
		}
	}
	c.key(t, "?")
	if !c.m.helpOpen() || !strings.Contains(c.m.helpBox.View(), "in a form, between fields (Esc leaves it)") ||
		!strings.Contains(c.m.helpBox.View(), "leave form") {
		t.Errorf("the help does not say what Tab and Esc do in a form:\n%s", ansi.Strip(c.m.helpBox.View()))
	}
	c.key(t, "esc", "tab")
	if c.m.slots[c.m.focus].pane == form {
		t.Error("Tab after Esc did not move to the next pane")
	}
	c.key(t, "4")
	if c.m.slots[c.m.focus].pane != form || !form.InForm() {
		t.Error("the form's pane number did not put the trader back in the form")
	}
	c.key(t, "esc", "down")
	if !form.InForm() || form.Field() != orderentry.FieldInstrument {
		t.Errorf("↓ outside the form: in form %v field %d, want back in on the instrument", form.InForm(), form.Field())
	}
}

// TestTabMovesBetweenTheTransferFormsFields (#13 "Form keys"): the withdrawal form takes Tab and
// shift+Tab between its fields, Esc leaves it, and Tab then moves to the next pane.
func TestTabMovesBetweenTheTransferFormsFields(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	g, form := fundsGroup(t, c.m)
	c.key(t, "8", "w")
	if g.Active() != form || form.Field() != transfer.FieldAmount || !form.InForm() {
		t.Fatalf("w did not open the withdrawal form on its amount: field %d in form %v", form.Field(), form.InForm())
	}
	c.typeText(t, "10")
	c.key(t, "tab")
	if form.Field() != transfer.FieldChain || form.Amount() != "10" {
		t.Errorf("Tab from the amount: field %d amount %q, want the chain", form.Field(), form.Amount())
	}
	c.key(t, "tab", "tab", "tab", "tab")
	if form.Field() != transfer.FieldAmount {
		t.Errorf("Tab around the withdrawal form: field %d, want the amount again", form.Field())
	}
	c.key(t, "shift+tab")
	if form.Field() != transfer.FieldCollateral {
		t.Errorf("shift+Tab from the amount: field %d, want the collateral", form.Field())
	}
	if foot := ansi.Strip(c.m.footerView()); !strings.Contains(foot, "Esc leave form") || !strings.Contains(foot, "Tab next field") ||
		strings.Contains(foot, "switch view") {
		t.Errorf("the footer in the transfer form: %q", foot)
	}
	c.key(t, "esc")
	if form.InForm() {
		t.Fatal("Esc did not leave the transfer form")
	}
	c.key(t, "tab")
	if c.m.slots[c.m.focus].pane == g {
		t.Error("Tab after Esc did not move to the next pane")
	}
}

// TestPaneNumbersDoNotTypeIntoTheForm (QA 8): at 80x24, `4` then `5` goes to pane 5 (it typed
// "5" into the instrument before: "BTC-PERP5 ! unknown instrument"), while a letter typed first
// goes into the field and from then on the field takes digits too; on the Review button, where
// the form rests after it was used, `?`, the pane numbers and `q` act as everywhere (they did
// nothing). Tab from the button still moves between the fields. It fails if focusing the form
// by number traps the pane keys again, or if the button takes keys like a text field.
func TestPaneNumbersDoNotTypeIntoTheForm(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 80, 24, false)
	pump(t, c.m, c.m.Init())
	form := c.m.form
	c.key(t, "4")
	before := form.Value(orderentry.FieldInstrument)
	if c.m.slots[c.m.focus].pane != form || !form.InForm() || form.Field() != orderentry.FieldInstrument {
		t.Fatalf("4 did not put the trader in the form's instrument (field %d)", form.Field())
	}
	c.key(t, "5")
	if c.m.slots[c.m.focus].pane == form || form.Value(orderentry.FieldInstrument) != before {
		t.Fatalf("4 5: focus on %q, instrument %q (was %q); want pane 5 and the instrument untouched",
			c.m.slots[c.m.focus].pane.Title(), form.Value(orderentry.FieldInstrument), before)
	}
	c.key(t, "4", "ctrl+u")
	c.typeText(t, "e1")
	if got := form.Value(orderentry.FieldInstrument); got != "e1" || c.m.slots[c.m.focus].pane != form {
		t.Fatalf("typing after 4: instrument %q, focus %q; want e1 in the form", got, c.m.slots[c.m.focus].pane.Title())
	}

	c.key(t, "esc", "1", "4")
	if form.Field() != orderentry.FieldSubmit || !form.InForm() || form.Capturing() {
		t.Fatalf("1 4 after Esc: field %d in form %v capturing %v; want on the Review button, not capturing", form.Field(), form.InForm(), form.Capturing())
	}
	if foot := ansi.Strip(c.m.footerView()); strings.Contains(foot, "next pane") || !strings.Contains(foot, "Tab next field") {
		t.Errorf("the footer on the Review button: %q; want Tab between the fields, not to the next pane", foot)
	}
	c.key(t, "?")
	if !c.m.helpOpen() {
		t.Error("? on the Review button did not open the help")
	}
	c.key(t, "esc", "tab")
	if c.m.slots[c.m.focus].pane != form || form.Field() != orderentry.FieldInstrument {
		t.Errorf("Tab on the Review button: focus %q field %d, want the form's instrument", c.m.slots[c.m.focus].pane.Title(), form.Field())
	}
	c.key(t, "shift+tab", "5")
	if c.m.slots[c.m.focus].pane == form {
		t.Error("5 on the Review button did not go to pane 5")
	}
	c.key(t, "4")
	_, cmd := c.m.Update(keyMsg("q"))
	if cmd == nil {
		t.Fatal("q on the Review button did nothing")
	}
	if _, quit := cmd().(tea.QuitMsg); !quit {
		t.Error("q on the Review button did not quit")
	}
}

// TestTransferFormChoicesLetGlobalKeysThrough (QA 8, the audit of every form): on the transfer
// form's choice fields only Tab, shift+Tab, the toggles, Enter and Esc are the form's; ? opens the
// help there (it did nothing), [ ] do not switch the group away from the form, and Tab still
// moves between the fields. It fails if a choice field captures keys like a text field again.
func TestTransferFormChoicesLetGlobalKeysThrough(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	g, form := fundsGroup(t, c.m)
	c.key(t, "8", "w", "tab")
	if form.Field() != transfer.FieldChain || !form.InForm() || form.Capturing() {
		t.Fatalf("w Tab: field %d in form %v capturing %v; want the chain, a choice", form.Field(), form.InForm(), form.Capturing())
	}
	c.key(t, "?")
	if !c.m.helpOpen() {
		t.Error("? on a choice field of the transfer form did not open the help")
	}
	c.key(t, "esc", "[")
	if g.Active() != form || !form.InForm() {
		t.Error("[ in the transfer form switched the group away from it")
	}
	c.key(t, "tab")
	if form.Field() == transfer.FieldChain || g.Active() != form {
		t.Errorf("Tab on a choice field: field %d, want the next field of the form", form.Field())
	}
}
