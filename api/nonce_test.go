package api

import (
	"sort"
	"sync"
	"testing"
	"time"
)

func TestNonceStrictlyIncreasingAcrossGoroutines(t *testing.T) {
	var n NonceSource
	frozen := time.UnixMilli(1769690420567) // a stuck clock forces the last+1 path
	const workers, each = 16, 500
	got := make([][]uint64, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			prev := uint64(0)
			for i := range each {
				now := frozen
				if i%3 == 0 {
					now = time.Now()
				}
				v := n.Next(now)
				if v <= prev {
					t.Errorf("worker %d: nonce %d after %d", w, v, prev)
				}
				prev = v
				got[w] = append(got[w], v)
			}
		}()
	}
	wg.Wait()
	all := make([]uint64, 0, workers*each)
	for _, g := range got {
		all = append(all, g...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	for i := 1; i < len(all); i++ {
		if all[i] == all[i-1] {
			t.Fatalf("nonce %d handed out twice", all[i])
		}
	}
	if n.Last() != all[len(all)-1] {
		t.Fatalf("Last %d, want %d", n.Last(), all[len(all)-1])
	}
}

func TestNonceFollowsClockAndSurvivesStepBack(t *testing.T) {
	var n NonceSource
	t0 := time.UnixMilli(1_700_000_000_000)
	if got := n.Next(t0); got != 1_700_000_000_000 {
		t.Fatalf("first nonce %d", got)
	}
	if got := n.Next(t0); got != 1_700_000_000_001 {
		t.Fatalf("same ms: %d", got)
	}
	if got := n.Next(t0.Add(-time.Hour)); got != 1_700_000_000_002 {
		t.Fatalf("clock stepped back: %d", got)
	}
	if got := n.Next(t0.Add(time.Second)); got != 1_700_000_001_000 {
		t.Fatalf("clock moved on: %d", got)
	}
}

func TestExpiresAfter(t *testing.T) {
	if got := ExpiresAfter(1000, 0); got != 61000 {
		t.Fatalf("default window: %d", got)
	}
	if got := ExpiresAfter(1000, 5*time.Second); got != 6000 {
		t.Fatalf("5s window: %d", got)
	}
}
