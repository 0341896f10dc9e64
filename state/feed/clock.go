package feed

import (
	"sort"
	"sync"
	"time"
)

// Clock tells the feed the time and runs its timers. Production uses RealClock; tests use a
// FakeClock and step it.
type Clock interface {
	// Now is the current time.
	Now() time.Time
	// After returns a command that delivers msg once d has passed (nil when the clock delivers it
	// some other way, as FakeClock does).
	After(d time.Duration, msg Message) Cmd
}

// RealClock is wall time: the feed's timers wait on one re-armed time.Timer, a pane's own (After)
// are plain timers (tick).
type RealClock struct {
	now   func() time.Time
	timer *realTimer // the feed's one re-armable timer
}

// NewRealClock returns a clock whose timers run on wall time and whose Now is now (nil: time.Now).
func NewRealClock(now func() time.Time) RealClock {
	if now == nil {
		now = time.Now
	}
	return RealClock{now: now, timer: &realTimer{ch: make(chan fired, 4)}}
}

func (c RealClock) timerNow() time.Time { return time.Now() }

func (c RealClock) rearm(d time.Duration, msg Message) Cmd {
	if c.timer == nil {
		return c.After(d, msg)
	}
	return c.timer.rearm(d, msg)
}

func (c RealClock) disarm() {
	if c.timer != nil {
		c.timer.disarm()
	}
}

// Now implements Clock.
func (c RealClock) Now() time.Time { return c.now() }

// After implements Clock with a timer (tick).
func (c RealClock) After(d time.Duration, msg Message) Cmd {
	return tick(d, func(time.Time) Message { return msg })
}

// FakeClock is a clock that moves only when a test says so. Its timers are not goroutines: After
// records the message and returns nil, and Advance hands back the messages that came due, in
// order, for the test to deliver to Update. So a test never waits for a timer in real time and
// never has to tell a timer's command from a request's.
type FakeClock struct {
	mu     sync.Mutex
	now    time.Time
	seq    uint64
	timers []fakeTimer
	wake   uint64 // seq of the re-armable timer's current arming (0: none)
}

type fakeTimer struct {
	at  time.Time
	seq uint64 // ties in at fire in the order they were set
	msg Message
}

// NewFakeClock returns a fake clock standing at start.
func NewFakeClock(start time.Time) *FakeClock { return &FakeClock{now: start} }

// Now implements Clock.
func (c *FakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After implements Clock: msg is due d from now. A timer already due (d <= 0) is a command that
// delivers msg at once.
func (c *FakeClock) After(d time.Duration, msg Message) Cmd {
	if d <= 0 {
		return func() Message { return msg }
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	c.timers = append(c.timers, fakeTimer{at: c.now.Add(d), seq: c.seq, msg: msg})
	return nil
}

func (c *FakeClock) timerNow() time.Time { return c.Now() }

// rearm is After with the timer armed before by rearm taken back.
func (c *FakeClock) rearm(d time.Duration, msg Message) Cmd {
	c.disarm()
	cmd := c.After(d, msg)
	if cmd == nil {
		c.mu.Lock()
		c.wake = c.seq
		c.mu.Unlock()
	}
	return cmd
}

// disarm takes back the timer armed by rearm.
func (c *FakeClock) disarm() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, t := range c.timers {
		if c.wake != 0 && t.seq == c.wake {
			c.timers = append(c.timers[:i], c.timers[i+1:]...)
			break
		}
	}
	c.wake = 0
}

// Advance moves the clock by d and returns the messages of the timers that came due, earliest
// first.
func (c *FakeClock) Advance(d time.Duration) []Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	sort.Slice(c.timers, func(i, j int) bool {
		a, b := c.timers[i], c.timers[j]
		return a.at.Before(b.at) || (a.at.Equal(b.at) && a.seq < b.seq)
	})
	n := 0
	for n < len(c.timers) && !c.timers[n].at.After(c.now) {
		n++
	}
	due := make([]Message, n)
	for i := range due {
		due[i] = c.timers[i].msg
	}
	c.timers = append(c.timers[:0], c.timers[n:]...)
	return due
}

// Next is how long until the earliest timer is due, and false when none is set.
func (c *FakeClock) Next() (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.timers) == 0 {
		return 0, false
	}
	first := c.timers[0].at
	for _, t := range c.timers[1:] {
		if t.at.Before(first) {
			first = t.at
		}
	}
	return max(first.Sub(c.now), 0), true
}

// Pending is the number of timers set and not yet due.
func (c *FakeClock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// WithNow returns c with its Now replaced by now: the feed stamps requests with the console's
// clock while its timers run on c.
func WithNow(c Clock, now func() time.Time) Clock {
	if tc, ok := c.(timerClock); ok {
		return nowTimerClock{nowClock: nowClock{Clock: c, now: now}, tc: tc}
	}
	return nowClock{Clock: c, now: now}
}

type nowClock struct {
	Clock
	now func() time.Time
}

func (c nowClock) Now() time.Time { return c.now() }

// nowTimerClock is nowClock over a clock with a re-armable timer, which it keeps.
type nowTimerClock struct {
	nowClock
	tc timerClock
}

func (c nowTimerClock) timerNow() time.Time                    { return c.tc.timerNow() }
func (c nowTimerClock) rearm(d time.Duration, msg Message) Cmd { return c.tc.rearm(d, msg) }
func (c nowTimerClock) disarm()                                { c.tc.disarm() }
