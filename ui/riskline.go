package ui

import (
	"context"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/risk"
)

// riskEvery is how often the status line reads the trading state again: it changes at an order's
// check, or by tradedesk risk halt from another process on the same journal.
const riskEvery = 2 * time.Second

// riskBanner is the trading state when it is not ACTIVE, with why ("HALTED (why)"), read from the
// executor's journal (the record every executor of the account enforces); "" when ACTIVE or
// without an executor.
func (s *statusBar) riskBanner(m *Model) string {
	if m.exec == nil {
		return ""
	}
	if now := time.Now(); !s.riskAt.IsZero() && now.Sub(s.riskAt) < riskEvery && !now.Before(s.riskAt) {
		return s.risk
	}
	s.riskAt = time.Now()
	st, why, err := m.exec.Risk().State(context.Background())
	switch {
	case err != nil:
		s.risk = "state unknown: " + text.Clean(err.Error())
	case st == risk.Active:
		s.risk = ""
	default:
		s.risk = string(st) + " (" + text.Clean(why) + ")"
	}
	return s.risk
}
