package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/risk"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	riskline "github.com/tradedesk/tradedesk/ui/components/risk"
)

// riskDoneMsg is what a `:risk` command did: the notice to show and the report read after it.
type riskDoneMsg struct {
	notice string
	failed bool
	read   riskline.Msg
}

// riskCommand is the console's `:risk`, as the headless `tradedesk risk` is: the state and each
// limit's use, halt, resume (refused while a loss limit has tripped), and one limit set (a
// loosening pending for the delay). It acts on the executor's engine off the drawing goroutine.
func (m *Model) riskCommand(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case riskDoneMsg:
		level := common.LevelInfo
		if msg.failed {
			level = common.LevelError
		}
		m.setNotice(level, msg.notice)
		m.status.risk.Mark(time.Now())
		cmd, _ := m.onRiskMsg(msg.read)
		return cmd, true
	case cmdline.RiskMsg:
		if m.exec == nil {
			return common.Notice(common.LevelError, "risk: no executor in this console (read-only): tradedesk risk reads the journal"), true
		}
		eng, acct := m.exec.Risk(), riskline.AccountOf(m.store)
		return func() tea.Msg { return runRiskCommand(eng, acct, msg) }, true
	}
	return nil, false
}

// runRiskCommand does msg on eng and reads the report after it.
func runRiskCommand(eng *risk.Engine, acct *risk.Account, msg cmdline.RiskMsg) riskDoneMsg {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var err error
	said := ""
	switch msg.Verb {
	case "halt":
		err, said = eng.Halt(ctx, text.Clean(msg.Why)), "halted: only cancels until :risk resume · "
	case "resume":
		err, said = eng.Resume(ctx), "resumed · "
	case "set":
		var now bool
		var at time.Time
		now, at, err = eng.SetLimit(ctx, msg.Name, msg.Value)
		said = msg.Name + " = " + msg.Value.String() + " in force · "
		if !now {
			said = msg.Name + " = " + msg.Value.String() + " is a loosening: pending until " + at.UTC().Format("15:04:05") + " UTC · "
		}
	}
	if err != nil {
		return riskDoneMsg{notice: "risk " + msg.Verb + ": " + text.Clean(err.Error()), failed: true, read: riskline.Words(eng.Report(ctx, nil))}
	}
	var rep risk.Report
	if acct != nil {
		rep, err = eng.Observe(ctx, *acct)
	} else {
		rep, err = eng.Report(ctx, nil)
	}
	read := riskline.Words(rep, err)
	if err != nil {
		return riskDoneMsg{notice: "risk: " + read.Text, failed: true, read: read}
	}
	return riskDoneMsg{notice: "risk: " + said + text.Clean(rep.Line()), read: read}
}
