package algos

import (
	"context"
	"encoding/json"
	"regexp"
	"sync/atomic"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/journal"
)

// Row is one algorithm as the pane shows it: its progress, when its time runs out (zero: no
// limit), and whether this console runs it.
type Row struct {
	algo.Progress
	Until time.Time
	Live  bool
	// Journal says the row is known only from the journal (an earlier run's): its fills are in
	// Detail, not in Filled.
	Journal bool
	// Created orders the list (newest first after those running).
	Created time.Time
	// Session names the session whose runner runs it when not the console's own ("LIVE": a
	// shadow console's live session, Runner.Session).
	Session string
}

// ProgressMsg is an algorithm's progress reaching the model from the goroutine running it.
type ProgressMsg struct{ Row Row }

// HistoryMsg is the journal's algorithms, read at start and after each one ends.
type HistoryMsg struct {
	Algos []journal.Algo
	Err   error
}

// Feed carries the algorithms' progress from the goroutines that run them to the pane: each
// running algorithm reports on a channel the model waits on (one wait out at a time, and none
// once nothing runs and nothing is queued, so an idle console has no command waiting).
type Feed struct {
	ch   chan Row
	live atomic.Int32
}

// NewFeed is an empty feed.
func NewFeed() *Feed { return &Feed{ch: make(chan Row, 1024)} }

// Begin counts one more algorithm running; End (with its last progress) counts it out.
func (f *Feed) Begin() { f.live.Add(1) }

// Report queues a running algorithm's progress (from its goroutine).
func (f *Feed) Report(r Row) { f.ch <- r }

// End queues an algorithm's last progress and counts it out: counted out first, so the wait
// that takes this row sees whether anything still runs.
func (f *Feed) End(r Row) {
	f.live.Add(-1)
	f.ch <- r
}

// pending reports whether a wait would get something: a row queued or an algorithm running.
func (f *Feed) pending() bool { return f.live.Load() > 0 || len(f.ch) > 0 }

// wait is the command that takes the next row.
func (f *Feed) wait() tea.Msg { return ProgressMsg{Row: <-f.ch} }

// history reads the journal's algorithms.
func history(j *journal.Journal) tea.Cmd {
	if j == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		all, err := j.Algos(ctx, false)
		return HistoryMsg{Algos: all, Err: err}
	}
}

// paramsOf is what every algorithm's journal parameters say of its side, size, instrument and
// arrival price.
type paramsOf struct {
	Instrument string          `json:"instrument"`
	Side       string          `json:"side"`
	Size       decimal.Decimal `json:"size"`
	Until      time.Time       `json:"until"`
	Arrival    decimal.Decimal `json:"arrival"`
}

// summaryRe reads the fills an ended algorithm's journal detail states (algo's summary: "filled
// X of Y at A avg, fee F"), so the history shows them.
var summaryRe = regexp.MustCompile(`^filled (-?[0-9.]+) of -?[0-9.]+(?: at (-?[0-9.]+) avg, fee (-?[0-9.]+))?`)

// journalRow is a row for an algorithm known only from the journal: an ended one's fills are
// read from its detail; a running one's are not known here ("?").
func journalRow(a journal.Algo) Row {
	var p paramsOf
	_ = json.Unmarshal(a.Params, &p)
	r := Row{Progress: algo.Progress{ID: a.ID, Kind: a.Kind, Instrument: p.Instrument, Side: p.Side, Target: p.Size, Arrival: p.Arrival,
		Children: a.Children, State: a.State, Detail: a.Detail}, Until: p.Until, Created: a.Created, Journal: true}
	if m := summaryRe.FindStringSubmatch(a.Detail); m != nil && a.State != journal.AlgoRunning {
		r.Filled, _ = decimal.NewFromString(m[1])
		r.AvgPrice, _ = decimal.NewFromString(m[2])
		r.Fee, _ = decimal.NewFromString(m[3])
		r.Journal = false
	}
	return r
}
