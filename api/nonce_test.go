package api

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// Guards the compare-and-swap in Next: with a plain load and store (a lost update) two calls can
// hand out one nonce. On a stuck clock every call must add exactly one to the last nonce, so after
// N calls from many goroutines the last nonce is the first plus N-1 exactly; each lost update
// leaves it lower. The goroutines of a round start together, so on two or more cores they race
// from the first call. The work is fixed, not the wall time, so a loaded machine does not shorten
// the hunt. A round catches the lost update (the mutant nonce/lost-update) 57 times in 100 on a
// quiet 2-core machine, 36 in 100 with both cores busy: 60 rounds (0.4 s of CPU; 300 were
// 1.8 s) miss it once in 10^11 loaded. Under -race a round takes 20 times as long and a lost
// update is no data race (the detector adds nothing here): a race build runs 30.
func TestNonceStrictlyIncreasingAcrossGoroutines(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(max(2, runtime.GOMAXPROCS(0))))
	frozen := time.UnixMilli(1769690420567) // a stuck clock forces the last+1 path
	workers := max(4, 2*runtime.GOMAXPROCS(0))
	rounds := 60
	if raceBuild {
		rounds = 30
	}
	for range rounds {
		if !nonceRound(t, frozen, workers, 20000) {
			return
		}
	}
}

// nonceRound has workers goroutines take each nonces at once from a new source on a stuck clock,
// and reports whether every nonce was handed out once, in increasing order per goroutine.
func nonceRound(t *testing.T, frozen time.Time, workers, each int) bool {
	var n NonceSource
	first := n.Next(frozen)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			prev := first
			for range each {
				v := n.Next(frozen)
				if v <= prev {
					t.Errorf("worker %d: nonce %d after %d", w, v, prev)
					return
				}
				prev = v
			}
		}()
	}
	close(start)
	wg.Wait()
	if want := first + uint64(workers*each); n.Last() != want {
		t.Errorf("after %d nonces from %d goroutines the last is %d, want %d: %d handed out twice",
			workers*each+1, workers, n.Last(), want, want-n.Last())
	}
	return !t.Failed()
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
