package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

// The form's refusal ("order not sent: ...") leaves the status line once the trader has fixed the
// form, and stays while the order is still wrong; the messages view keeps it. Guards an old
// refusal that sits on the status line beside a form that is valid again (#13 QA).
func TestFixedFormClearsItsRefusal(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	c.key(t, "4", "down", "down", "right", "down") // a market order, on its size
	if c.m.form.Field() != orderentry.FieldSize {
		t.Fatalf("field %d", c.m.form.Field())
	}
	c.key(t, "enter")
	if c.m.shownLevel() != common.LevelError || !strings.HasPrefix(c.m.shownNotice(), orderentry.NotSent) {
		t.Fatalf("Enter on an empty size: notice %q (level %d)", c.m.shownNotice(), c.m.shownLevel())
	}
	c.typeText(t, "0.0000001") // under the lot: still wrong
	if !strings.HasPrefix(c.m.shownNotice(), orderentry.NotSent) {
		t.Fatalf("the refusal left while the order is still wrong: %q", c.m.shownNotice())
	}
	for range len("0.0000001") {
		c.key(t, "backspace")
	}
	c.typeText(t, "0.5")
	if !c.m.form.Valid() || c.m.shownNotice() != "" {
		t.Fatalf("fixed form (valid %v): the status line still says %q", c.m.form.Valid(), c.m.shownNotice())
	}
	c.key(t, "esc", "!")
	if !strings.Contains(ansi.Strip(c.m.messagesView), orderentry.NotSent) {
		t.Errorf("the messages view lost the refusal")
	}
}
