package ui

import (
	"context"
	tea "github.com/charmbracelet/bubbletea"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/risk"
)

// riskEvery is how often, at most, the trading state is read again: it changes at an order's
// check, or by tradedesk risk halt from another process on the same journal.
const riskEvery = 2 * time.Second

// riskMsg is the trading state in the status line's words ("" when ACTIVE).
type riskMsg struct{ text string }

// readRisk reads the trading state from the executor's journal (the record every executor of the
// account enforces) off the drawing goroutine, at most every riskEvery: at start, after an action
// settles and when account or position data changed. nil without an executor.
func (m *Model) readRisk() tea.Cmd {
	if m.exec == nil {
		return nil
	}
	now := time.Now()
	if at := m.status.riskAt; !at.IsZero() && now.Sub(at) < riskEvery && !now.Before(at) {
		return nil
	}
	m.status.riskAt = now
	r := m.exec.Risk()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		st, why, err := r.State(ctx)
		switch {
		case err != nil:
			return riskMsg{"state unknown: " + text.Clean(err.Error())}
		case st == risk.Active:
			return riskMsg{}
		}
		return riskMsg{string(st) + " (" + text.Clean(why) + ")"}
	}
}
