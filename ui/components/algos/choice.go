package algos

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// Step is what a choice (pause, resume, cancel, flatten) does to an algorithm (StepOf).
type Step int

const (
	// StepRestart resumes or cancels one an earlier run left, by the restart rule
	// (Runner.Restart).
	StepRestart Step = iota
	// StepSwitch pauses or resumes it in the journal (Runner.Switch): the process running it
	// sees it at its next look.
	StepSwitch
	// StepStop stops one this console runs (Runner.Stop).
	StepStop
	// StepRefuse refuses to flatten one this console runs: the stop key stops it.
	StepRefuse
	// StepFlatten flattens one an earlier run left, after the confirmation a market order gets
	// (Runner.FlattenAction).
	StepFlatten
)

// StepOf is what choice does to an algorithm; runs says this console runs it. A pause is always
// the journal's; a resume is the journal's while it runs here, else the restart rule's.
func StepOf(choice string, runs bool) Step {
	switch {
	case choice == "pause", choice == "resume" && runs:
		return StepSwitch
	case choice == "cancel" && runs:
		return StepStop
	case choice == "flatten" && runs:
		return StepRefuse
	case choice == "flatten":
		return StepFlatten
	}
	return StepRestart
}

// RunnerOf is the runner that runs algorithm id: the live session's (session, nil: none) while
// it runs it there, else the console's own (own).
func RunnerOf(own, session *Runner, id string) *Runner {
	if session != nil && session.Runs(id) {
		return session
	}
	return own
}

// Choose applies `:algos CHOICE ID` and the Algos view's keys (c) for the console whose runner
// is r, beside its live session's runner session (nil: none), by StepOf on the runner that runs
// the algorithm (RunnerOf). readOnly says why the console cannot trade ("": it can); watch is
// the view's wait on the feed (Pane.Watch), called after a stop or a restart, which the view
// then shows.
func (r *Runner) Choose(session *Runner, c ChoiceMsg, readOnly string, st *common.Styles, watch func() tea.Cmd) tea.Cmd {
	if readOnly != "" || r.Journal() == nil {
		return common.Notice(common.LevelWarn, "read-only: :algos "+c.Choice+" not done")
	}
	run := RunnerOf(r, session, c.ID)
	switch StepOf(c.Choice, run.Runs(c.ID)) {
	case StepSwitch:
		return run.Switch(c.ID, c.Choice)
	case StepStop:
		run.Stop(c.ID, true)
		return tea.Batch(common.Notice(common.LevelInfo, "stopping "+text.Clean(c.ID)+"…"), watch())
	case StepRefuse:
		return common.Notice(common.LevelError, "this console runs "+text.Clean(c.ID)+": flatten is for an algorithm an earlier run left; "+run.keyName(algoStop)+" stops it")
	case StepFlatten:
		return action.Request(r.FlattenAction(c.ID, st))
	}
	r.Restart(c.ID, c.Choice)
	return tea.Batch(common.Notice(common.LevelInfo, ":algos "+c.Choice+" "+text.Clean(c.ID)+"…"), watch())
}

// Preview previews algorithm command c (Plan, on the instrument and quote store holds) through
// the confirmation a market order takes; its Enter starts the algorithm on its own goroutine. A
// command it cannot plan is a notice saying why.
func (r *Runner) Preview(c state.AlgoCommand, store *state.Store, st *common.Styles) tea.Cmd {
	inst, err := store.ResolveInstrument(c.Instrument)
	if err != nil {
		return common.Notice(common.LevelError, cmdline.NotSent+text.Clean(err.Error()))
	}
	lines, start, err := r.Plan(c, inst, QuoteOf(store, inst.Name), st)
	if err != nil {
		return common.Notice(common.LevelError, cmdline.NotSent+text.Clean(err.Error()))
	}
	return action.Request(StartAction(c, inst, lines, start, st))
}

// The Algos view's keys the runner's words name, with their actions' names (keyName).
var (
	algoStop    = keyOf{"algo_stop", func(k *common.KeyMap) key.Binding { return k.AlgoStop }}
	algoPause   = keyOf{"algo_pause", func(k *common.KeyMap) key.Binding { return k.AlgoPause }}
	algoResume  = keyOf{"algo_resume", func(k *common.KeyMap) key.Binding { return k.AlgoResume }}
	algoFlatten = keyOf{"algo_flatten", func(k *common.KeyMap) key.Binding { return k.AlgoFlatten }}
)

// keyOf is a key the runner's words name: its action's name in the config's [keys], and its
// binding in a key map.
type keyOf struct {
	action  string
	binding func(*common.KeyMap) key.Binding
}

// keyName is how the runner's words name key k: its first key in r.Keys ("s"), or without a
// key map its action ("the algo_stop key").
func (r *Runner) keyName(k keyOf) string {
	if r.Keys == nil {
		return "the " + k.action + " key"
	}
	return common.KeyName(k.binding(r.Keys))
}
