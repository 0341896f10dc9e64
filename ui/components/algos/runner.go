package algos

import (
	"context"
	"fmt"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state/report"
	"sync"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Runner runs the console's algorithms (issue #36): each on a goroutine of its own with the
// console's executor, its progress reaching the Algos view through the view's Feed. Every
// algorithm shares one set of throttles (algo.Limits).
type Runner struct {
	ex     api.Exchange
	Feed   *Feed // the view's feed of rows
	limits *algo.Limits
	Now    func() time.Time // the clock deadlines and progress read (tests step it)

	// OnRestart is the config's [on_restart] choice per kind, applied at start (LeftRunning) to
	// the algorithms an earlier run left running; the rest wait for the trader's choice.
	OnRestart map[string]string
	// GuardDir is the guards' socket directory: with a guard running for the account, the
	// algorithms running in the journal are the guard's, and the start leaves them to it.
	GuardDir string
	// Session marks every row this runner reports ("" for the console's own; "LIVE" for the
	// live session of a shadow console, whose algorithms share the view's feed).
	Session string
	// Keys are the console's keys, which the runner's words name (keyName); nil: they name the
	// keys' actions.
	Keys *common.KeyMap

	mu      sync.Mutex
	cancels map[string]context.CancelFunc // the running algorithms, by id
	exec    *exec.Executor
	remote  remoteState        // the attached guard (Attach)
	market  *algo.StreamMarket // the algorithms' children's stores, on the tape once Streamed
	tape    *algo.Tape         // the console's stream, as the algorithms read it (nil: they poll)
}

// Streamed hands the runner the console's stream: while it is up the algorithms read their
// quotes and their children's records and fills from it (algo.Tape) rather than polling. The
// console's feed drains the stream and hands each record to Put. Call it before any algorithm
// runs.
func (r *Runner) Streamed(st *api.Stream) {
	r.tape = algo.NewTape(st.Status)
	r.market.Tape = r.tape
}

// Tape is the console's stream as the algorithms read it (nil: no stream, they poll).
func (r *Runner) Tape() *algo.Tape { return r.tape }

// Put hands the algorithms a record the console's stream brought (a nil runner, or one without
// the stream, drops it).
func (r *Runner) Put(ev api.StreamEvent) {
	if r != nil && r.tape != nil {
		r.tape.Put(ev)
	}
}

// NewRunner is the runner of the console on exchange ex with executor x (nil: read-only).
func NewRunner(ex api.Exchange, x *exec.Executor) *Runner {
	return &Runner{ex: ex, market: &algo.StreamMarket{Ex: ex}, Feed: NewFeed(), limits: &algo.Limits{}, Now: time.Now, cancels: map[string]context.CancelFunc{}, exec: x}
}

// Journal is the executor's journal (nil when the console has no executor).
func (r *Runner) Journal() *journal.Journal {
	if r.exec == nil {
		return nil
	}
	return r.exec.Journal()
}

// Deps are an algorithm's dependencies with executor e; its progress is reported with until.
func (r *Runner) Deps(e *exec.Executor, until *time.Time) *algo.Deps {
	return &algo.Deps{Exec: e, Journal: e.Journal(), Market: r.market, Read: r.ex, Account: r.ex.Address(),
		Now: r.Now, Limits: r.limits, Tape: r.tape, Ended: report.Keeper(r.ex, e.Journal(), r.Now), Report: func(p algo.Progress) {
			if p.Live() {
				r.Feed.Report(Row{Progress: p, Until: *until, Live: true, Session: r.Session})
			}
		}}
}

// Run runs rn to its end on its own goroutine: stop (by id) cancels its context.
func (r *Runner) Run(rn algo.Runner, first algo.Progress, until time.Time) {
	ctx, cancel := context.WithCancel(context.Background())
	r.mu.Lock()
	r.cancels[rn.ID()] = cancel
	r.mu.Unlock()
	r.Feed.Begin()
	r.Feed.Report(Row{Progress: first, Until: until, Live: true, Session: r.Session})
	go func() {
		defer cancel()
		p, err := rn.Run(ctx)
		r.mu.Lock()
		delete(r.cancels, rn.ID())
		r.mu.Unlock()
		r.Feed.End(Row{Progress: algo.EndOf(p, err), Until: until, Session: r.Session})
	}()
}

// Stop stops algorithm id: a running one is told to stop (its child cancelled as it ends); one
// this console does not run has its open children cancelled as one (a scale's rungs).
func (r *Runner) Stop(id string, live bool) {
	r.mu.Lock()
	cancel, ok := r.cancels[id]
	r.mu.Unlock()
	if ok {
		cancel()
		return
	}
	if to := r.inGuard(id); to != nil {
		r.stopInGuard(to, id)
		return
	}
	if r.exec == nil {
		return
	}
	r.Feed.Begin()
	go func() {
		ctx, cancelCtx := context.WithTimeout(context.Background(), time.Minute)
		defer cancelCtx()
		d := r.Deps(r.exec, new(time.Time))
		row := Row{Progress: algo.Progress{ID: id, State: algo.StateStopped}}
		if a, found, err := d.Journal.GetAlgo(ctx, id); err == nil && found {
			row = JournalRowOf(a)
		}
		n, err := algo.CancelGroup(ctx, d, id)
		row.State, row.Detail, row.Session = algo.StateStopped, fmt.Sprintf("stopped: %d open order(s) cancelled", n), r.Session
		if err != nil {
			row.Detail += "; " + err.Error()
		} else {
			_ = d.Journal.SetAlgo(ctx, id, algo.StateStopped, row.Detail)
		}
		r.Feed.End(row)
	}()
}

// JournalRowOf is a row naming a journal's algorithm (its kind and id; its fills are in Detail).
func JournalRowOf(a journal.Algo) Row {
	return Row{Progress: algo.Progress{ID: a.ID, Kind: a.Kind, State: a.State, Detail: a.Detail, Children: a.Children}, Created: a.Created}
}

// ScaleRow is a placed scale's row: its rungs resting.
func ScaleRow(p algo.ScaleParams, res algo.ScaleResult) Row {
	placed := 0
	for _, o := range res.Batch.Orders {
		if o.Outcome.Oid != 0 {
			placed++
		}
	}
	var sum decimal.Decimal
	for _, rg := range res.Rungs {
		sum = sum.Add(rg.Size)
	}
	return Row{Progress: algo.Progress{ID: res.ID, Kind: "scale", Instrument: p.Instrument, Side: p.Side, Target: sum,
		Children: len(res.Rungs), State: algo.StateDone,
		Detail: fmt.Sprintf("%d of %d rungs placed, %s to %s", placed, len(res.Rungs), p.From, p.To)}}
}

// Restart applies resume, cancel or flatten (choice) to the algorithm id an earlier run left
// running or paused, on a goroutine of its own: a resumed one runs here to its end, a cancelled
// one has its children cancelled; its row tells the view. False when the console has no executor
// (read-only).
func (r *Runner) Restart(id, choice string) bool {
	if r.exec == nil {
		return false
	}
	r.Feed.Begin()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		r.Feed.End(r.RestartNow(ctx, id, choice))
	}()
	return true
}

