package ui

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
	"github.com/tradedesk/tradedesk/ui/components/live"
)

// liveSession marks the Algos view's rows of a shadow console's live session.
const liveSession = "LIVE"

// liveRunner is the runner of a shadow console's live session (nil without one): algos.Runner
// over the live exchange and executor (the live journal, the live key), its rows marked LIVE on
// the console's Algos feed f.
func liveRunner(l LiveRoute, f *algos.Feed) *algos.Runner {
	if l.Exec == nil || l.Ex == nil {
		return nil
	}
	r := algos.NewRunner(l.Ex, l.Exec)
	r.Feed, r.Session = f, liveSession
	return r
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

// liveAlgoMsg is a paper algorithm's journal entry, read for the send_live key.
type liveAlgoMsg struct {
	a   journal.Algo
	err error
}

// sendLiveAlgo is the send_live key on the Algos view of a shadow console: the selected paper
// algorithm's parameters are read from the shadow journal (liveAlgoMsg), then confirmed as a
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
		return func() tea.Msg {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			a, found, err := j.GetAlgo(ctx, r.ID)
			if err == nil && !found {
				err = fmt.Errorf("algorithm %s is not in the shadow journal", r.ID)
			}
			return liveAlgoMsg{a: a, err: err}
		}
	}
	return nil
}

// liveCommand is the command that starts paper algorithm a again: its kind, instrument, side,
// size and options (a scale's band and rungs' count, a trail's distance), never its id, children
// or arrival; a chase's end is its rehearsed duration from now.
func liveCommand(a journal.Algo) (state.AlgoCommand, error) {
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

// onLiveAlgo opens the live confirmation of a paper algorithm read from the shadow journal: its
// title says LIVE, it takes a typed yes, and its start runs the algorithm on the live session's
// runner with the live executor (never the shadow's).
func (m *Model) onLiveAlgo(msg liveAlgoMsg) tea.Cmd {
	c, err := liveCommand(msg.a)
	if msg.err != nil {
		err = msg.err
	}
	var inst state.Instrument
	if err == nil {
		inst, err = m.store.ResolveInstrument(c.Instrument)
	}
	var lines []string
	var start algos.Start
	if err == nil {
		lines, start, err = m.liveAlgos.Plan(c, inst, algos.QuoteOf(m.store, inst.Name), m.st)
	}
	if err != nil {
		m.setNotice(common.LevelError, "not sent live: "+text.Clean(err.Error()))
		return nil
	}
	what := "LIVE " + algos.What(c, inst)
	var said string
	a := &action.Action{Kind: action.KindPlace, Title: live.Title + " · Start " + c.Kind + " · LIVE " + strings.ToUpper(m.live.Network),
		What: what, Confirm: true, Typed: "yes", Lane: action.LaneOrder, Who: journal.WhoForm,
		Lines: append([]string{m.st.Warn.On("! LIVE: a new " + c.Kind + " signed with the live key, sent to " + strings.ToUpper(m.live.Network) +
			", journaled in the live journal;"), m.st.Warn.On("  the rehearsal " + text.Clean(msg.a.ID) + " keeps running on paper"), "",
			m.st.Bold.On(strings.ToUpper(what)), ""}, lines...)}
	live := m.live.Exec
	a.Run = func(ctx context.Context, _ *exec.Executor, _ exec.Ask) (action.Outcome, error) {
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
	return tea.Batch(m.onAction(a), m.algoPane.Watch())
}
