package feed

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

var t0 = time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)

// run executes cmd and every command of a batch, returning their messages (the requests here
// answer at once; a timer on a FakeClock is no command at all).
func run(cmd Cmd) []Message {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(BatchMsg); ok {
		var out []Message
		for _, c := range b {
			out = append(out, run(c)...)
		}
		return out
	}
	if msg == nil {
		return nil
	}
	return []Message{msg}
}

// deliver hands msgs to the feed and applies what comes back to st, running what follows until
// nothing is left; it returns how many state messages were applied.
func deliver(f *Feed, st *state.Store, msgs []Message) int {
	applied := 0
	for len(msgs) > 0 {
		msg := msgs[0]
		msgs = msgs[1:]
		fm, ok := msg.(Msg)
		if !ok {
			continue
		}
		r := f.Update(fm)
		if r.Msg != nil {
			st.Apply(r.Msg)
			applied++
		}
		msgs = append(msgs, run(r.Cmd)...)
	}
	return applied
}

// source is a request whose answer the test sets: it counts calls and fails while err is set.
type source struct {
	calls atomic.Int64
	err   error
}

func (s *source) request() Request {
	return func(_ context.Context, gen uint64, at time.Time) (state.Msg, error) {
		s.calls.Add(1)
		return state.TickersMsg{Gen: gen, At: at}, s.err
	}
}

func newTask(f *Feed, src *source, every time.Duration, heartbeat bool) *Task {
	return f.Add(Spec{Kind: state.KindTickers, Every: func() time.Duration { return every },
		Request: src.request, Heartbeat: heartbeat})
}

// TestFakeClock: timers come due in order when the clock is stepped past them, not before.
func TestFakeClock(t *testing.T) {
	c := NewFakeClock(t0)
	if cmd := c.After(2*time.Second, "b"); cmd != nil {
		t.Fatal("a fake timer is no command")
	}
	c.After(time.Second, "a")
	c.After(2*time.Second, "c")
	if d, ok := c.Next(); !ok || d != time.Second || c.Pending() != 3 {
		t.Fatalf("next %v %v, pending %d", d, ok, c.Pending())
	}
	if got := c.Advance(999 * time.Millisecond); len(got) != 0 {
		t.Fatalf("fired early: %v", got)
	}
	if got := c.Advance(time.Millisecond); len(got) != 1 || got[0] != "a" {
		t.Fatalf("at 1s: %v", got)
	}
	if got := c.Advance(time.Hour); len(got) != 2 || got[0] != "b" || got[1] != "c" {
		t.Fatalf("at 2s, in the order set: %v", got)
	}
	if !c.Now().Equal(t0.Add(time.Hour+time.Second)) || c.Pending() != 0 {
		t.Fatalf("now %v pending %d", c.Now(), c.Pending())
	}
	if msgs := run(c.After(0, "now")); len(msgs) != 1 || msgs[0] != "now" {
		t.Fatal("a timer already due is delivered at once")
	}
}

// TestOneInFlight: a poll asked for while one is out runs once on its reply (not twice, not
// never); a late reply of an older generation is dropped; the timer a poll supersedes does nothing.
func TestOneInFlight(t *testing.T) {
	clock := NewFakeClock(t0)
	f := New(clock, time.Second, time.Minute)
	src := &source{}
	task := newTask(f, src, time.Second, false)
	st := state.New(clock.Now)
	first := task.Start()
	if task.Start() != nil || !task.InFlight() {
		t.Fatal("start runs once and sends a request")
	}
	for range 2 {
		if task.Poll() != nil {
			t.Fatal("a poll asked for while one is out sends nothing now")
		}
	}
	if !task.Busy() {
		t.Fatal("polls asked for while one is out wait for it")
	}
	if n := deliver(f, st, run(first)); n != 2 || src.calls.Load() != 2 {
		t.Fatalf("the reply sends the queued poll once: applied %d, calls %d", n, src.calls.Load())
	}
	if task.Busy() || clock.Pending() != 1 {
		t.Fatalf("then the next poll is armed: busy %v, timers %d", task.Busy(), clock.Pending())
	}
	old := run(task.Poll()) // supersedes the timer
	stale := DoneMsg{t: task, gen: task.gen - 1, Msg: state.TickersMsg{Gen: task.gen - 1}}
	if r := f.Update(stale); r.Msg != nil || r.Cmd != nil || stale.Current() {
		t.Fatal("a reply of an older generation is dropped")
	}
	deliver(f, st, old)
	calls := src.calls.Load()
	if n := deliver(f, st, clock.Advance(time.Second)); n != 1 || src.calls.Load() != calls+1 {
		t.Fatalf("one live timer after a superseded one: applied %d, calls %d -> %d", n, calls, src.calls.Load())
	}
}

