package algo

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Limits are the throttles every algorithm of one process shares (give the same *Limits to every
// Deps): a budget of signed actions a second for all of them together, and how many may run at
// once. The exchange's rate limit itself (a 429 and its Retry-After) is the api client's: it holds
// every request to the host until the pause is over, and a child it holds back is not placed, so
// its size goes back to its algorithm.
type Limits struct {
	// PerSecond is the signed actions a second all algorithms may send together (0: 5).
	PerSecond int
	// MaxRunning is how many algorithms may run at once (0: 20).
	MaxRunning int
	// ShareReads is how long one read of the open orders or a book serves every algorithm of
	// the process (0: 500 ms; negative: not shared). An action sent drops the open orders.
	ShareReads time.Duration

	reads  sharedReads
	states runningSet

	mu      sync.Mutex
	next    time.Time
	running int
}

func (l *Limits) share() time.Duration {
	if l.ShareReads == 0 {
		return 500 * time.Millisecond
	}
	return l.ShareReads
}

func (l *Limits) perSecond() int {
	if l.PerSecond <= 0 {
		return 5
	}
	return l.PerSecond
}

// wait holds a signed action until the shared budget has room for it.
func (l *Limits) wait(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d := time.Until(l.slot(time.Now())); d > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d):
		}
	}
	return nil
}

// slot takes the next turn of the shared budget for an action asked for at now: now when the
// budget has room, else one interval after the turn before it.
func (l *Limits) slot(now time.Time) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(time.Second / time.Duration(l.perSecond()))
	return at
}

// enter takes a running algorithm's place, or refuses when MaxRunning are running.
func (l *Limits) enter() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.fullLocked(); err != nil {
		return err
	}
	l.running++
	return nil
}

// full refuses a new algorithm while MaxRunning are running.
func (l *Limits) full() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fullLocked()
}

func (l *Limits) fullLocked() error {
	most := l.MaxRunning
	if most <= 0 {
		most = 20
	}
	if l.running >= most {
		return fmt.Errorf("%d algorithms are running, the most at once: stop one first", l.running)
	}
	return nil
}

// leave gives a running algorithm's place back.
func (l *Limits) leave() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running > 0 {
		l.running--
	}
}

// Running is how many algorithms hold a place now.
func (l *Limits) Running() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.running
}
