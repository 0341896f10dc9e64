package feed

import (
	"context"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/state"
)

// TestRunDeliversEveryMessageInTurn: Run, the loop without a screen, runs a batch's commands,
// hands every message to deliver one at a time, runs what deliver returns, and ends when nothing
// is left running.
func TestRunDeliversEveryMessageInTurn(t *testing.T) {
	var got []int
	inDeliver := false
	n := func(i int) Cmd { return func() Message { return i } }
	err := Run(context.Background(), Batch(n(1), n(2), nil, Batch(n(3))), func(m Message) Cmd {
		if inDeliver {
			t.Fatal("deliver ran twice at once")
		}
		inDeliver = true
		defer func() { inDeliver = false }()
		i := m.(int)
		got = append(got, i)
		if i < 3 {
			return n(i + 10)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 {
		t.Fatalf("delivered %v, want 1, 2, 3, 11 and 12 in some order", got)
	}
	seen := map[int]bool{}
	for _, i := range got {
		seen[i] = true
	}
	for _, i := range []int{1, 2, 3, 11, 12} {
		if !seen[i] {
			t.Errorf("%d never delivered (got %v)", i, got)
		}
	}
}

// TestRunDrivesAFeedWithoutAScreen: a feed task polled through Run on a real clock delivers its
// reply to the store with no Bubble Tea in the loop, and Run stops when its context ends.
func TestRunDrivesAFeedWithoutAScreen(t *testing.T) {
	f := New(NewRealClock(nil), time.Second, time.Second)
	st := state.New(time.Now)
	src := &source{}
	task := newTask(f, src, 10*time.Millisecond, false)
	ctx, cancel := context.WithCancel(context.Background())
	applied := 0
	err := Run(ctx, task.Start(), func(m Message) Cmd {
		fm, ok := m.(Msg)
		if !ok {
			return nil
		}
		r := f.Update(fm)
		if r.Msg != nil {
			st.Apply(r.Msg)
			applied++
		}
		if applied == 3 {
			cancel()
		}
		return r.Cmd
	})
	if err != context.Canceled {
		t.Fatalf("Run ended with %v, want its context's cancel", err)
	}
	if applied < 3 || src.calls.Load() < 3 {
		t.Fatalf("%d replies applied of %d requests, want 3 of 3", applied, src.calls.Load())
	}
}
