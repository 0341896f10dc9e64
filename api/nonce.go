package api

import (
	"sync/atomic"
	"time"
)

// DefaultExpiryWindow is how long after its nonce an order or cancel stays valid (expiresAfter =
// nonce + window), as the TypeScript SDK does.
const DefaultExpiryWindow = 60 * time.Second

// NonceSource hands out /exchange nonces: Unix milliseconds, strictly increasing. When the clock
// has not moved past the last nonce (two actions in one millisecond, or the clock stepped back)
// it returns last + 1. It is safe for concurrent use; the zero value is ready.
type NonceSource struct {
	last atomic.Uint64
}

// NewNonceSource returns an empty nonce source.
func NewNonceSource() *NonceSource { return &NonceSource{} }

// Next returns a nonce above every nonce this source returned before, based on now.
func (n *NonceSource) Next(now time.Time) uint64 {
	ms := uint64(max(now.UnixMilli(), 0))
	for {
		last := n.last.Load()
		next := max(ms, last+1)
		if n.last.CompareAndSwap(last, next) {
			return next
		}
	}
}

// Last is the most recent nonce handed out (0 before the first).
func (n *NonceSource) Last() uint64 { return n.last.Load() }

// ExpiresAfter is the absolute expiry (Unix milliseconds) of an action signed with nonce.
// A window of zero or less means the default window.
func ExpiresAfter(nonce uint64, window time.Duration) uint64 {
	if window <= 0 {
		window = DefaultExpiryWindow
	}
	return nonce + uint64(window.Milliseconds())
}
