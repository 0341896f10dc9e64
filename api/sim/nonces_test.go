package sim

import (
	"strings"
	"testing"
	"time"
)

func TestNonceSet(t *testing.T) {
	t.Parallel()
	n := newNonceSet()
	now := testStart
	base := uint64(now.UnixMilli())
	if err := n.use(base, now); err != nil {
		t.Fatal(err)
	}
	if err := n.use(base, now); err == nil || !strings.Contains(err.Error(), "already used") {
		t.Errorf("reuse: %v", err)
	}
	if err := n.use(base-1, now); err != nil {
		t.Errorf("an older unused nonce inside the window: %v", err)
	}
	// Past the cap, the oldest are forgotten and become the floor.
	for i := uint64(1); i <= maxNoncesKept+10; i++ {
		if err := n.use(base+i, now); err != nil {
			t.Fatal(err)
		}
	}
	if len(n.seen) != maxNoncesKept {
		t.Errorf("%d nonces kept", len(n.seen))
	}
	if err := n.use(base-2, now); err == nil || !strings.Contains(err.Error(), "older than the") {
		t.Errorf("below the floor: %v", err)
	}
	// Hours later, nonces that left the window are dropped.
	later := now.Add(3 * 24 * time.Hour)
	if err := n.use(uint64(later.UnixMilli()), later); err != nil {
		t.Fatal(err)
	}
	if len(n.seen) != 1 {
		t.Errorf("%d nonces kept after the window passed", len(n.seen))
	}
}
