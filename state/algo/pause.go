package algo

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/journal"
)

// StatePaused is the state of a paused algorithm (journal.AlgoPaused): its working child is
// cancelled and nothing more is sent until it is resumed; a restart leaves it paused.
const StatePaused = journal.AlgoPaused

// Pause pauses running algorithm id. The pause is the journal's: the process running it (this
// one or another, such as a headless chase in another terminal) sees it at its next look, within
// Deps.PauseEvery, cancels its working child (a chase's; a TWAP's slices are IOC, a trailing
// stop's stop stays at the exchange, still protecting) and sends nothing more until Resume. A
// TWAP's schedule moves on by the time it was paused.
func Pause(ctx context.Context, j *journal.Journal, id string) error {
	return switchState(ctx, j, id, journal.AlgoRunning, journal.AlgoPaused, "pause")
}

// Resume resumes paused algorithm id: the process running it goes on at its next look. One
// that no process runs (an earlier run's) is resumed with Restart instead.
func Resume(ctx context.Context, j *journal.Journal, id string) error {
	return switchState(ctx, j, id, journal.AlgoPaused, journal.AlgoRunning, "resume")
}

func switchState(ctx context.Context, j *journal.Journal, id, from, to, verb string) error {
	ok, err := j.SwitchAlgo(ctx, id, from, to)
	if err != nil || ok {
		return err
	}
	st, err := j.AlgoState(ctx, id)
	switch {
	case err != nil:
		return err
	case st == "":
		return fmt.Errorf("no algorithm %s in the journal: tradedesk algos lists them", text.Quote(id))
	}
	return fmt.Errorf("algorithm %s is %s, not %s: nothing to %s", text.Quote(id), st, from, verb)
}

// hold is what a running algorithm knows of its pause.
type hold struct {
	next   time.Time // the next look at the journal
	paused bool
	since  time.Time // when the pause was seen
}

// look reads the algorithm's state in the journal, at most every half PauseEvery (a bound on the
// journal's reads, kept on the machine's clock), and reports whether its pause changed. The
// journal's running algorithms are read once for all of the process's (Limits.states), at most
// every half PauseEvery, so a pause is seen within PauseEvery; one not among them (paused, or
// begun since that read) reads its own state.
func (d *Deps) look(ctx context.Context, id string, h *hold) (bool, error) {
	now := time.Now()
	if now.Before(h.next) {
		return false, nil
	}
	h.next = now.Add(d.PauseEvery / 2)
	st, err := d.stateOf(ctx, id)
	if err != nil {
		return false, transient{err}
	}
	if p := st == journal.AlgoPaused; p != h.paused {
		h.paused, h.since = p, d.Now()
		return true, nil
	}
	return false, nil
}

// running is the state a running algorithm reports: running, or paused.
func (h *hold) running() string {
	if h.paused {
		return StatePaused
	}
	return journal.AlgoRunning
}

// waitStep waits one poll, or until ctx ends.
func (d *Deps) waitStep(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(d.Poll):
	}
}

// Live reports whether the progress is of an algorithm that has not ended: running or paused.
func (p Progress) Live() bool { return p.State == journal.AlgoRunning || p.State == StatePaused }

// stateOf is algorithm id's state in the journal: running when the process's shared read of the
// running algorithms has it, else its own read.
func (d *Deps) stateOf(ctx context.Context, id string) (string, error) {
	if d.Limits.states.running(ctx, d.Journal, id, d.PauseEvery/2) {
		return journal.AlgoRunning, nil
	}
	return d.Journal.AlgoState(ctx, id)
}

// runningSet is the journal's running algorithms, read at most once an interval for every
// algorithm of the process (twenty running chases read the journal as often as one).
type runningSet struct {
	mu  sync.Mutex
	j   *journal.Journal
	at  time.Time
	ids map[string]bool
	buf []string // the last read's ids, its slice kept for the next read
}

// running reports whether algorithm id is running in j, from a read of j's running algorithms at
// most every old; false when the read fails (the caller reads id's own state).
func (s *runningSet) running(ctx context.Context, j *journal.Journal, id string, every time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.j != j || time.Since(s.at) >= every {
		var err error
		if s.buf, err = j.RunningIDs(ctx, s.buf[:0]); err != nil {
			s.j = nil
			return false
		}
		if s.ids == nil {
			s.ids = map[string]bool{}
		}
		clear(s.ids)
		for _, a := range s.buf {
			s.ids[a] = true
		}
		s.j, s.at = j, time.Now()
	}
	return s.ids[id]
}
