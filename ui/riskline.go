package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/risk"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/account"
)

// riskEvery is how often, at most, the trading state is read again: it changes as the account's
// data arrives (a loss limit reached), at an order's check, or by tradedesk risk halt from
// another process on the same journal.
const riskEvery = 2 * time.Second

// riskMsg is the trading state in the status line's words ("" when ACTIVE) and the report the
// account pane shows.
type riskMsg struct {
	text   string
	report *risk.Report
}

// riskTickMsg asks for the read a change within riskEvery of the last one was kept back for.
type riskTickMsg struct{}

// readRisk reads the trading state and each limit's use from the executor's engine (the record
// every executor of the account enforces) off the drawing goroutine, at most every riskEvery: at
// start, after an action settles and as the engine applies account, position, order or fill
// data (Model.onFeed), so a loss limit the account reaches trips REDUCING and shows on the status
// line with no order tried. A change within riskEvery of the last read is read riskEvery after
// it, not dropped. nil without an executor.
func (m *Model) readRisk() tea.Cmd {
	if m.exec == nil {
		return nil
	}
	now := time.Now()
	if at := m.status.riskAt; !at.IsZero() && now.Sub(at) < riskEvery && !now.Before(at) {
		if m.status.riskLater {
			return nil
		}
		m.status.riskLater = true
		return common.Tea(m.feed.After(riskEvery-now.Sub(at), riskTickMsg{}))
	}
	m.status.riskAt = now
	eng, acct := m.exec.Risk(), m.riskAccount()
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var rep risk.Report
		var err error
		if acct != nil {
			rep, err = eng.Observe(ctx, *acct)
		} else {
			rep, err = eng.Report(ctx, nil)
		}
		return riskRead(rep, err)
	}
}

// riskRead is the message of a report read (or the error that stopped it).
func riskRead(rep risk.Report, err error) riskMsg {
	switch {
	case err != nil:
		return riskMsg{text: "state unknown: " + text.Clean(err.Error())}
	case rep.State == risk.Active:
		return riskMsg{report: &rep}
	}
	return riskMsg{text: string(rep.State) + " (" + text.Clean(rep.Why) + ")", report: &rep}
}

// riskAccount is the account as the store holds it, for the engine to observe; nil until the
// account and the positions have loaded (an empty account would set the day's marks at zero).
func (m *Model) riskAccount() *risk.Account {
	if !m.store.Freshness(state.KindAccount).Loaded() || !m.store.Freshness(state.KindPositions).Loaded() {
		return nil
	}
	a := risk.AccountOf(m.store.Account(), m.store.Positions(), len(m.store.Orders()))
	return &a
}

// onRiskMsg handles the trading state's messages and the `:risk` command.
func (m *Model) onRiskMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case riskTickMsg:
		m.status.riskLater, m.status.riskAt = false, time.Time{}
		return m.readRisk(), true
	case riskMsg:
		m.status.risk = msg.text
		if msg.report == nil {
			return nil, true
		}
		return m.broadcast(account.RiskMsg{Report: *msg.report}), true
	}
	return m.riskCommand(msg)
}
