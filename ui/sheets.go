package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/components/latency"
	"github.com/tradedesk/tradedesk/ui/components/reportcard"
	"github.com/tradedesk/tradedesk/ui/dialogs/confirm"
	"github.com/tradedesk/tradedesk/ui/dialogs/leverage"
)

// onSheetMsg opens a sheet, or hands one its own messages.
func (m *Model) onSheetMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case cmdline.LatencyMsg:
		done, pending := m.lat.Session()
		note := ""
		if m.stream == nil {
			note = "no stream: an order's route ends at its first streamed record, so none completes without one"
		}
		m.pushSheet(latency.New(m.st, m.keys, done, pending, note))
		return nil, true
	case reportcard.OpenMsg:
		src := reportcard.Source{Ex: m.ex, Store: m.store, Now: m.clock}
		if j := m.journal(); j != nil {
			src.Journal = j // a nil *journal.Journal is no nil reportcard.Journal
		}
		v, cmd := reportcard.Open(src, m.st, m.keys, msg)
		m.pushSheet(v)
		return cmd, true
	case reportcard.LoadedMsg:
		if sh := m.openSheet(); sh != nil {
			return sh.Update(msg), true
		}
		return nil, true
	}
	return nil, false
}

// onModalMsg opens a modal a pane asks for (the leverage dialog, the command line on a line) and
// takes a dialog's answer.
func (m *Model) onModalMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case leverage.OpenMsg:
		return m.openLeverage(msg.Symbol), true
	case cmdline.OpenMsg:
		m.footerDirty = true
		m.cmdline.OpenWith(msg.Line)
		m.modals.Push(m.modal.line)
		return nil, true
	case leverage.DoneMsg:
		return m.onLeverageDone(msg), true
	case confirm.ResultMsg:
		return m.onDialogResult(msg), true
	}
	return nil, false
}

// routeBook is the executor's journal as the latency routes keep to it (a nil interface without
// one: a nil *journal.Journal would not be a nil latency.RouteBook).
func (m *Model) routeBook() latency.RouteBook {
	if m.exec == nil {
		return nil
	}
	return m.exec.Journal()
}

// journal is the executor's journal (nil without one).
func (m *Model) journal() *journal.Journal {
	if m.exec == nil {
		return nil
	}
	return m.exec.Journal()
}

// The confirmation, the leverage dialog and a sheet are owned by the modal stack (Model.modals):
// each is pushed with its state where it opens (common.PushSole: one of each at a time) and
// popped when it closes; the root keeps no field for them and finds the open one by its type.

// pushSheet pushes sh over the panes, in place of an open sheet.
func (m *Model) pushSheet(sh common.Sheet) {
	common.PushSole(&m.modals, &common.SheetModal{S: sh})
	m.footerDirty = true
}

// confirmation is the open confirmation dialog (nil: none).
func (m *Model) confirmation() *confirm.Dialog {
	if md, ok := common.Find[*confirm.Modal](&m.modals); ok {
		return md.D
	}
	return nil
}

// leverageDialog is the open leverage dialog (nil: none).
func (m *Model) leverageDialog() *leverage.Dialog {
	if md, ok := common.Find[*leverage.Modal](&m.modals); ok {
		return md.D
	}
	return nil
}

// openSheet is the sheet open over the panes (nil: none).
func (m *Model) openSheet() common.Sheet {
	if md, ok := common.Find[*common.SheetModal](&m.modals); ok {
		return md.S
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
