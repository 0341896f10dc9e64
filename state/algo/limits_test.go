package algo

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestTheSignedActionBudgetIsShared: 12 actions from three algorithms at once, under a budget of
// 10 a second shared by all, take at least a second (they are spaced, not sent in a burst).
func TestTheSignedActionBudgetIsShared(t *testing.T) {
	l := &Limits{PerSecond: 10}
	start := time.Now()
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 4 {
				must(t, l.wait(bg))
			}
		}()
	}
	wg.Wait()
	if took := time.Since(start); took < 1100*time.Millisecond {
		t.Fatalf("12 actions at 10 a second went out in %s", took)
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if l.wait(ctx) == nil {
		t.Fatal("a stopped algorithm took a turn")
	}
}

// TestAtMostMaxRunning: with room for one algorithm, a second is refused before it is journaled
// while the first runs, and taken once it ended.
func TestAtMostMaxRunning(t *testing.T) {
	r := newRig(t, false)
	lim := &Limits{MaxRunning: 1}
	d := r.deps(nil)
	d.Limits = lim
	c, err := NewChase(bg, d, "mr-1", ChaseParams{Instrument: "BTC-PERP", Side: "buy", Size: dec("0.002"), Offset: 50})
	must(t, err)
	ctx, cancel := context.WithCancel(bg)
	done := make(chan Progress)
	go func() { p, _ := c.Run(ctx); done <- p }()
	for lim.Running() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := NewChase(bg, d, "mr-2", ChaseParams{Instrument: "BTC-PERP", Side: "buy", Size: dec("0.002")}); err == nil || !strings.Contains(err.Error(), "the most at once") {
		t.Fatalf("a second algorithm: %v", err)
	}
	if _, ok, _ := r.j.GetAlgo(bg, "mr-2"); ok {
		t.Fatal("the refused algorithm was journaled")
	}
	cancel()
	if p := <-done; p.State != StateStopped || lim.Running() != 0 {
		t.Fatalf("%+v, %d running", p, lim.Running())
	}
	if _, err := NewChase(bg, d, "mr-3", ChaseParams{Instrument: "BTC-PERP", Side: "buy", Size: dec("0.002")}); err != nil {
		t.Fatal(err)
	}
}
