package ui

import (
	"context"
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

// journalMsg is what the executor's Recover found at start: the intents an earlier run left open.
type journalMsg struct {
	found []exec.Found
	err   error
}

// useExecutor takes the executor every order and cancel goes through. The console checks an
// order with its own guard and hands it on as passed (exec.Passed), so an executor that guards
// other limits is refused, and nothing is signed.
func (m *Model) useExecutor(e *exec.Executor, g state.Guard) {
	if e == nil {
		return
	}
	if !exec.SameLimits(e.Guard(), g) {
		m.setNotice(common.LevelError, "nothing can be signed: the journal's executor guards other limits than the console's [guard]")
		return
	}
	m.exec = e
}

// recoverJournal settles, before anything is sent, what an earlier run left in the journal
// (exec.Executor.Recover); the status line says meanwhile how many it looks up.
func (m *Model) recoverJournal() tea.Cmd {
	e := m.exec
	if e == nil {
		return nil
	}
	if open, err := e.Journal().Unresolved(context.Background()); err == nil && len(open) > 0 {
		m.setNotice(common.LevelWarn, fmt.Sprintf("journal: %s left from the last run: looking %s up before anything is sent…",
			state.Count(len(open), "intent"), map[bool]string{true: "it", false: "them"}[len(open) == 1]))
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), action.ExecBound)
		defer cancel()
		found, err := e.Recover(ctx)
		return journalMsg{found: found, err: err}
	}
}

// onJournal says what Recover found, one line each in the messages view, the last in the
// status line; nothing when the journal was clean. Then it looks at the algorithms an earlier
// run left (algos.Runner.LeftRunning): after, not beside, the journal's recovery, since both
// settle the open intents and only the first to run would say what it found.
func (m *Model) onJournal(msg journalMsg) tea.Cmd {
	for _, f := range msg.found {
		level := common.LevelInfo
		if !f.Result.Settled() {
			level = common.LevelError
		}
		m.setNotice(level, foundText(f))
	}
	if msg.err != nil {
		m.setNotice(common.LevelError, "journal: what the last run left could not be settled ("+common.PlainError(msg.err)+"): orders are not sent until it is")
	}
	return m.algos.LeftRunning()
}

// foundText is one intent an earlier run left, and what became of it: "journal: place left from
// the last run (buy 0.1 BTC-PERP @ 97,000.0): filled 0.1 at 97,000 avg".
func foundText(f exec.Found) string {
	r := f.Result
	what := f.Entry.Intent.What
	if what == "" {
		what = f.Entry.Intent.ID
	}
	parts := []string{r.Kind.String()}
	if r.Outcome.Oid > 0 {
		parts[0] += fmt.Sprintf(", order %d", r.Outcome.Oid)
	}
	if d := r.Detail(); d != "" {
		parts = append(parts, d)
	}
	return fmt.Sprintf("journal: %s left from the last run (%s): %s", f.Entry.Intent.Kind, what, strings.Join(parts, ": "))
}
