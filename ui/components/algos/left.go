package algos

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/guard"
	"github.com/tradedesk/tradedesk/ui/common"
)

// LeftMsg is what the start found of the algorithms an earlier run left running: each one's row
// (surveyed, waiting for the trader's choice, or settled by the config's [on_restart]) and the
// notice that names them.
type LeftMsg struct {
	Rows   []Row
	Notice common.NoticeMsg
}

// LeftRunning is the start's look at the algorithms an earlier run left running. First the
// executor settles the journal's open intents (every child left unresolved is looked up by its
// client id) before anything is sent; then each one whose kind the config's [on_restart] names is
// resumed, cancelled or flattened as it says, and every other is surveyed (what it filled, its
// average, its working order: algo.Survey, nothing sent) and listed in the Algos view as left,
// for the trader to choose r, s or f (`:algos resume|cancel|flatten ID`). With a guard running for
// the account they are the guard's: nothing is done here.
func (r *Runner) LeftRunning() tea.Cmd {
	if r.exec == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if _, err := r.exec.Recover(ctx); err != nil {
			return LeftMsg{Notice: common.NoticeMsg{Level: common.LevelError, Text: "journal: " + text.Clean(err.Error())}}
		}
		run, err := r.exec.Journal().Algos(ctx, true)
		if err != nil || len(run) == 0 || r.guardRuns(ctx) {
			return nil
		}
		var rows []Row
		var asked, settled []string
		for _, a := range run {
			if choice := r.OnRestart[a.Kind]; choice != "" {
				rows = append(rows, r.RestartNow(ctx, a.ID, choice))
				settled = append(settled, a.Kind+" "+a.ID+": "+choice)
				continue
			}
			p, _ := algo.Survey(ctx, r.Deps(r.exec, new(time.Time)), a)
			rows = append(rows, Row{Progress: p, Created: a.Created})
			asked = append(asked, a.Kind+" "+a.ID)
		}
		return LeftMsg{Rows: rows, Notice: r.leftNotice(asked, settled)}
	}
}

// guardRuns reports whether a guard runs for the console's account.
func (r *Runner) guardRuns(ctx context.Context) bool {
	if r.GuardDir == "" {
		return false
	}
	mine, _, err := guard.Find(ctx, r.GuardDir, r.ex.Address())
	return err == nil && mine.Path != ""
}

// leftNotice says what the start did with the algorithms an earlier run left (settled, by the
// config) and which wait for the trader's choice (asked), with the Algos view's keys for it.
func (r *Runner) leftNotice(asked, settled []string) common.NoticeMsg {
	var parts []string
	if len(settled) > 0 {
		parts = append(parts, "by the config's [on_restart]: "+strings.Join(settled, ", "))
	}
	if len(asked) > 0 {
		parts = append(parts, fmt.Sprintf("%d algorithm(s) left running by an earlier run: %s; in the Algos view %s resumes one, "+
			"%s cancels its orders, %s also closes what it opened (:algos resume|cancel|flatten ID)", len(asked), strings.Join(asked, ", "),
			r.keyName(algoResume), r.keyName(algoStop), r.keyName(algoFlatten)))
	}
	return common.NoticeMsg{Level: common.LevelWarn, Text: text.Clean(strings.Join(parts, "; "))}
}
