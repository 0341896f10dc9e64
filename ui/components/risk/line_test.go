package risk

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/state/journal"
	rules "github.com/tradedesk/tradedesk/state/risk"
)

// fire hands the feed's timer messages to it and returns what they deliver.
func fire(f *feed.Feed, due []feed.Message) []feed.Message {
	var out []feed.Message
	var run func(feed.Cmd)
	run = func(c feed.Cmd) {
		if c == nil {
			return
		}
		switch m := c().(type) {
		case nil:
		case feed.BatchMsg:
			for _, c := range m {
				run(c)
			}
		default:
			out = append(out, m)
		}
	}
	for _, m := range due {
		if fm, ok := m.(feed.Msg); ok {
			run(f.Update(fm).Cmd)
		} else {
			out = append(out, m)
		}
	}
	return out
}

// TestAChangeWithinEveryIsKeptBackNotDropped: the first read is due at once; one asked for
// within Every of it is kept back, a TickMsg timed Every and slack after the read (one timer
// however many are asked for); the tick makes the next read due.
func TestAChangeWithinEveryIsKeptBackNotDropped(t *testing.T) {
	start := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	clock := feed.NewFakeClock(start)
	f := feed.New(clock, time.Second, time.Minute)
	var l Line
	if _, due := l.Due(start, f); !due {
		t.Fatal("the first read is not due")
	}
	clock.Advance(time.Second / 2)
	for _, at := range []time.Duration{time.Second / 2, time.Second} {
		if _, due := l.Due(start.Add(at), f); due {
			t.Fatalf("a read %s after the last is due", at)
		}
	}
	if clock.Pending() != 1 {
		t.Fatalf("%d timers for the kept-back read, want 1", clock.Pending())
	}
	msgs := fire(f, clock.Advance(Every+slack-time.Second/2-time.Millisecond))
	if len(msgs) != 0 {
		t.Fatalf("the tick came early: %v", msgs)
	}
	if msgs = fire(f, clock.Advance(time.Millisecond)); len(msgs) != 1 || msgs[0] != (TickMsg{}) {
		t.Fatalf("at Every and slack the timer sent %v", msgs)
	}
	if !l.Tick() {
		t.Fatal("the tick of a kept-back read says none is due")
	}
	if _, due := l.Due(start.Add(Every+slack), f); !due {
		t.Fatal("after the tick the read is not due")
	}
	l.Mark(time.Time{})
	if _, due := l.Due(start.Add(Every+slack+time.Second/2), f); !due {
		t.Fatal("after Mark(zero) the read is not due at once")
	}
}

// TestReadObservesTheAccount: with max_daily_loss = 100 USD, a read with the account observes it
// (the day's marks, then a loss of 150 trips REDUCING and the status line says why); a read with
// no account (not loaded yet) only reports; a failed read says the state is unknown.
func TestReadObservesTheAccount(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	eng := newEngine(t, rules.Limits{rules.DailyLoss: decimal.NewFromInt(100)}, func() time.Time { return now })
	var l Line
	read := func(acct *rules.Account) Msg {
		msg, ok := Read(eng, acct)().(Msg)
		if !ok {
			t.Fatalf("Read sent %T", msg)
		}
		if rep, _ := l.Show(msg); rep == nil || l.Text() != msg.Text {
			t.Fatalf("read %+v: report %v, line %q", msg, rep, l.Text())
		}
		return msg
	}
	if m := read(&rules.Account{Equity: decimal.NewFromInt(1000)}); m.Text != "" || m.Report.State != rules.Active {
		t.Fatalf("the day's first read: %+v", m)
	}
	if m := read(nil); m.Text != "" {
		t.Fatalf("a read without the account: %+v", m)
	}
	m := read(&rules.Account{Equity: decimal.NewFromInt(850), Upnl: decimal.NewFromInt(-150)})
	if m.Report.State != rules.Reducing || !strings.HasPrefix(m.Text, "REDUCING (the day's loss 150.00 USD reached max_daily_loss") {
		t.Fatalf("a loss of 150 against 100: %+v %q", m.Report, m.Text)
	}
	if w := Words(rules.Report{}, errors.New("journal closed\x1b[2J")); w.Report != nil || !strings.HasPrefix(w.Text, "state unknown: journal closed") || strings.Contains(w.Text, "\x1b") {
		t.Fatalf("a failed read: %+v", w)
	}
}

// newEngine is a risk engine with limits on a journal on disk.
func newEngine(t *testing.T, limits rules.Limits, now func() time.Time) *rules.Engine {
	t.Helper()
	j, err := journal.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	eng, err := rules.New(context.Background(), j, limits, now)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// TestTheSameReadShowsNoChange (issue #34): an idle account's read every Every brings the same
// words and report; Show says so, so the root draws nothing for it. A limit's use that moved,
// or the words, is a change.
func TestTheSameReadShowsNoChange(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	eng := newEngine(t, rules.Limits{rules.Drawdown: decimal.NewFromInt(500)}, func() time.Time { return now })
	acct := rules.Account{Equity: decimal.NewFromInt(1000), Upnl: decimal.NewFromInt(10)}
	var l Line
	show := func(acct rules.Account) bool {
		msg := Read(eng, &acct)().(Msg)
		rep, changed := l.Show(msg)
		if rep == nil {
			t.Fatalf("read %+v: no report", msg)
		}
		return changed
	}
	if !show(acct) {
		t.Fatal("the first read is not a change")
	}
	if show(acct) {
		t.Error("a read of the same account, the same report, is a change")
	}
	acct.Upnl = decimal.NewFromInt(-40) // the drawdown's use moves from 0 to 50
	if !show(acct) {
		t.Error("a read whose drawdown use moved is not a change")
	}
	if _, changed := l.Show(Msg{Text: "HALTED (by hand)"}); !changed {
		t.Error("new words with no report are not a change")
	}
	if _, changed := l.Show(Msg{Text: "HALTED (by hand)"}); changed {
		t.Error("the same words again are a change")
	}
}

// TestAChangeAboutEveryAfterTheReadReadsWithIt (issue #34): the stream's data comes once a
// market step; the change a step brings about Every after the last read is read with it (within
// slack), not kept back for a timer of its own a few milliseconds later, and the timer armed for
// an earlier kept-back change is cancelled: it never wakes (it woke the idle console every 2 s
// with a position open, to bring no read).
func TestAChangeAboutEveryAfterTheReadReadsWithIt(t *testing.T) {
	start := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	clock := feed.NewFakeClock(start)
	f := feed.New(clock, time.Second, time.Minute)
	var l Line
	if _, due := l.Due(start, f); !due {
		t.Fatal("the first read is not due")
	}
	clock.Advance(time.Second)
	if _, due := l.Due(clock.Now(), f); due {
		t.Fatal("a change a second after the read is not kept back")
	}
	clock.Advance(time.Second - time.Millisecond) // the next step's change, just before Every
	cmd, due := l.Due(clock.Now(), f)
	if !due {
		t.Fatal("a change a millisecond short of Every after the read is kept back")
	}
	if cmd != nil {
		cmd()
	}
	if clock.Pending() != 0 {
		t.Fatalf("%d timers left after the step's change read the kept-back one, want none", clock.Pending())
	}
	clock.Advance(time.Second)
	if _, due := l.Due(clock.Now(), f); due || clock.Pending() != 1 {
		t.Fatalf("a change a second after the step's read: due %v, %d timers; want kept back, one", due, clock.Pending())
	}
}
