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

// maxNoncesKept bounds the nonces remembered per signer. Past it the oldest is forgotten and
// becomes the signer's floor: nothing at or below it is accepted any more.
const maxNoncesKept = 50000

// nonceSet remembers the nonces one signer used inside the window. Nonces older than the window
// are dropped (the window rejects them anyway), and at most maxNoncesKept are kept.
type nonceSet struct {
	seen   map[uint64]struct{}
	order  []uint64 // in the order they were used
	head   int      // index of the oldest in order
	floor  uint64
	max    uint64 // the highest nonce ever used
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
	if nonce <= n.floor {
		return fmt.Errorf("nonce %d is older than the %d most recent nonces of this signer: use a new, increasing nonce", nonce, maxNoncesKept)
	}
	n.seen[nonce] = struct{}{}
	n.order = append(n.order, nonce)
	n.max = max(n.max, nonce)
	if len(n.order)-n.head > maxNoncesKept {
		n.forgetOldest()
	}
	if now.Sub(n.pruned) > time.Hour {
		n.pruned = now
		for n.head < len(n.order) && n.order[n.head] <= lo {
			n.forgetOldest()
		}
	}
	if n.head > len(n.order)/2 && n.head > 1024 {
		n.order = append(n.order[:0], n.order[n.head:]...)
		n.head = 0
	}
	return nil
}

func (n *nonceSet) forgetOldest() {
	old := n.order[n.head]
	n.head++
	delete(n.seen, old)
	n.floor = max(n.floor, old)
}
