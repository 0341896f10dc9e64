package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/components/latency"
	"github.com/tradedesk/tradedesk/ui/components/reportcard"
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
		v, cmd := reportcard.Open(reportcard.Source{Ex: m.ex, Journal: m.journal(), Store: m.store, Now: m.clock}, m.st, m.keys, msg)
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

// journal is the executor's journal (nil without one).
func (m *Model) journal() *journal.Journal {
	if m.exec == nil {
		return nil
	}
	return m.exec.Journal()
}
