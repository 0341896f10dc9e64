package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/dialogs/confirm"
	"github.com/tradedesk/tradedesk/ui/dialogs/leverage"
)

// The confirmation, the leverage dialog and a sheet are owned by the modal stack (Model.modals):
// each is pushed with its state where it opens (common.PushSole: one of each at a time) and
// popped when it closes; the root keeps no field for them and finds the open one by its type.

// confirmModal is the confirmation dialog: open until its answer (confirm.ResultMsg) pops it;
// Ctrl+C answers it "no".
type confirmModal struct{ d *confirm.Dialog }

// Open implements common.Modal.
func (c *confirmModal) Open() bool { return true }

// Key implements common.Modal.
func (c *confirmModal) Key(msg tea.KeyMsg) tea.Cmd { return c.d.Update(msg) }

// Close implements common.Modal.
func (c *confirmModal) Close() (tea.Cmd, bool) { return c.d.Close(), true }

// Covers implements common.Modal.
func (c *confirmModal) Covers() bool { return true }

// View implements common.Modal.
func (c *confirmModal) View(int, int) string { return c.d.View() }

// KeepsFooter implements common.Modal.
func (c *confirmModal) KeepsFooter() bool { return true }

// levModal is the leverage dialog: open until its answer (leverage.DoneMsg) pops it or Ctrl+C
// closes it.
type levModal struct {
	d      *leverage.Dialog
	closed bool
}

// Open implements common.Modal.
func (l *levModal) Open() bool { return !l.closed }

// Key implements common.Modal.
func (l *levModal) Key(msg tea.KeyMsg) tea.Cmd { return l.d.Update(msg) }

// Close implements common.Modal.
func (l *levModal) Close() (tea.Cmd, bool) { l.closed = true; return nil, true }

// Covers implements common.Modal.
func (l *levModal) Covers() bool { return true }

// View implements common.Modal.
func (l *levModal) View(int, int) string { return l.d.View() }

// KeepsFooter implements common.Modal.
func (l *levModal) KeepsFooter() bool { return true }

// sheet is a read-only view over the panes (an order's or algorithm's report card, the latency
// view, the vaults): it takes every key while open, and closes on its own.
type sheet interface {
	View(w, h int) string
	Key(tea.KeyMsg) (tea.Cmd, bool)
	Update(tea.Msg) tea.Cmd
}

// sheetModal is a sheet on the stack: open until its own key or Ctrl+C closes it.
type sheetModal struct {
	s      sheet
	closed bool
}

// Open implements common.Modal.
func (s *sheetModal) Open() bool { return !s.closed }

// Key implements common.Modal.
func (s *sheetModal) Key(msg tea.KeyMsg) tea.Cmd {
	cmd, closed := s.s.Key(msg)
	s.closed = s.closed || closed
	return cmd
}

// Close implements common.Modal.
func (s *sheetModal) Close() (tea.Cmd, bool) { s.closed = true; return nil, true }

// Covers implements common.Modal.
func (s *sheetModal) Covers() bool { return true }

// View implements common.Modal.
func (s *sheetModal) View(w, h int) string { return s.s.View(min(w-4, 110), h-3) }

// KeepsFooter implements common.Modal: the sheet says its own keys.
func (s *sheetModal) KeepsFooter() bool { return false }

// pushSheet pushes sh over the panes, in place of an open sheet.
func (m *Model) pushSheet(sh sheet) {
	common.PushSole(&m.modals, &sheetModal{s: sh})
	m.footerDirty = true
}

// confirmation is the open confirmation dialog (nil: none).
func (m *Model) confirmation() *confirm.Dialog {
	if md, ok := common.Find[*confirmModal](&m.modals); ok {
		return md.d
	}
	return nil
}

// leverageDialog is the open leverage dialog (nil: none).
func (m *Model) leverageDialog() *leverage.Dialog {
	if md, ok := common.Find[*levModal](&m.modals); ok {
		return md.d
	}
	return nil
}

// openSheet is the sheet open over the panes (nil: none).
func (m *Model) openSheet() sheet {
	if md, ok := common.Find[*sheetModal](&m.modals); ok {
		return md.s
	}
	return nil
}

// modalSet are the modals whose state a component keeps (the command line, the alerts view, the
// messages, the help), each pushed on the one stack (Model.modals) as it opens.
type modalSet struct{ line, alerts, messages, help *common.ModalFuncs }

// newModals makes the components' modals: how each takes keys and closes for Ctrl+C.
func (m *Model) newModals() modalSet {
	overlays := func() (tea.Cmd, bool) { m.helpBox.Close(); m.msgs.Close(); return nil, true }
	return modalSet{
		line: &common.ModalFuncs{IsOpen: func() bool { return m.cmdline.Active() }, OnKey: m.lineKey,
			OnClose: func() (tea.Cmd, bool) { m.cmdline.Close(); return nil, true }},
		alerts: &common.ModalFuncs{IsOpen: func() bool { return m.alerts.Active() }, OnKey: func(msg tea.KeyMsg) tea.Cmd { return m.alerts.Key(msg) },
			OnClose: func() (tea.Cmd, bool) { m.alerts.Close(); return nil, true },
			Draw:    func(w, h int) string { return m.alerts.View(min(w-4, 100), h-3) }, Footer: true},
		messages: &common.ModalFuncs{IsOpen: func() bool { return m.msgs.Shown() }, OnKey: m.messagesKey, OnClose: overlays,
			Draw: func(int, int) string { return m.messagesView }, Footer: true},
		help: &common.ModalFuncs{IsOpen: func() bool { return m.helpBox.Shown() }, OnKey: m.helpKey, OnClose: overlays,
			Draw: func(int, int) string { return m.helpBox.View() }, Footer: true},
	}
}