// RestartNow is Restart on the caller's goroutine: it returns the algorithm's row (a resumed one
// goes on running here). The caller feeds the row to the view.
func (r *Runner) RestartNow(ctx context.Context, id, choice string) Row {
	var until time.Time
	d := r.Deps(r.exec, &until)
	row := Row{Progress: algo.Progress{ID: id, Kind: "?", State: algo.StateFailed}}
	a, found, err := d.Journal.GetAlgo(ctx, id)
	switch {
	case r.inGuard(id) != nil:
		row = r.guardRow(id)
	case err != nil:
		row.Detail = err.Error()
	case r.Runs(id):
		row = Row{Progress: algo.Progress{ID: id, Kind: a.Kind, State: a.State, Detail: "this console runs it: " +
			r.keyName(algoStop) + " stops it, " + r.keyName(algoPause) + " pauses it"}, Live: true}
	case !found || a.State != journal.AlgoRunning && a.State != algo.StatePaused:
		row.Detail = "no algorithm " + id + " left running or paused: the Algos view lists none by that id"
	default:
		rn, p, err := algo.Restart(ctx, d, a, choice)
		row = Row{Progress: p}
		if err != nil {
			row.State, row.Detail = algo.StateFailed, err.Error()
		} else if rn != nil {
			r.Run(rn, p, until)
			row.Live = true
		}
	}
	return row
}

// Runs reports whether this console, or its attached guard, runs algorithm id now.
func (r *Runner) Runs(id string) bool {
	r.mu.Lock()
	_, ok := r.cancels[id]
	r.mu.Unlock()
	return ok || r.inGuard(id) != nil
}

// Switch pauses or resumes (verb) algorithm id in the journal: the process running it, this
// console or another, sees it at its next look. The command's message is a notice.
func (r *Runner) Switch(id, verb string) tea.Cmd {
	j := r.Journal()
	to := r.inGuard(id)
	if j == nil && to == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		do, said := algo.Pause, "pausing "+id+": its working order is cancelled, nothing more is sent until resumed"
		if verb == "resume" {
			do, said = algo.Resume, "resuming "+id
		}
		if to != nil { // the guard runs it: it pauses it in its journal
			do = func(ctx context.Context, _ *journal.Journal, id string) error { return to.Switch(ctx, id, verb) }
			said += " (in the guard)"
		}
		if err := do(ctx, j, id); err != nil {
			return common.NoticeMsg{Level: common.LevelError, Text: text.Clean(err.Error())}
		}
		return common.NoticeMsg{Level: common.LevelInfo, Text: text.Clean(said)}
	}
}
