package ui

import (
	"reflect"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/dialogs/confirm"
	"github.com/tradedesk/tradedesk/ui/dialogs/leverage"
)

// TestTheStackOwnsTheDialogs (issue #33): the confirmation, the leverage dialog and a sheet live
// on the modal stack with their state, not in fields of the root: a second confirmation replaces
// the first (one at a time, as before), a sheet opened over it takes the keys and Ctrl+C pops it,
// Ctrl+C then answers the confirmation "no" and its answer pops it, leaving nothing open. It
// fails if the root keeps a field for any of them again.
func TestTheStackOwnsTheDialogs(t *testing.T) {
	t.Parallel()
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Model]()) {
		switch f.Type {
		case reflect.TypeFor[*confirm.Dialog](), reflect.TypeFor[*leverage.Dialog](), reflect.TypeFor[common.Sheet]():
			t.Errorf("the root model keeps the field %s (%s): the modal stack owns it", f.Name, f.Type)
		}
	}
	clock := func() time.Time { return benchNow }
	m := New(Config{Exchange: api.New("http://127.0.0.1:1/"), Store: state.New(clock), Clock: clock,
		Keys: mustKeys(t), Theme: testTheme, Mode: ModeDemo})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	ask := func(what string) *action.Action {
		return &action.Action{Kind: action.KindControl, Title: what, What: what, Lines: []string{what}, Confirm: true}
	}
	m.openConfirm(ask("first"), "")
	m.openConfirm(ask("second"), "")
	if d := m.confirmation(); d == nil || d.Action().What != "second" || len(m.modals.Shown()) != 1 {
		t.Fatalf("two confirmations: %d open, the top asks %v", len(m.modals.Shown()), d)
	}
	m.Update(cmdline.LatencyMsg{})
	if _, top := m.modals.Top().(*common.SheetModal); !top || m.openSheet() == nil {
		t.Fatalf("the latency view did not open over the confirmation: top %T", m.modals.Top())
	}
	m.Update(keyMsg("ctrl+c"))
	if m.openSheet() != nil || m.confirmation() == nil {
		t.Fatalf("Ctrl+C over the sheet: sheet %v, confirmation %v", m.openSheet(), m.confirmation())
	}
	_, cmd := m.Update(keyMsg("ctrl+c"))
	if cmd == nil {
		t.Fatal("Ctrl+C in the confirmation answered nothing")
	}
	pump(t, m, cmd)
	if m.confirmation() != nil || m.modals.Top() != nil || !strings.Contains(m.shownNotice(), "not sent: second") {
		t.Fatalf("after its answer: confirmation %v, top %v, notice %q", m.confirmation(), m.modals.Top(), m.shownNotice())
	}
}
