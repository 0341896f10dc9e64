package risk

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api/text"
	rules "github.com/tradedesk/tradedesk/state/risk"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// DoneMsg is what a `:risk` command did: the notice to show (Failed: as an error) and the
// report read after it.
type DoneMsg struct {
	Notice string
	Failed bool
	Read   Msg
}

// Command is the console's `:risk`, as the headless `tradedesk risk` is: the state and each
// limit's use, halt, resume (refused while a loss limit has tripped), and one limit set (a
// loosening pending for the delay). It acts on eng off the drawing goroutine and reads the
// report after it (acct observed, as Read does), sent as DoneMsg.
func Command(eng *rules.Engine, acct *rules.Account, msg cmdline.RiskMsg) tea.Cmd {
	return func() tea.Msg { return run(eng, acct, msg) }
}

// run does msg on eng and reads the report after it.
func run(eng *rules.Engine, acct *rules.Account, msg cmdline.RiskMsg) DoneMsg {
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
		return DoneMsg{Notice: "risk " + msg.Verb + ": " + text.Clean(err.Error()), Failed: true, Read: Words(eng.Report(ctx, nil))}
	}
	rep, err := observe(ctx, eng, acct)
	read := Words(rep, err)
	if err != nil {
		return DoneMsg{Notice: "risk: " + read.Text, Failed: true, Read: read}
	}
	return DoneMsg{Notice: "risk: " + said + text.Clean(rep.Line()), Read: read}
}