// TestBackoff: failures double the wait up to the cap, with at most 20% jitter; Retry-After is a
// floor; the heartbeat waits at most two intervals unless the server asked for longer.
func TestBackoff(t *testing.T) {
	boom := errors.New("connection refused")
	busy := &api.Error{Kind: api.KindHTTP, Status: 429, RetryAfter: 5 * time.Second}
	for _, tc := range []struct {
		n        int
		err      error
		lo, hi   time.Duration
		maxWait  time.Duration
		describe string
	}{
		{1, boom, 2 * time.Second, 2400 * time.Millisecond, 30 * time.Second, "one failure doubles"},
		{3, boom, 8 * time.Second, 9600 * time.Millisecond, 30 * time.Second, "three double thrice"},
		{10, boom, 30 * time.Second, 36 * time.Second, 30 * time.Second, "capped"},
		{1, busy, 5 * time.Second, 5 * time.Second, 30 * time.Second, "Retry-After is a floor"},
	} {
		for range 20 {
			if d := Backoff(time.Second, tc.n, tc.maxWait, tc.err); d < tc.lo || d > tc.hi {
				t.Fatalf("%s: %v not in [%v, %v]", tc.describe, d, tc.lo, tc.hi)
			}
		}
	}
	if d := HeartbeatWait(150*time.Millisecond, 30*time.Second, boom); d != 300*time.Millisecond {
		t.Errorf("heartbeat waits %v, want 300ms", d)
	}
	if d := HeartbeatWait(150*time.Millisecond, 100*time.Millisecond, boom); d != 100*time.Millisecond {
		t.Errorf("a shorter wait stays: %v", d)
	}
	if d := HeartbeatWait(150*time.Millisecond, 30*time.Second, busy); d != 30*time.Second {
		t.Errorf("Retry-After beyond two intervals is honoured: %v", d)
	}
}

// TestOutageAndRecovery: while the exchange fails every task backs off on the fake clock and the
// connection reads retrying; the heartbeat keeps trying every two intervals; its first success
// polls every other failing task at once, without waiting for their backoff.
func TestOutageAndRecovery(t *testing.T) {
	clock := NewFakeClock(t0)
	f := New(clock, time.Second, 30*time.Second)
	heart, slow := &source{}, &source{}
	hb := newTask(f, heart, time.Second, true)
	other := f.Add(Spec{Kind: state.KindAccount, Every: func() time.Duration { return 2 * time.Second },
		Request: func() Request {
			return func(_ context.Context, gen uint64, at time.Time) (state.Msg, error) {
				slow.calls.Add(1)
				return state.AccountMsg{Gen: gen, At: at}, slow.err
			}
		}})
	st := state.New(clock.Now)
	if c := f.Conn(); c.State != Connecting {
		t.Fatalf("before any answer: %+v", c)
	}
	deliver(f, st, run(Batch(hb.Start(), other.Start())))
	if c := f.Conn(); c.State != Connected {
		t.Fatalf("after the first answers: %+v", c)
	}
	down := errors.New("connection refused")
	heart.err, slow.err = down, down
	for range 60 { // a minute of outage, one second at a time
		deliver(f, st, clock.Advance(time.Second))
	}
	if c := f.Conn(); c.State != Retrying || c.Fails < 20 {
		t.Fatalf("the heartbeat kept trying every two seconds at most: %+v", c)
	}
	if other.Fails() > 6 || other.Fails() < 3 {
		t.Fatalf("the other kind backs off (about 2+4+8+16+30 s): %d failures", other.Fails())
	}
	if !st.Freshness(state.KindAccount).Stale {
		t.Fatal("a failing kind is stale")
	}
	heart.err, slow.err = nil, nil
	calls := slow.calls.Load()
	back := clock.Now()
	for f.Conn().State != Connected {
		d, ok := clock.Next()
		if !ok {
			t.Fatal("no timer armed while failing")
		}
		deliver(f, st, clock.Advance(d))
	}
	if took := clock.Now().Sub(back); took > 2*time.Second {
		t.Fatalf("the heartbeat noticed the exchange back after %v, more than two intervals", took)
	}
	if slow.calls.Load() != calls+1 || other.Fails() != 0 || st.Freshness(state.KindAccount).Stale {
		t.Fatalf("the heartbeat's success did not recover the other kind at once: calls %d -> %d, fails %d",
			calls, slow.calls.Load(), other.Fails())
	}
}

// TestQueuedPollAsksForWhatIsShownNow: a poll asked for while a request is out is queued once,
// and built again when asked again (a chart's instrument changed twice while a request was out:
// the last one is fetched, once); a one-off request (a next page) keeps its place in the queue.
func TestQueuedPollAsksForWhatIsShownNow(t *testing.T) {
	clock := NewFakeClock(t0)
	f := New(clock, time.Second, time.Minute)
	shown, asked := "BTC", []string{}
	task := f.Add(Spec{Kind: state.KindChart, Every: func() time.Duration { return time.Minute },
		Request: func() Request {
			sym := shown
			return func(_ context.Context, gen uint64, at time.Time) (state.Msg, error) {
				asked = append(asked, sym)
				return state.ChartMsg{Gen: gen, At: at, Key: state.ChartKey{Symbol: sym}}, nil
			}
		}})
	first := task.Start()
	page := task.Send(func(_ context.Context, gen uint64, at time.Time) (state.Msg, error) {
		asked = append(asked, "page 2")
		return state.ChartMsg{Gen: gen, At: at}, nil
	})
	shown = "ETH"
	task.Poll()
	shown = "SOL"
	task.Poll()
	if page != nil {
		t.Fatal("a one-off request waits for the one out")
	}
	deliver(f, state.New(clock.Now), run(first))
	if got := fmt.Sprint(asked); got != "[BTC page 2 SOL]" {
		t.Fatalf("asked %s, want the first poll, the page, then what is shown now, once", got)
	}
}
