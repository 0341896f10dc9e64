// Package algos is the Activity group's Algos view (issue #36): every algorithm the console runs
// and every one in the journal, running first, then the finished ones newest first, each with its
// kind, side, filled / target, the average fill and its slippage from the arrival price in basis
// points, the working child and its price, the reprices or slices done, the time left and its
// state. The stop key stops the selected one: a running chase or TWAP is stopped (its child
// cancelled), a scale's resting rungs are cancelled as one. The algorithms run on goroutines of
// their own (ui's runner); their progress reaches the pane through a Feed the model waits on.
package algos

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/reportcard"
)

// Columns.
const (
	cKind = iota
	cSide
	cInstrument
	cFilled
	cAvg
	cSlip
	cWorking
	cSteps
	cLeft
	cState
)

// Stopper stops algorithm id: live says this console runs it. It starts the stop and returns
// at once (the stop's progress comes through the Feed).
type Stopper func(id string, live bool)

// Pane is the Algos view.
type Pane struct {
	*common.Common
	feed    *Feed
	journal *journal.Journal
	stop    Stopper
	tbl     *common.Table
	byID    map[string]*Row
	rows    []*Row
	waiting bool // a wait on the feed is out
	note    string
	w, h    int
}

// New is the Algos view of the algorithms fed through f and those in journal j (nil: none);
// stop stops one.
func New(c *common.Common, f *Feed, j *journal.Journal, stop Stopper) *Pane {
	p := &Pane{Common: c, feed: f, journal: j, stop: stop, byID: map[string]*Row{}}
	p.tbl = common.NewTable(c.Styles, []common.Column{
		common.Col("Algo", 5, false, 0), common.Col("Side", 4, false, 0), common.Col("Instrument", 10, false, 1),
		common.Col("Filled/Target", 15, true, 0), common.Col("Avg", 11, true, 2), common.Col("Slip bp/ticks", 14, true, 2),
		common.Col("Working", 12, true, 1), common.Col("Steps", 5, true, 3), common.Col("Left", 6, true, 2),
		common.Col("State", 9, false, 0),
	}, p.cell)
	p.tbl.Empty = "no algorithms: start one with :chase, :twap, :scale or :trail"
	return p
}

// Title implements common.Pane.
func (p *Pane) Title() string { return "Algos (" + strconv.Itoa(len(p.rows)) + ")" }

// SetSize implements common.Pane; the last line is the selected algorithm's detail.
func (p *Pane) SetSize(w, h int) {
	p.w, p.h = w, h
	p.tbl.SetSize(w, max(h-1, 1))
}

// SetFocused implements common.Pane.
func (p *Pane) SetFocused(f bool) { p.tbl.SetFocused(f) }

// Rows are the algorithms shown, in order.
func (p *Pane) Rows() []Row {
	out := make([]Row, len(p.rows))
	for i, r := range p.rows {
		out[i] = *r
	}
	return out
}

// Selected is the index in Rows of the selected algorithm (-1: none).
func (p *Pane) Selected() int { return p.tbl.Selected() }

// Watch is the wait on the feed, when something runs or is queued and no wait is out.
func (p *Pane) Watch() tea.Cmd {
	if p.waiting || !p.feed.pending() {
		return nil
	}
	p.waiting = true
	return p.feed.wait
}

// Update implements common.Pane.
func (p *Pane) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.StartPanesMsg:
		return tea.Batch(history(p.journal), p.Watch())
	case action.SettledMsg:
		return p.Watch()
	case ProgressMsg:
		p.waiting = false
		p.upsert(msg.Row)
		var h tea.Cmd
		if msg.Row.State != journal.AlgoRunning {
			h = history(p.journal)
		}
		return tea.Batch(h, p.Watch())
	case LeftMsg:
		for _, r := range msg.Rows {
			p.upsert(r)
		}
		var note tea.Cmd
		if msg.Notice.Text != "" {
			note = common.Notice(msg.Notice.Level, msg.Notice.Text)
		}
		return tea.Batch(note, history(p.journal), p.Watch())
	case HistoryMsg:
		if msg.Err != nil {
			p.note = "journal: " + common.PlainError(msg.Err)
		}
		for _, a := range msg.Algos {
			if _, ok := p.byID[a.ID]; !ok {
				r := journalRow(a)
				p.byID[a.ID] = &r
			} else if a.State != journal.AlgoRunning && !p.byID[a.ID].Live {
				p.byID[a.ID].State, p.byID[a.ID].Detail = a.State, a.Detail
			}
			if r := p.byID[a.ID]; r.Created.IsZero() {
				r.Created = a.Created
			}
		}
		p.order()
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, p.Keys.AlgoStop):
			return p.stopSelected()
		case key.Matches(msg, p.Keys.AlgoPause, p.Keys.AlgoResume, p.Keys.AlgoFlatten):
			return p.choose(msg)
		}
		if i := p.tbl.Selected(); key.Matches(msg, p.Keys.Pick) && i >= 0 && i < len(p.rows) {
			return reportcard.OpenAlgo(p.rows[i].ID, p.rows[i].Kind) // issue #41
		}
		p.tbl.Navigate(p.Keys, msg)
	}
	return nil
}

