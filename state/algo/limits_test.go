package algo

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestTheSignedActionBudgetIsShared: 12 actions asked for at once by three algorithms, under a
// budget of 10 a second shared by all, are given turns 100 ms apart (the 12th 1.1 s after the
// first), not sent in a burst; once the budget has caught up, an action goes at once.
func TestTheSignedActionBudgetIsShared(t *testing.T) {
	l := &Limits{PerSecond: 10}
	t0 := time.Unix(1_800_000_000, 0)
	var mu sync.Mutex
	var turns []time.Time
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 4 {
				at := l.slot(t0)
				mu.Lock()
				turns = append(turns, at)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	slices.SortFunc(turns, time.Time.Compare)
	for i, at := range turns {
		if want := t0.Add(time.Duration(i) * 100 * time.Millisecond); !at.Equal(want) {
			t.Fatalf("turn %d at %v, want %v (turns %v)", i, at.Sub(t0), want.Sub(t0), turns)
		}
	}
	if at := l.slot(t0.Add(5 * time.Second)); !at.Equal(t0.Add(5 * time.Second)) {
		t.Fatalf("an action after the budget caught up waits until %v", at.Sub(t0))
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
	t.Parallel() // its own simulator and journal
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

// countingReader counts the open-order reads that reach the exchange.
type countingReader struct {
	Reader
	n atomic.Int32
}

func (c *countingReader) OpenOrders(ctx context.Context, u string, p api.PageParams) (api.Page[api.OrderRecord], error) {
	c.n.Add(1)
	return c.Reader.OpenOrders(ctx, u, p)
}

// TestReadsAreSharedAndDroppedOnAnAction: two algorithms of one process (one Limits) looking up
// their children within the share window read the exchange's open orders once; an action sent
// drops the shared read, so the next lookup reads afresh.
func TestReadsAreSharedAndDroppedOnAnAction(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, true)
	cr := &countingReader{Reader: r.trader}
	l := &Limits{ShareReads: time.Minute}
	d1, d2 := r.deps(nil), r.deps(nil)
	d1.Read, d2.Read, d1.Limits, d2.Limits = cr, cr, l, l
	must(t, d1.check())
	must(t, d2.check())
	for _, d := range []*Deps{d1, d2, d1} {
		if _, err := api.FindCloid(bg, d.Read, d.Account, "nosuch-1"); err != nil {
			t.Fatal(err)
		}
	}
	if n := cr.n.Load(); n != 1 {
		t.Fatalf("%d reads of the open orders for three lookups in the window", n)
	}
	l.reads.drop() // what place, cancel and a scale's batch do once sent
	if _, err := api.FindCloid(bg, d2.Read, d2.Account, "nosuch-1"); err != nil || cr.n.Load() != 2 {
		t.Fatalf("after an action: %d reads, %v", cr.n.Load(), err)
	}
}

// TestAStopDuringAStepIsAStop: a step's error that is only the trader's stop arriving mid-read
// (its context cancelled) ends the run stopped with its note, not failed with "context
// canceled" as the reason (TestAtMostMaxRunning failed that way under load); any other error
// fails it and says why.
func TestAStopDuringAStepIsAStop(t *testing.T) {
	ctx, cancel := context.WithCancel(bg)
	if st, why := endOf(ctx, errors.New("journal: disk full"), "note"); st != StateFailed || why != "journal: disk full" {
		t.Fatalf("a running algorithm's error: %s %q", st, why)
	}
	cancel()
	if st, why := endOf(ctx, fmt.Errorf("journal: %w", ctx.Err()), "note"); st != StateStopped || why != "note" {
		t.Fatalf("the stop mid-read: %s %q", st, why)
	}
}
