package sim

import (
	"fmt"
	"time"
)

// Nonce window: a nonce is Unix milliseconds within (now − 2 days, now + 1 day).
const (
	nonceBehind = 2 * 24 * time.Hour
	nonceAhead  = 24 * time.Hour
)

// nonceSet remembers the nonces one signer used inside the window; older ones are dropped,
// since the window already rejects them.
type nonceSet struct {
	seen   map[uint64]struct{}
	pruned time.Time
}

func newNonceSet() nonceSet { return nonceSet{seen: map[uint64]struct{}{}} }

// use checks a nonce against the window and past use, and records it.
func (n *nonceSet) use(nonce uint64, now time.Time) error {
	lo := uint64(now.Add(-nonceBehind).UnixMilli())
	hi := uint64(now.Add(nonceAhead).UnixMilli())
	if nonce <= lo || nonce >= hi {
		return fmt.Errorf("nonce %d is outside the accepted window (%d, %d): use the current time in Unix milliseconds", nonce, lo, hi)
	}
	if _, ok := n.seen[nonce]; ok {
		return fmt.Errorf("nonce %d was already used by this signer: use a new, increasing nonce", nonce)
	}
	n.seen[nonce] = struct{}{}
	if now.Sub(n.pruned) > time.Hour {
		n.pruned = now
		for k := range n.seen {
			if k <= lo {
				delete(n.seen, k)
			}
		}
	}
	return nil
}