// ChoiceMsg asks the root to apply a choice (pause, resume, cancel, flatten) to algorithm ID,
// as `:algos CHOICE ID` does.
type ChoiceMsg struct{ ID, Choice string }

// left reports whether the row is an algorithm an earlier run left running or paused (this
// console does not run it).
func (r *Row) left() bool {
	return !r.Live && (r.State == journal.AlgoRunning || r.State == algo.StatePaused)
}

// choose is the pause, resume and flatten keys on the selected algorithm.
func (p *Pane) choose(msg tea.KeyMsg) tea.Cmd {
	i := p.tbl.Selected()
	if i < 0 || i >= len(p.rows) {
		return nil
	}
	r := p.rows[i]
	ask := func(choice string) tea.Cmd {
		return tea.Batch(func() tea.Msg { return ChoiceMsg{ID: r.ID, Choice: choice} }, p.Watch())
	}
	k := p.Keys
	switch {
	case key.Matches(msg, k.AlgoPause) && r.State == journal.AlgoRunning && r.Kind != "scale":
		return ask("pause")
	case key.Matches(msg, k.AlgoPause, k.AlgoResume) && (r.State == algo.StatePaused || r.left()):
		return ask("resume")
	case key.Matches(msg, k.AlgoFlatten) && r.left():
		return ask("flatten")
	case key.Matches(msg, k.AlgoFlatten):
		return common.Notice(common.LevelNote, "flatten is for an algorithm an earlier run left: "+common.KeyName(k.AlgoStop)+" stops this one")
	}
	return common.Notice(common.LevelNote, r.Kind+" "+text.Clean(r.ID)+" is "+r.State+": nothing to pause or resume")
}

// upsert takes an algorithm's progress.
func (p *Pane) upsert(r Row) {
	old, ok := p.byID[r.ID]
	if ok {
		if r.Created.IsZero() {
			r.Created = old.Created
		}
		if r.Until.IsZero() {
			r.Until = old.Until
		}
	}
	if r.Created.IsZero() {
		r.Created = p.Clock()
	}
	p.byID[r.ID] = &r
	p.order()
}

// order sorts the rows: running first, then newest first.
func (p *Pane) order() {
	p.rows = p.rows[:0]
	for _, r := range p.byID {
		p.rows = append(p.rows, r)
	}
	sort.SliceStable(p.rows, func(i, j int) bool {
		a, b := p.rows[i], p.rows[j]
		if ra, rb := a.Progress.Live(), b.Progress.Live(); ra != rb {
			return ra
		}
		if !a.Created.Equal(b.Created) {
			return a.Created.After(b.Created)
		}
		return a.ID > b.ID
	})
	p.tbl.SetRows(len(p.rows))
	p.tbl.Invalidate()
}

// stopSelected stops the selected algorithm.
func (p *Pane) stopSelected() tea.Cmd {
	i := p.tbl.Selected()
	if i < 0 || i >= len(p.rows) || p.stop == nil {
		return nil
	}
	r := p.rows[i]
	if !r.Live && r.State != journal.AlgoRunning && r.State != algo.StatePaused && r.Kind != "scale" {
		return common.Notice(common.LevelNote, r.Kind+" "+text.Clean(r.ID)+" is "+r.State+": nothing to stop")
	}
	if r.left() && r.Kind != "scale" {
		// An earlier run's: its children cancelled by the restart rule (what filled kept).
		return tea.Batch(func() tea.Msg { return ChoiceMsg{ID: r.ID, Choice: "cancel"} }, p.Watch())
	}
	p.stop(r.ID, r.Live)
	return tea.Batch(common.Notice(common.LevelInfo, "stopping "+r.Kind+" "+text.Clean(r.ID)+"…"), p.Watch())
}

