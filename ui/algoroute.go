package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/algos"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/components/live"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

// onAlgoMsg routes the algorithms' messages: a command line's algorithm command, and the Algos
// view's progress and journal reads (to every pane).
func (m *Model) onAlgoMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case cmdline.AlgoMsg:
		return m.startAlgo(msg.Cmd), true
	case orderentry.AlgoMsg:
		return m.startAlgo(msg.Cmd), true
	case algos.ChoiceMsg:
		return m.restartAlgo(state.AlgoCommand{Kind: "algos", Choice: msg.Choice, ID: msg.ID}), true
	case algos.ProgressMsg:
		return tea.Batch(m.broadcast(msg), algos.Failed(msg.Row)), true
	case algos.HistoryMsg, algos.LeftMsg:
		return m.broadcast(msg), true
	case live.AlgoMsg:
		return m.onLiveAlgo(msg), true
	}
	return nil, false
}

// startAlgo previews an algorithm command (algos.Runner.Plan) through the confirmation a market
// order takes; its Enter starts the algorithm on its own goroutine.
func (m *Model) startAlgo(c state.AlgoCommand) tea.Cmd {
	if c.Kind == "algos" {
		return m.restartAlgo(c)
	}
	inst, err := m.store.ResolveInstrument(c.Instrument)
	if err != nil {
		return common.Notice(common.LevelError, cmdline.NotSent+text.Clean(err.Error()))
	}
	lines, start, err := m.algos.Plan(c, inst, algos.QuoteOf(m.store, inst.Name), m.st)
	if err != nil {
		return common.Notice(common.LevelError, cmdline.NotSent+text.Clean(err.Error()))
	}
	return action.Request(algos.StartAction(c, inst, lines, start, m.st))
}

// restartAlgo applies `:algos CHOICE ID` (and the Algos view's keys): pause or resume one this
// console runs (the journal's pause, seen at its next look); cancel one it runs stops it; an
// earlier run's is resumed, cancelled or flattened by the restart rule (algos.Runner.Restart),
// flatten after the confirmation a market order gets (algos.Runner.FlattenAction). The Algos
// view shows what became of it.
func (m *Model) restartAlgo(c state.AlgoCommand) tea.Cmd {
	if m.c.ReadOnly != "" || m.algos.Journal() == nil {
		return common.Notice(common.LevelWarn, "read-only: :algos "+c.Choice+" not done")
	}
	r := m.runnerOf(c.ID)
	live := r.Runs(c.ID)
	switch {
	case c.Choice == "pause", c.Choice == "resume" && live:
		return r.Switch(c.ID, c.Choice)
	case c.Choice == "cancel" && live:
		r.Stop(c.ID, true)
		return tea.Batch(common.Notice(common.LevelInfo, "stopping "+text.Clean(c.ID)+"…"), m.algoPane.Watch())
	case c.Choice == "flatten" && live:
		return common.Notice(common.LevelError, "this console runs "+text.Clean(c.ID)+": flatten is for an algorithm an earlier run left; s stops it")
	case c.Choice == "flatten":
		return action.Request(m.algos.FlattenAction(c.ID, m.st))
	}
	m.algos.Restart(c.ID, c.Choice)
	return tea.Batch(common.Notice(common.LevelInfo, ":algos "+c.Choice+" "+text.Clean(c.ID)+"…"), m.algoPane.Watch())
}

// runnerOf is the runner that runs algorithm id: the live session's while it runs it there,
// else the console's own.
func (m *Model) runnerOf(id string) *algos.Runner {
	if m.liveAlgos != nil && m.liveAlgos.Runs(id) {
		return m.liveAlgos
	}
	return m.algos
}

// stopAlgo is the Algos view's stop key: it goes to the runner that runs the algorithm.
func (m *Model) stopAlgo(id string, live bool) { m.runnerOf(id).Stop(id, live) }

// sendLiveAlgo is the send_live key on the Algos view of a shadow console: the selected paper
// algorithm's parameters are read from the shadow journal (live.ReadAlgo), then confirmed as a
// new algorithm of the live session (onLiveAlgo).
func (m *Model) sendLiveAlgo(p *algos.Pane) tea.Cmd {
	rows, i := p.Rows(), p.Selected()
	if i < 0 || i >= len(rows) {
		m.setNotice(common.LevelWarn, "select a paper algorithm to send it live")
		return nil
	}
	r := rows[i]
	j := m.algos.Journal()
	switch {
	case r.Session != "":
		m.setNotice(common.LevelNote, r.Kind+" "+text.Clean(r.ID)+" already runs live")
	case m.liveAlgos == nil:
		m.setNotice(common.LevelWarn, m.live.NoKey())
	case j == nil:
		m.setNotice(common.LevelWarn, "not sent live: the shadow session has no journal to read the algorithm's parameters from")
	default:
		return live.ReadAlgo(j, r.ID)
	}
	return nil
}

// onLiveAlgo opens the live confirmation of a paper algorithm read from the shadow journal
// (live.Route.AlgoAction), or says why it cannot be sent live.
func (m *Model) onLiveAlgo(msg live.AlgoMsg) tea.Cmd {
	a, err := m.live.AlgoAction(msg, m.liveAlgos, m.store, m.st)
	if err != nil {
		m.setNotice(common.LevelError, "not sent live: "+text.Clean(err.Error()))
		return nil
	}
	return tea.Batch(m.onAction(a), m.algoPane.Watch())
}
