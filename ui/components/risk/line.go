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
	// later: a read is due at at+Every (a change came within Every of the last).
	later bool
}

// Text is the trading state in the status line's words ("" when ACTIVE or not read yet).
func (l *Line) Text() string { return l.text }

// Due says whether the trading state is to be read now (at most every Every): true marks it
// read at now. A change within Every of the last read is kept back, not dropped: the command
// returned then sends TickMsg on f's clock when Every has passed (nil when one is already due).
func (l *Line) Due(now time.Time, f *feed.Feed) (tea.Cmd, bool) {
	if at := l.at; !at.IsZero() && now.Sub(at) < Every && !now.Before(at) {
		if l.later {
			return nil, false
		}
		l.later = true
		return common.Tea(f.After(Every-now.Sub(at), TickMsg{})), false
	}
	l.at = now
	return nil, true
}

// Mark says the trading state was read at at (a `:risk` command reads it with its answer);
// the zero time makes the next Due read at once.
func (l *Line) Mark(at time.Time) { l.at = at }

// Tick is TickMsg's arrival: the read kept back is due now.
func (l *Line) Tick() { l.later, l.at = false, time.Time{} }

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