func (p *Pane) cell(row, col int) (string, common.Paint) {
	r := p.rows[row]
	st := p.Styles
	in, known := p.Store.Instrument(r.Instrument)
	switch col {
	case cKind:
		if r.Session != "" {
			return strings.ToUpper(r.Kind), st.Danger // another session's (LIVE): its kind in capitals
		}
		return r.Kind, st.Bold
	case cSide:
		if r.Side == "" {
			return "-", st.Muted
		}
		return r.Side, common.SidePaint(st, map[string]string{"buy": "b", "sell": "s"}[r.Side])
	case cInstrument:
		return text.Clean(r.Instrument), st.Text
	case cFilled:
		switch {
		case !r.Target.IsPositive():
			return "-", st.Muted
		case r.Journal:
			return "?/" + r.Target.String(), st.Muted // an earlier run's: its detail says what filled
		}
		return r.Filled.String() + "/" + r.Target.String(), st.Text
	case cAvg:
		if !r.Filled.IsPositive() {
			return "-", st.Muted
		}
		if known {
			return common.FmtNum(r.AvgPrice, in.PriceDecimals()+1), st.Text
		}
		return r.AvgPrice.Round(8).String(), st.Text
	case cSlip:
		return p.slipCell(r, in, known)
	case cWorking:
		if r.WorkingPrice == nil {
			return "-", st.Muted
		}
		if known {
			return common.FmtNum(*r.WorkingPrice, in.PriceDecimals()), st.Accent
		}
		return r.WorkingPrice.String(), st.Accent
	case cSteps:
		return strconv.Itoa(max(r.Reprices, r.Slices)), st.Text
	case cLeft:
		return p.left(r), st.Muted
	case cState:
		if r.left() && r.State == journal.AlgoRunning {
			return "left", st.Warn // an earlier run's, waiting for the trader's choice
		}
		return r.State, p.statePaint(r.State)
	}
	return "", common.Paint{}
}

// slipCell is the slippage column: bp from the arrival, and ticks when the instrument is known.
func (p *Pane) slipCell(r *Row, in state.Instrument, known bool) (string, common.Paint) {
	if !r.Filled.IsPositive() || !r.Arrival.IsPositive() {
		return "-", p.Styles.Muted
	}
	bp := r.SlippageBp()
	txt := bp.StringFixed(1)
	if known && in.TickSize.IsPositive() {
		txt += " " + r.SlippageTicks(in.TickSize).StringFixed(1) + "t"
	}
	return txt, common.SignPaint(p.Styles, bp.Neg())
}

// left is the time left of a running algorithm with an end ("-" otherwise).
func (p *Pane) left(r *Row) string {
	if !r.Live || r.State != journal.AlgoRunning || r.Until.IsZero() {
		return "-"
	}
	d := max(time.Until(r.Until), 0).Round(time.Second)
	return d.String()
}

func (p *Pane) statePaint(s string) common.Paint {
	switch s {
	case journal.AlgoRunning:
		return p.Styles.Accent
	case "done":
		return p.Styles.Good
	case "failed":
		return p.Styles.Danger
	}
	return p.Styles.Muted
}

// View implements common.Pane: the table above the selected algorithm's id and detail.
func (p *Pane) View() string {
	lines := p.tbl.Lines(make([]string, 0, p.h))
	return strings.Join(append(lines, p.status()), "\n")
}

func (p *Pane) status() string {
	s := p.note
	if i := p.tbl.Selected(); i >= 0 && i < len(p.rows) {
		r := *p.rows[i]
		s = r.ID
		if r.Detail != "" {
			s += ": " + r.Detail
		}
		s = p.hints(&r) + s
		if r.Session != "" {
			s = r.Session + " · " + s
		}
	}
	return p.Styles.Muted.On(common.Pad(text.Clean(s), p.w))
}

// hints are the keys that act on row r, for the line under the list.
func (p *Pane) hints(r *Row) string {
	k := p.Keys
	switch {
	case r.left():
		return common.KeyName(k.AlgoResume) + " resumes · " + common.KeyName(k.AlgoStop) + " cancels its orders · " +
			common.KeyName(k.AlgoFlatten) + " flattens · "
	case r.State == algo.StatePaused:
		return common.KeyName(k.AlgoPause) + " resumes · " + common.KeyName(k.AlgoStop) + " stops · "
	case r.State == journal.AlgoRunning && r.Kind != "scale":
		return common.KeyName(k.AlgoStop) + " stops · " + common.KeyName(k.AlgoPause) + " pauses · "
	case r.Kind == "scale":
		return common.KeyName(k.AlgoStop) + " cancels its rungs · "
	}
	return ""
}

// Kinds implements common.KindsShower: none, the pane's data is its own.
func (p *Pane) Kinds() []state.Kind { return nil }

// ShortHelp implements common.Pane.
func (p *Pane) ShortHelp() []key.Binding {
	return []key.Binding{p.Keys.AlgoStop, p.Keys.AlgoPause, p.Keys.AlgoResume, p.Keys.AlgoFlatten, p.Keys.Up, p.Keys.Down}
}

// FullHelp implements common.Pane.
func (p *Pane) FullHelp() [][]key.Binding {
	return [][]key.Binding{{p.Keys.AlgoStop, p.Keys.AlgoPause, p.Keys.AlgoResume, p.Keys.AlgoFlatten, reportcard.Key(p.Keys)}}
}
