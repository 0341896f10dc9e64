package feed

import (
	"slices"
	"testing"
	"time"
)

// TestARoundsRepliesAreHeldUntilItsLast (issue #34): the polls one wake of the feed's timer sends
// are a round: each reply but the last says Hold (a front end draws the round as one frame);
// polls sent outside a wake (a task's start, a refresh) are no round, and a reply that comes
// RoundWait after its round went out is not held.
func TestARoundsRepliesAreHeldUntilItsLast(t *testing.T) {
	clock := NewFakeClock(t0)
	f := New(clock, time.Second, time.Minute)
	tasks := []*Task{newTask(f, &source{}, time.Second, true), newTask(f, &source{}, time.Second, false),
		newTask(f, &source{}, time.Second, false)}
	holds := func(replies []Message) []bool {
		var out []bool
		for _, m := range replies {
			if d, ok := m.(DoneMsg); ok {
				out = append(out, f.Update(d).Hold)
			}
		}
		return out
	}
	if got := holds(run(Batch(tasks[0].Start(), tasks[1].Start(), tasks[2].Start()))); !slices.Equal(got, []bool{false, false, false}) {
		t.Fatalf("the first polls, each sent alone: Hold %v, want none", got)
	}
	wake := func() []Message {
		d, _ := clock.Next()
		var replies []Message
		for _, m := range clock.Advance(d) {
			replies = append(replies, run(f.Update(m.(Msg)).Cmd)...)
		}
		return replies
	}
	if got := holds(wake()); !slices.Equal(got, []bool{true, true, false}) {
		t.Fatalf("the three polls of one wake: Hold %v, want the first two", got)
	}
	replies := wake()
	clock.Advance(RoundWait)
	if got := holds(replies); !slices.Equal(got, []bool{false, false, false}) {
		t.Fatalf("replies %s after their round went out: Hold %v, want none", RoundWait, got)
	}
	if got := holds(run(f.RefreshAll())); !slices.Equal(got, []bool{false, false, false}) {
		t.Fatalf("a refresh's polls: Hold %v, want none", got)
	}
}
