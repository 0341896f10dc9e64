package sim

import (
	"sync"
	"time"
)

// Clock tells the simulator the time. The simulator reads it for nonce windows, expiry, record
// timestamps and the market loop.
type Clock interface {
	// Now is the simulator's current time.
	Now() time.Time
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// TestClock is a Clock that moves only when told to, for deterministic tests.
type TestClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewTestClock returns a TestClock standing at t.
func NewTestClock(t time.Time) *TestClock { return &TestClock{now: t.UTC()} }

// Now returns the clock's current time.
func (c *TestClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Add moves the clock forward by d.
func (c *TestClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Set moves the clock to t.
func (c *TestClock) Set(t time.Time) {
	c.mu.Lock()
	c.now = t.UTC()
	c.mu.Unlock()
}
