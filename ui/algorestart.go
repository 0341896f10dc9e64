package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/algos"
)

// leftRunning is the notice, at start, naming the algorithms an earlier run left running and the
// commands that settle them ("" when there are none).
func (r *algoRunner) leftRunning() tea.Cmd {
	j := r.journal()
	if j == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		run, err := j.Algos(ctx, true)
		if err != nil || len(run) == 0 {
			return nil
		}
		names := make([]string, len(run))
		for i, a := range run {
			names[i] = a.Kind + " " + a.ID
		}
		return common.NoticeMsg{Level: common.LevelWarn, Text: fmt.Sprintf("%d algorithm(s) left running by an earlier run: %s; "+
			":algos resume ID goes on, :algos cancel ID cancels its orders", len(run), text.Clean(strings.Join(names, ", ")))}
	}
}

// restartAlgo applies `:algos resume|cancel ID` to an algorithm an earlier run left running: a
// resumed one runs here to its end; a cancelled one has its children cancelled.
func (m *Model) restartAlgo(c state.AlgoCommand) tea.Cmd {
	r := m.algos
	if r.exec == nil || m.c.ReadOnly != "" {
		return common.Notice(common.LevelWarn, "read-only: :algos "+c.Choice+" not done")
	}
	r.feed.Begin()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		var until time.Time
		d := r.deps(r.exec, &until)
		row := algos.Row{Progress: algo.Progress{ID: c.ID, Kind: "?", State: algo.StateFailed}}
		a, found, err := d.Journal.GetAlgo(ctx, c.ID)
		switch {
		case err != nil:
			row.Detail = err.Error()
		case !found || a.State != journal.AlgoRunning:
			row.Detail = "no algorithm " + c.ID + " left running: :algos lists none by that id"
		default:
			rn, p, err := algo.Restart(ctx, d, a, c.Choice)
			row = algos.Row{Progress: p}
			if err != nil {
				row.State, row.Detail = algo.StateFailed, err.Error()
			} else if rn != nil {
				r.run(rn, p, until)
			}
		}
		r.feed.End(row)
	}()
	return tea.Batch(common.Notice(common.LevelInfo, ":algos "+c.Choice+" "+text.Clean(c.ID)+"…"), m.algoPane.Watch())
}
