package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/dialogs/leverage"
)

// openLeverage opens the leverage dialog on a perpetual (positions pane: L; order form: ctrl+l).
// A read-only console says why it cannot; an agent key cannot sign it either.
func (m *Model) openLeverage(symbol string) tea.Cmd {
	switch {
	case m.c.ReadOnly != "":
		m.setNotice(common.LevelWarn, "read-only: leverage cannot be changed ("+m.c.ReadOnly+")")
		return nil
	case m.ex.IsAgent():
		m.setNotice(common.LevelWarn, "leverage is set with the account's own key: an agent key only places and cancels orders")
		return nil
	case m.dialog != nil:
		return nil
	}
	if in, ok := m.store.Instrument(symbol); !ok || in.Spot {
		m.setNotice(common.LevelWarn, symbol+" has no leverage to set (spot, or not a known instrument)")
		return nil
	}
	m.lev = leverage.New(m.st, m.keys, m.store, symbol, m.width)
	m.footerDirty = true
	return nil
}

// onLeverageDone closes the dialog and sends the change through the pipeline.
func (m *Model) onLeverageDone(msg leverage.DoneMsg) tea.Cmd {
	m.lev = nil
	m.footerDirty = true
	if msg.Act == nil {
		return nil
	}
	return m.onAction(msg.Act)
}
