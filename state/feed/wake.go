package feed

import (
	"sync"
	"time"
)

// timerClock is a clock with one timer the feed re-arms: the tasks' next polls and the heartbeat
// wait in the feed's own list, and the clock holds one timer for the earliest of them, so an idle
// console has one timer set however many tasks it runs (not one timer goroutine per task).
type timerClock interface {
	// timerNow is the time the timers run on (a FakeClock's own, not the console's clock).
	timerNow() time.Time
	// rearm sets the one timer: msg is delivered once d has passed, and the timer armed before is
	// superseded (its message never delivered). The command it returns, if any, must be run.
	rearm(d time.Duration, msg Message) Cmd
	// disarm stops the one timer: the message of its last arming is never delivered.
	disarm()
}

// wakeMsg is the feed's one timer running out; a token other than the feed's is superseded.
type wakeMsg struct{ token uint64 }

func (wakeMsg) isFeedMsg() {}

// dueEntry is one timer in the feed's list; owner (a task, the heartbeat) has at most one.
type dueEntry struct {
	owner any
	at    time.Time
	seq   uint64 // ties at one time fire in the order they were set
	msg   Msg
}

// wakeList is the feed's timers and the one clock timer armed for the earliest.
type wakeList struct {
	entries []dueEntry
	seq     uint64
	at      time.Time // when the armed clock timer runs out (zero: none armed)
	token   uint64
}

// arm delivers msg to Update once d has passed, superseding owner's earlier timer. On a clock
// without a re-armable timer it is a timer of its own.
func (f *Feed) arm(owner any, d time.Duration, msg Msg) Cmd {
	tc, ok := f.clock.(timerClock)
	if !ok {
		return f.clock.After(d, msg)
	}
	w := &f.wake
	w.entries = dropOwner(w.entries, owner)
	if d <= 0 {
		return func() Message { return msg }
	}
	w.seq++
	w.entries = append(w.entries, dueEntry{owner: owner, at: tc.timerNow().Add(d), seq: w.seq, msg: msg})
	return f.rearm(tc)
}

func dropOwner(es []dueEntry, owner any) []dueEntry {
	for i, e := range es {
		if e.owner == owner {
			return append(es[:i], es[i+1:]...)
		}
	}
	return es
}

// rearm sets the clock's timer for the earliest entry, unless it is set for that already.
func (f *Feed) rearm(tc timerClock) Cmd {
	w := &f.wake
	if len(w.entries) == 0 {
		if !w.at.IsZero() { // the last timer was cancelled: the clock's wakes for nothing
			w.token++
			w.at = time.Time{}
			tc.disarm()
		}
		return nil
	}
	first := w.entries[0].at
	for _, e := range w.entries[1:] {
		if e.at.Before(first) {
			first = e.at
		}
	}
	if first.Equal(w.at) {
		return nil // a timer superseded for a later one moves the clock's later too: it never fires for nothing
	}
	w.token++
	w.at = first
	return tc.rearm(max(first.Sub(tc.timerNow()), time.Nanosecond), wakeMsg{w.token})
}

// woken runs on the clock's timer: every entry due is handled (earliest first; a task's timer and
// the heartbeat's only start requests), then the timer is set for the next.
func (f *Feed) woken(msg wakeMsg) Result {
	tc, ok := f.clock.(timerClock)
	w := &f.wake
	if !ok || msg.token != w.token {
		return Result{}
	}
	w.at = time.Time{}
	now := tc.timerNow()
	var due, rest []dueEntry
	for _, e := range w.entries {
		if e.at.After(now.Add(slack(e))) {
			rest = append(rest, e)
		} else {
			due = append(due, e)
		}
	}
	w.entries = rest
	sortDue(due)
	cmds := make([]Cmd, 0, len(due)+1)
	f.sending = &round{sent: now} // the polls this wake sends are one round (Result.Hold)
	for _, e := range due {
		cmds = append(cmds, f.Update(e.msg).Cmd)
	}
	f.sending = nil
	cmds = append(cmds, f.rearm(tc))
	return Result{Cmd: Batch(cmds...)}
}

// pollSlack is how early a task's periodic poll may run to go out with the wake of another timer:
// a tenth of its cadence, at most maxPollSlack. Polls due close together leave together and
// their replies draw one frame, not one each (issue #34: the polling demo woke and drew three or
// four times a second); a slow poll is not pulled much earlier (its cadence holds).
const (
	pollSlack    = 10
	maxPollSlack = 100 * time.Millisecond
)

// slack is how early e may run with another timer's wake: a task's poll pollSlack, any other
// timer (the heartbeat's check, a pane's own) not at all.
func slack(e dueEntry) time.Duration {
	if d, ok := e.msg.(dueMsg); ok {
		return min(d.t.every()/pollSlack, maxPollSlack)
	}
	return 0
}

func sortDue(es []dueEntry) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && (es[j].at.Before(es[j-1].at) || (es[j].at.Equal(es[j-1].at) && es[j].seq < es[j-1].seq)); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// Timers is how many timers the feed holds (its tasks' next polls, the heartbeat).
func (f *Feed) Timers() int { return len(f.wake.entries) }

// realTimer is RealClock's one re-armable timer: a time.Timer re-set in place, whose message one
// waiting command at most reads.
type realTimer struct {
	mu      sync.Mutex
	timer   *time.Timer
	gen     uint64
	waiting bool
	ch      chan fired
}

type fired struct {
	gen uint64
	msg Message
}

func (r *realTimer) rearm(d time.Duration, msg Message) Cmd {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gen++
	gen := r.gen
	if r.timer != nil {
		r.timer.Stop()
	}
	r.timer = time.AfterFunc(d, func() { r.ch <- fired{gen, msg} })
	if r.waiting {
		return nil
	}
	r.waiting = true
	return r.wait
}

// disarm stops the timer; a firing already sent is skipped as superseded.
func (r *realTimer) disarm() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gen++
	if r.timer != nil {
		r.timer.Stop()
	}
}

// wait is the one command waiting for the timer: a superseded firing is skipped.
func (r *realTimer) wait() Message {
	for f := range r.ch {
		r.mu.Lock()
		current := f.gen == r.gen
		if current {
			r.waiting = false
		}
		r.mu.Unlock()
		if current {
			return f.msg
		}
	}
	return nil
}
