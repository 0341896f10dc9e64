package algo

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/journal"
)

// stateSeen is every state an algorithm reported with its working child, beside the last child.
type stateSeen struct {
	working
	mu   sync.Mutex
	seen []seenReport
	// from is how many reports until has looked at.
	from int
}

type seenReport struct{ state, cloid string }

func (s *stateSeen) report(p Progress) {
	s.working.report(p)
	s.mu.Lock()
	s.seen = append(s.seen, seenReport{p.State, p.Working})
	s.mu.Unlock()
}

// until waits (within the test's minute) for a report after the ones the last until looked at
// for which cond holds: a state the algorithm passed through between two looks counts (a child
// placed and filled at once, the chase then done, was once never seen).
func (s *stateSeen) until(t *testing.T, what string, cond func(state, cloid string) bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		for ; s.from < len(s.seen); s.from++ {
			if r := s.seen[s.from]; cond(r.state, r.cloid) {
				s.from++
				s.mu.Unlock()
				return
			}
		}
		s.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t.Fatalf("never %s (reported: %v)", what, s.seen)
}

// TestAPausedChaseSendsNothingUntilResumed: a chase working a child is paused by another process
// (a second journal handle on the same file, as `tradedesk algos pause ID` has): it reports paused,
// its child is cancelled, nothing is placed while it is paused though the market moves, a second
// pause is refused with its reason; resumed, it places again and ends done at exactly its target,
// never two children open at once. The book is still but for the moves the test makes: in a live
// market the simulator's own takers could fill the child whole before it was ever seen resting.
func TestAPausedChaseSendsNothingUntilResumed(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, true)
	r.stillBook(t, "pz-quote")
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
	// The market moves on (a higher bid): a running chase would place its child above it.
	_, err = r.taker.PlaceOrders(bg, []api.OrderWire{{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth,
		Price: "96950", Size: "0.01", Tif: api.TifGTC, Cloid: "pz-quote-up"}})
	must(t, err)
	time.Sleep(20 * d.PauseEvery)
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
// of the slices it missed) and it fills exactly its size (its IOC slices meeting the book they
// were priced on: stepOnReads).
func TestAPausedTWAPStaysPausedOnRestart(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, false)
	r.stepOnReads()
	d := r.deps(nil)
	// The first process's clock stands still: its first step works slice 1 however long the
	// machine takes to get there (on a running clock a slow start had rolled slices 1-3 into one).
	t0 := time.Now()
	d.Now = func() time.Time { return t0 }
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
	// The second process starts a second after the pause (longer than the whole schedule). Its
	// clock stands there until the restart has returned and then runs: the restart moves the
	// schedule on and then reads which slice is due, and on a clock running through it a loaded
	// machine's time between the two (a journal write: 0.4 s at load 20) made slices due that no
	// pause had anything to do with ("moved on by 1.78s, 2 slices done").
	t1 := t0.Add(time.Second)
	var running atomic.Pointer[time.Time] // when the clock began to run; nil: it stands at t1
	d.Now = func() time.Time {
		if since := running.Load(); since != nil {
			return t1.Add(time.Since(*since))
		}
		return t1
	}
	if run, err := Running(bg, d); err != nil || len(run) != 0 {
		t.Fatalf("left running: %+v %v", run, err)
	}
	a, ok, err := r.j.GetAlgo(bg, "pt-1")
	if err != nil || !ok || a.State != StatePaused {
		t.Fatalf("%+v %v", a, err)
	}
	rn, _, err := Restart(bg, d, a, OnRestartResume)
	must(t, err)
	now := time.Now()
	running.Store(&now)
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
