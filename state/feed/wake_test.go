package feed

import (
	"runtime"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/state"
)

// TestOneTimerForAllTasks (#34): fifty tasks on their own cadences hold one clock timer between
// them, at every step of two simulated minutes, and each still polls on its own cadence: the
// clock timer is re-armed to the earliest task due, not one timer set per task.
func TestOneTimerForAllTasks(t *testing.T) {
	clock := NewFakeClock(t0)
	f := New(clock, time.Second, time.Minute)
	st := state.New(clock.Now)
	const n = 50
	srcs := make([]*source, n)
	var cmds []Cmd
	for i := range srcs {
		srcs[i] = &source{}
		cmds = append(cmds, newTask(f, srcs[i], time.Duration(i+1)*time.Second, i == 0).Start())
	}
	deliver(f, st, run(Batch(cmds...)))
	if clock.Pending() != 1 || f.Timers() != n {
		t.Fatalf("after the first polls: %d clock timers, %d feed timers; want 1 and %d", clock.Pending(), f.Timers(), n)
	}
	end := t0.Add(2 * time.Minute)
	for {
		d, ok := clock.Next()
		if !ok || clock.Now().Add(d).After(end) {
			break
		}
		deliver(f, st, clock.Advance(d))
		if clock.Pending() != 1 {
			t.Fatalf("at %v: %d clock timers, want 1", clock.Now().Sub(t0), clock.Pending())
		}
	}
	for i, s := range srcs {
		if want := 1 + 120/(i+1); int(s.calls.Load()) != want {
			t.Errorf("task every %ds polled %d times in 2 min, want %d", i+1, s.calls.Load(), want)
		}
	}
}

// TestOneGoroutineForAllTimers (#34): on wall time, fifty idle tasks wait on one timer goroutine
// (they were one tea.Tick goroutine each), and a fast task among them still polls on its cadence.
func TestOneGoroutineForAllTimers(t *testing.T) {
	clock := NewRealClock(nil)
	f := New(clock, time.Second, time.Minute)
	st := state.New(clock.Now)
	msgs := make(chan Message, 256)
	var start func(Cmd)
	start = func(c Cmd) {
		if c == nil {
			return
		}
		go func() {
			m := c()
			if b, ok := m.(BatchMsg); ok {
				for _, c := range b {
					start(c)
				}
				return
			}
			msgs <- m
		}()
	}
	base := runtime.NumGoroutine()
	fast := &source{}
	start(newTask(f, fast, 20*time.Millisecond, true).Start())
	for range 49 {
		start(newTask(f, &source{}, time.Hour, false).Start())
	}
	deadline := time.After(20 * time.Second)
	for fast.calls.Load() < 5 {
		select {
		case m := <-msgs:
			if fm, ok := m.(Msg); ok {
				r := f.Update(fm)
				if r.Msg != nil {
					st.Apply(r.Msg)
				}
				start(r.Cmd)
			}
		case <-deadline:
			t.Fatalf("the fast task polled %d times, want 5", fast.calls.Load())
		}
	}
	// The fifty idle tasks' timers are set; the goroutines of the finished requests end.
	var grown int
	for range 200 {
		if grown = runtime.NumGoroutine() - base; grown <= 3 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("%d goroutines more with 50 tasks waiting, want at most 3 (one timer)", grown)
}

// TestAnOwnersTimerIsSuperseded (issue #34): a pane's timer set again for later (a price flash's
// end moved to the next change) supersedes the one before: the clock's one timer moves later with
// it, so nothing wakes at the earlier time, and only the later message is delivered.
func TestAnOwnersTimerIsSuperseded(t *testing.T) {
	clock := NewFakeClock(t0)
	f := New(clock, time.Second, time.Minute)
	owner := new(int)
	if cmd := f.AfterFor(owner, time.Second, "first"); cmd != nil {
		t.Fatal("a timer in the future ran at once")
	}
	f.AfterFor(owner, 3*time.Second, "second")
	if d, ok := clock.Next(); !ok || d != 3*time.Second || clock.Pending() != 1 {
		t.Fatalf("the clock's timer is due in %s (%d set), want one in 3s", d, clock.Pending())
	}
	var got []Message
	for _, msg := range clock.Advance(3 * time.Second) {
		got = append(got, run(f.Update(msg.(Msg)).Cmd)...) // the one wake: the due timer's message
	}
	if len(got) != 1 || got[0] != "second" {
		t.Fatalf("delivered %v, want only the second", got)
	}
}

// TestPollsDueTogetherShareAWake (issue #34): a task polling every second due 80 ms after
// another's wake polls with it (within a tenth of its cadence: their replies draw one frame), one
// due 130 ms after waits for its own.
func TestPollsDueTogetherShareAWake(t *testing.T) {
	clock := NewFakeClock(t0)
	f := New(clock, time.Second, time.Minute)
	st := state.New(clock.Now)
	a, b, c := &source{}, &source{}, &source{}
	ta, tb, tc := newTask(f, a, time.Second, true), newTask(f, b, time.Second, false), newTask(f, c, time.Second, false)
	deliver(f, st, run(ta.Start()))
	clock.Advance(80 * time.Millisecond)
	deliver(f, st, run(tb.Start()))
	clock.Advance(50 * time.Millisecond)
	deliver(f, st, run(tc.Start()))
	d, _ := clock.Next() // a's next poll, a second after its first
	deliver(f, st, clock.Advance(d))
	if a.calls.Load() != 2 || b.calls.Load() != 2 || c.calls.Load() != 1 {
		t.Fatalf("polls after a's wake: a %d, b %d (80 ms later), c %d (130 ms later); want 2, 2, 1",
			a.calls.Load(), b.calls.Load(), c.calls.Load())
	}
}

// TestACancelledTimerNeverWakes (issue #34): a pane's timer cancelled before it is due (a kept-back
// read that a change read first) is never delivered: the clock's one timer moves to the next
// entry, and with none left it is taken back, so nothing wakes for it.
func TestACancelledTimerNeverWakes(t *testing.T) {
	clock := NewFakeClock(t0)
	f := New(clock, time.Second, time.Minute)
	a, b := new(int), new(int)
	f.AfterFor(a, time.Second, "a")
	f.AfterFor(b, 3*time.Second, "b")
	run(f.Cancel(a))
	if d, ok := clock.Next(); !ok || d != 3*time.Second || clock.Pending() != 1 {
		t.Fatalf("after cancelling the first: the clock's timer is due in %s (%d set), want one in 3s", d, clock.Pending())
	}
	run(f.Cancel(b))
	if clock.Pending() != 0 {
		t.Fatalf("after cancelling both: %d clock timers, want none", clock.Pending())
	}
	var got []Message
	for _, msg := range clock.Advance(time.Minute) {
		got = append(got, run(f.Update(msg.(Msg)).Cmd)...)
	}
	if len(got) != 0 {
		t.Fatalf("cancelled timers delivered %v", got)
	}
}
