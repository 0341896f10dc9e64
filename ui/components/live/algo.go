package live

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/algos"
)

// Session marks the Algos view's rows of a shadow console's live session.
const Session = "LIVE"

// Runner is the runner of the live session (nil without one): algos.Runner over the live
// exchange and executor (the live journal, the live key), its rows marked LIVE (Session) on the
// Algos feed of the console's runner own, its words naming own's keys.
func (r Route) Runner(own *algos.Runner) *algos.Runner {
	if r.Exec == nil || r.Ex == nil {
		return nil
	}
	run := algos.NewRunner(r.Ex, r.Exec)
	run.Feed, run.Session, run.Keys = own.Feed, Session, own.Keys
	return run
}

// AlgoMsg is a paper algorithm's journal entry, read for the send_live key (ReadAlgo).
type AlgoMsg struct {
	a   journal.Algo
	err error
}

// ReadAlgo reads paper algorithm id's entry from the shadow journal j off the drawing goroutine
// (AlgoMsg), for Route.AlgoAction.
func ReadAlgo(j *journal.Journal, id string) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		a, found, err := j.GetAlgo(ctx, id)
		if err == nil && !found {
			err = fmt.Errorf("algorithm %s is not in the shadow journal", id)
		}
		return AlgoMsg{a: a, err: err}
	}
}

// Command is the command that starts paper algorithm a again: its kind, instrument, side, size
// and options (a scale's band and rungs' count, a trail's distance), never its id, children or
// arrival; a chase's end is its rehearsed duration from now.
func Command(a journal.Algo) (state.AlgoCommand, error) {
	switch a.Kind {
	case "chase":
		var p algo.ChaseParams
		if err := json.Unmarshal(a.Params, &p); err != nil {
			return state.AlgoCommand{}, fmt.Errorf("chase %s: its parameters: %w", a.ID, err)
		}
		c := state.AlgoCommand{Kind: a.Kind, Instrument: p.Instrument, Side: p.Side, Size: p.Size, Offset: p.Offset,
			MaxDistance: p.MaxDistance, Keep: p.Keep}
		if !p.Until.IsZero() {
			c.For = max(p.Until.Sub(a.Created).Round(time.Second), time.Second)
		}
		return c, nil
	case "twap":
		var p algo.TWAPParams
		if err := json.Unmarshal(a.Params, &p); err != nil {
			return state.AlgoCommand{}, fmt.Errorf("twap %s: its parameters: %w", a.ID, err)
		}
		return state.AlgoCommand{Kind: a.Kind, Instrument: p.Instrument, Side: p.Side, Size: p.Size, Duration: p.Duration,
			Slices: p.Slices, BandLo: p.BandLo, BandHi: p.BandHi, Random: p.Randomize}, nil
	case "scale":
		var p algo.ScaleParams
		if err := json.Unmarshal(a.Params, &p); err != nil {
			return state.AlgoCommand{}, fmt.Errorf("scale %s: its parameters: %w", a.ID, err)
		}
		return state.AlgoCommand{Kind: a.Kind, Instrument: p.Instrument, Side: p.Side, Size: p.Size, From: p.From, To: p.To,
			Count: p.Count, Distribution: p.Distribution}, nil
	case "trail":
		var p algo.TrailParams
		if err := json.Unmarshal(a.Params, &p); err != nil {
			return state.AlgoCommand{}, fmt.Errorf("trail %s: its parameters: %w", a.ID, err)
		}
		return state.AlgoCommand{Kind: a.Kind, Instrument: p.Instrument, Distance: p.Distance}, nil
	}
	return state.AlgoCommand{}, fmt.Errorf("%s %s: not an algorithm kind this console knows", text.Clean(a.Kind), text.Clean(a.ID))
}

// AlgoAction is the live confirmation of the paper algorithm msg read: its title says LIVE, it
// takes a typed yes, and its start runs the algorithm on the live session's runner (run) with
// the live executor (never the shadow's). The error says why it cannot be sent live.
func (r Route) AlgoAction(msg AlgoMsg, run *algos.Runner, store *state.Store, st *common.Styles) (*action.Action, error) {
	c, err := Command(msg.a)
	if msg.err != nil {
		err = msg.err
	}
	var inst state.Instrument
	if err == nil {
		inst, err = store.ResolveInstrument(c.Instrument)
	}
	var lines []string
	var start algos.Start
	if err == nil {
		lines, start, err = run.Plan(c, inst, algos.QuoteOf(store, inst.Name), st)
	}
	if err != nil {
		return nil, err
	}
	what := "LIVE " + algos.What(c, inst)
	var said string
	net := strings.ToUpper(r.Network)
	a := &action.Action{Kind: action.KindPlace, Title: Title + " · Start " + c.Kind + " · LIVE " + net,
		What: what, Confirm: true, Typed: "yes", Lane: action.LaneOrder, Who: journal.WhoForm,
		Lines: append([]string{st.Warn.On("! LIVE: a new " + c.Kind + " signed with the live key, sent to " + net +
			", journaled in the live journal;"), st.Warn.On("  the rehearsal " + text.Clean(msg.a.ID) + " keeps running on paper"), "",
			st.Bold.On(strings.ToUpper(what)), ""}, lines...)}
	live := r.Exec
	a.Run = func(ctx context.Context, _ action.Executor, _ exec.Ask) (action.Outcome, error) {
		s, err := start(ctx, live) // never the shadow's executor: its journal and key are paper
		said = s
		return action.Outcome{}, err
	}
	a.Read = func(d action.DoneMsg) (string, bool) {
		if d.Err != nil {
			return what + " not started: " + common.PlainError(d.Err), true
		}
		return "LIVE " + said, false
	}
	return a, nil
}
