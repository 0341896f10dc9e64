package ui

import (
	"fmt"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

// The kill switch is one key that works from anywhere in the console, even while typing in a form:
// it asks to cancel every open order on every instrument, and Enter confirms. Cancels are safe to
// repeat: when a cancel fails or its answer is lost, the console asks the exchange what is still
// open and says that in plain words, so cancelling an order that is already gone reads as
// harmless rather than as an error.

// killSwitch asks to cancel every open order (confirmed); in read-only mode it says why it
// cancels nothing.
func (m *Model) killSwitch() tea.Cmd {
	if m.c.ReadOnly != "" {
		m.setNotice(common.LevelWarn, "kill switch: nothing cancelled: this console is read-only ("+m.c.ReadOnly+")")
		return nil
	}
	orders := m.store.Orders()
	n := len(orders)
	sc := m.store.CancelScope(orders)
	lines := []string{m.st.Bold.On(fmt.Sprintf("Cancel EVERY open order on every instrument (%d shown), trigger orders included.", n))}
	if takes := sc.Takes(); takes != "" {
		lines = append(lines, m.st.Warn.On("! This takes "+takes+"."))
	}
	lines = append(lines, "Positions stay open: close them from the positions pane.", "Cancelling is safe to repeat.")
	if f := m.store.Freshness(state.KindOrders); f.Stale || !f.Loaded() {
		lines = append(lines, m.st.Warn.On("! The open orders shown may be out of date: every order the exchange holds is cancelled."))
	}
	return m.onAction(action.NewCancelAll("KILL SWITCH", "kill switch: cancel "+action.AllOf(n, "open order"), lines))
}
