package algo

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/state/journal"
)

// stateSeen is the last state an algorithm reported, beside its working child.
type stateSeen struct {
	working
	mu    sync.Mutex
	state string
}

func (s *stateSeen) report(p Progress) {
	s.working.report(p)
	s.mu.Lock()
	s.state = p.State
	s.mu.Unlock()
}

// until waits (within the test's minute) for cond on the last report.
func (s *stateSeen) until(t *testing.T, what string, cond func(state, cloid string) bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		st := s.state
		s.mu.Unlock()
		if cloid, _, _ := s.get(); cond(st, cloid) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("never %s", what)
}

// TestAPausedChaseSendsNothingUntilResumed: a chase working a child is paused by another process
// (a second journal handle on the same file, as `tradedesk algos pause ID` has): it reports paused,
// its child is cancelled, nothing is placed while it is paused though the market moves, a second
// pause is refused with its reason; resumed, it places again and ends done at exactly its target,
// never two children open at once.
func TestAPausedChaseSendsNothingUntilResumed(t *testing.T) {
	r := newRig(t, false)
	s := &stateSeen{}
	d := r.deps(s.report)
	size := dec("0.003")
	c, err := NewChase(bg, d, "pz-1", ChaseParams{Instrument: "BTC-PERP", Side: "buy", Size: size, Aggressive: true})
	must(t, err)
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	var most atomic.Int32
	go r.watchLive(ctx, "pz-1-", &most)
	done := make(chan Progress, 1)
	go func() { p, _ := c.Run(bounded(t)); done <- p }()
	s.until(t, "worked a child", func(st, cloid string) bool { return cloid != "" })

	other, err := journal.Open(r.path)
	must(t, err)
	defer other.Close()
	must(t, Pause(bg, other, "pz-1"))
	s.until(t, "paused with no child", func(st, cloid string) bool { return st == StatePaused && cloid == "" })
	open, all := r.orders("pz-1-")
	if len(open) != 0 {
		t.Fatalf("%d children open while paused", len(open))
	}
	time.Sleep(20 * d.PauseEvery) // the market moves on; a running chase would reprice
	if _, again := r.orders("pz-1-"); len(again) != len(all) {
		t.Fatalf("%d children placed while paused", len(again)-len(all))
	}
	if err := Pause(bg, other, "pz-1"); err == nil || !strings.Contains(err.Error(), "is paused") {
		t.Fatalf("a second pause: %v", err)
	}
	if a, _, _ := r.j.GetAlgo(bg, "pz-1"); a.State != StatePaused {
		t.Fatalf("the journal says %s", a.State)
	}

	must(t, Resume(bg, other, "pz-1"))
	s.until(t, "worked a child again", func(st, cloid string) bool { return st == journal.AlgoRunning && cloid != "" })
	go r.hitLoop(ctx, &s.working, 5)
	p := <-done
	cancel()
	if p.State != StateDone {
		t.Fatalf("%+v", p)
	}
	r.checkChase(t, "pz-1-", p, size, &most)
}

// TestAPausedTWAPStaysPausedOnRestart: a TWAP paused after its first slice, its process then
// gone, is not among the algorithms left running on restart (it needs no choice) and stays
// paused in the journal; resumed, its schedule has moved on by the time it was paused (no burst
// of the slices it missed) and it fills exactly its size.
func TestAPausedTWAPStaysPausedOnRestart(t *testing.T) {
	r := newRig(t, false)
	d := r.deps(nil)
	size := dec("0.004")
	tw, err := NewTWAP(bg, d, "pt-1", TWAPParams{Instrument: "BTC-PERP", Side: "buy", Size: size, Duration: 800 * time.Millisecond, Slices: 4})
	must(t, err)
	for tw.done == 0 {
		_, err := tw.step(bg)
		must(t, err)
	}
	start := tw.p.Start
	must(t, Pause(bg, r.j, "pt-1"))
	if _, err := tw.held(bg); err != nil || !tw.hold.paused {
		t.Fatalf("not paused: %v", err)
	}
	r.reopen() // the process is gone
	d = r.deps(nil)
	if run, err := Running(bg, d); err != nil || len(run) != 0 {
		t.Fatalf("left running: %+v %v", run, err)
	}
	time.Sleep(time.Second) // longer than the whole schedule
	a, ok, err := r.j.GetAlgo(bg, "pt-1")
	if err != nil || !ok || a.State != StatePaused {
		t.Fatalf("%+v %v", a, err)
	}
	rn, _, err := Restart(bg, d, a, OnRestartResume)
	must(t, err)
	got := rn.(*TWAP)
	if shift := got.p.Start.Sub(start); shift < time.Second || got.done > 1 {
		t.Fatalf("the schedule moved on by %s, %d slices done", shift, got.done)
	}
	if st, _ := r.j.AlgoState(bg, "pt-1"); st != journal.AlgoRunning {
		t.Fatalf("resumed, the journal says %s", st)
	}
	p, err := got.Run(bounded(t))
	if err != nil || p.State != StateDone || !p.Filled.Equal(size) || !r.filledOf("pt-1-").Equal(size) {
		t.Fatalf("%+v %v", p, err)
	}
}
