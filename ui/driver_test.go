package ui

import (
	"sync/atomic"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state/feed"
)

// driver runs the console the way tea.Program does (every command in its own goroutine, every
// message through Update, a View after each), so a test can run it for many poll cycles and press
// keys in between. Its timers run on a feed.FakeClock the driver steps: when no message is
// waiting (and, unless stepBusy, no command is out), it moves the clock to the next timer and
// delivers it. So the cycles take the time the requests take, not the cadence's.
type driver struct {
	t      testing.TB
	m      *Model
	clock  *feed.FakeClock // the console's timers (nil: wall time, nothing to step)
	msgs   chan tea.Msg
	done   chan struct{}
	before func(tea.Msg) // sees each message before Update
	after  func(tea.Msg) // sees each message after Update
	// stepBusy steps the clock while requests are out (after a millisecond without a message), as
	// wall time would go on; without it, time stands still while the exchange answers.
	stepBusy bool
	work     atomic.Int64 // commands started whose message is not in msgs yet
}

func newDriver(t testing.TB, m *Model, clock *feed.FakeClock) *driver {
	d := &driver{t: t, m: m, clock: clock, msgs: make(chan tea.Msg, 1024), done: make(chan struct{})}
	t.Cleanup(func() { close(d.done) })
	return d
}

func (d *driver) run(c tea.Cmd) {
	if c == nil {
		return
	}
	d.work.Add(1)
	go func() {
		msg := c()
		select {
		case d.msgs <- msg:
		case <-d.done:
		}
		d.work.Add(-1) // after the send: no work and no message means nothing is coming
	}()
}

func (d *driver) handle(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c)
		}
	case tea.QuitMsg:
		d.t.Fatal("the console quit")
	default:
		if d.before != nil {
			d.before(msg)
		}
		_, next := d.m.Update(msg)
		if d.after != nil {
			d.after(msg)
		}
		_ = d.m.View()
		d.run(next)
	}
}

// step moves the clock to its next timer and delivers every timer then due; it reports whether
// there was one.
func (d *driver) step() bool {
	if d.clock == nil {
		return false
	}
	wait, ok := d.clock.Next()
	if !ok {
		return false
	}
	for _, msg := range d.clock.Advance(wait) {
		d.handle(msg)
	}
	return true
}

// until handles messages, stepping the clock when idle, until cond holds or timeout passes (wall
// time); it reports whether cond held. cond is checked after each message and step, and every
// 10 ms while nothing happens (a cond that draws the screen is not drawn a thousand times a
// second for nothing).
func (d *driver) until(timeout time.Duration, cond func() bool) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for !cond() {
		if !d.next(deadline.C) {
			return cond()
		}
	}
	return true
}

// next handles the next message or, when idle, steps the clock (with stepBusy, also while
// requests are out, after a millisecond without a message); it returns after one of them, or
// after 10 ms without either, true, or false once deadline has passed.
func (d *driver) next(deadline <-chan time.Time) bool {
	quiet := time.Now().Add(10 * time.Millisecond)
	for {
		select {
		case msg := <-d.msgs:
			d.handle(msg)
			return true
		case <-deadline:
			return false
		default:
		}
		// A command sends its message before it counts itself done, so with no work counted
		// every message is in msgs: one that came after the select above is handled first, not
		// left waiting while the clock moves past it (on a loaded machine that gap was long
		// enough for a reply to wait out a step).
		if d.work.Load() == 0 && len(d.msgs) == 0 && d.step() {
			return true
		}
		idle := time.NewTimer(time.Millisecond)
		select {
		case msg := <-d.msgs:
			idle.Stop()
			d.handle(msg)
			return true
		case <-idle.C:
			if d.stepBusy && d.step() {
				return true
			}
		case <-deadline:
			idle.Stop()
			return false
		}
		if time.Now().After(quiet) {
			return true
		}
	}
}

// drain lets every command return without handling a message (nor stepping the clock), so no
// request is in flight; their messages wait for the next until. It reports whether that happened in time.
func (d *driver) drain(timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for d.work.Load() > 0 {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// press sends keys as the terminal would.
func (d *driver) press(keys ...string) {
	for _, k := range keys {
		d.handle(keyMsg(k))
	}
}

func (d *driver) typeText(s string) {
	for _, r := range s {
		d.handle(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}
