package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/components/latency"
	"github.com/tradedesk/tradedesk/ui/components/reportcard"
)

// sheet is a read-only view over the panes (an order's or algorithm's report card, the latency
// view): it takes every key while open, and closes on its own.
type sheet interface {
	View(w, h int) string
	Key(tea.KeyMsg) (tea.Cmd, bool)
	Update(tea.Msg) tea.Cmd
}

// onSheetMsg opens a sheet, or hands one its own messages.
func (m *Model) onSheetMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case cmdline.LatencyMsg:
		done, pending := m.lat.Session()
		note := ""
		if m.stream == nil {
			note = "no stream: an order's route ends at its first streamed record, so none completes without one"
		}
		m.sheet, m.footerDirty = latency.New(m.st, m.keys, done, pending, note), true
		m.modals.Push(m.modal.sheet)
		return nil, true
	case reportcard.OpenMsg:
		v, cmd := reportcard.Open(reportcard.Source{Ex: m.ex, Journal: m.journal(), Store: m.store, Now: m.clock}, m.st, m.keys, msg)
		m.sheet, m.footerDirty = v, true
		m.modals.Push(m.modal.sheet)
		return cmd, true
	case reportcard.LoadedMsg:
		if m.sheet != nil {
			return m.sheet.Update(msg), true
		}
		return nil, true
	}
	return nil, false
}

// sheetKey is the open sheet's key.
func (m *Model) sheetKey(msg tea.KeyMsg) tea.Cmd {
	cmd, closed := m.sheet.Key(msg)
	if closed {
		m.sheet, m.footerDirty = nil, true
	}
	return cmd
}

// journal is the executor's journal (nil without one).
func (m *Model) journal() *journal.Journal {
	if m.exec == nil {
		return nil
	}
	return m.exec.Journal()
}
