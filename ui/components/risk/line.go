// Package risk is the trading state's side of the console: the status line's word on it, read
// from the executor's engine (the record every executor of the account enforces) at most every
// Every, and the report the account pane shows (account.RiskMsg). The root feeds it values: the
// engine, the account as the store holds it (AccountOf), the feed whose clock times a kept-back
// read.
package risk

import (
	"context"
	"encoding/json"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	rules "github.com/tradedesk/tradedesk/state/risk"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Every is how often, at most, the trading state is read again: it changes as the account's
// data arrives (a loss limit reached), at an order's check, or by tradedesk risk halt from
// another process on the same journal.
const Every = 2 * time.Second

// Msg is the trading state in the status line's words (Text, "" when ACTIVE) and the report the
// account pane shows (nil when the read failed).
type Msg struct {
	Text   string
	Report *rules.Report
}

// TickMsg asks for the read a change within Every of the last one was kept back for.
type TickMsg struct{}

// Line is the status line's word on the trading state and when it was last read.
type Line struct {
	text string
	// shown is the report last shown (its JSON): a read that brings the same words and report
	// changes nothing on screen.
	shown string
	at    time.Time
	// later: a read is due at at+Every (a change came within Every of the last); armed: its
	// TickMsg is on its way.
	later, armed bool
}

// Text is the trading state in the status line's words ("" when ACTIVE or not read yet).
func (l *Line) Text() string { return l.text }

// slack is how early before Every a change is read rather than kept back: the stream's data
// comes once a market step, so the step's change about Every after the last read brings the
// read, in the wake-up the step makes, not a timer of its own a few milliseconds off it.
const slack = Every / 10

// KeptBack is when a change kept back is read, after the last read, if no change reads it first.
const KeptBack = Every + slack

// Due says whether the trading state is to be read now (at most every Every, less slack): true
// marks it read at now. A change within Every of the last read is kept back, not dropped: the
// command returned then sends TickMsg on f's one timer when Every and slack have passed (nil
// when one is already on its way), unless a change read before (the stream's next step, about
// Every later) cancels it: the command returned with true, if any, does (issue #34: the timer
// woke the idle console every 2 s with a position open, to find the step had read it).
func (l *Line) Due(now time.Time, f *feed.Feed) (tea.Cmd, bool) {
	if l.soon(now) {
		l.later = true
		return l.arm(now, f), false
	}
	l.at, l.later = now, false
	return l.disarm(f), true
}

// soon says whether now is within Every, less slack, of the last read.
func (l *Line) soon(now time.Time) bool {
	return !l.at.IsZero() && now.Sub(l.at) < Every-slack && !now.Before(l.at)
}

// arm is the timer of a kept-back read, Every and slack after the last one: the next change
// due about Every after it comes first and reads (nil when one is on its way).
func (l *Line) arm(now time.Time, f *feed.Feed) tea.Cmd {
	if l.armed {
		return nil
	}
	l.armed = true
	return common.Tea(f.AfterFor(l, KeptBack-now.Sub(l.at), TickMsg{}))
}

// disarm cancels the kept-back read's timer: a change read first (nil when none is on its way).
func (l *Line) disarm(f *feed.Feed) tea.Cmd {
	if !l.armed {
		return nil
	}
	l.armed = false
	return common.Tea(f.Cancel(l))
}

// Mark says the trading state was read at at (a `:risk` command reads it with its answer);
// the zero time makes the next Due read at once.
func (l *Line) Mark(at time.Time) { l.at = at }

// Tick is TickMsg's arrival: it says whether the read kept back is due now (false when a change
// since has read it).
func (l *Line) Tick() bool {
	l.armed = false
	if !l.later {
		return false
	}
	l.later, l.at = false, time.Time{}
	return true
}

// Show takes a read's words for the status line and returns its report for the account pane
// (nil when none was read), and whether the words or the report differ from the last shown: an
// idle account's read every Every brings the same ones, and then nothing is drawn again.
func (l *Line) Show(msg Msg) (*rules.Report, bool) {
	shown := ""
	if msg.Report != nil {
		b, err := json.Marshal(msg.Report)
		if err != nil {
			return msg.Report, true // not compared: shown as a change
		}
		shown = string(b)
	}
	changed := msg.Text != l.text || shown != l.shown
	l.text, l.shown = msg.Text, shown
	return msg.Report, changed
}

// Read reads the trading state and each limit's use from eng off the drawing goroutine: with
// the account (acct, nil until it has loaded: AccountOf) observed, so a loss limit the account
// reaches trips REDUCING with no order tried.
func Read(eng *rules.Engine, acct *rules.Account) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return Words(observe(ctx, eng, acct))
	}
}

// observe is the engine's report, the account observed when it is known.
func observe(ctx context.Context, eng *rules.Engine, acct *rules.Account) (rules.Report, error) {
	if acct != nil {
		return eng.Observe(ctx, *acct)
	}
	return eng.Report(ctx, nil)
}

// Words is the message of a report read (or the error that stopped it).
func Words(rep rules.Report, err error) Msg {
	switch {
	case err != nil:
		return Msg{Text: "state unknown: " + text.Clean(err.Error())}
	case rep.State == rules.Active:
		return Msg{Report: &rep}
	}
	return Msg{Text: string(rep.State) + " (" + text.Clean(rep.Why) + ")", Report: &rep}
}

// AccountOf is the account as store holds it, for the engine to observe; nil until the account
// and the positions have loaded (an empty account would set the day's marks at zero).
func AccountOf(store *state.Store) *rules.Account {
	if !store.Freshness(state.KindAccount).Loaded() || !store.Freshness(state.KindPositions).Loaded() {
		return nil
	}
	a := rules.AccountOf(store.Account(), store.Positions(), len(store.Orders()))
	return &a
}
