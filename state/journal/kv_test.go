package journal

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// watched is a context that can be cancelled and counts how often its Done is asked for: what
// database/sql and the driver ask before they start a goroutine to watch it.
type watched struct {
	context.Context
	asked *atomic.Int64
}

func (w watched) Done() <-chan struct{} {
	w.asked.Add(1)
	return w.Context.Done()
}

// TestTheRiskRecordIsReadAndWrittenUncut: the risk record's read and write (Value, SetValue),
// which the idle console makes every few seconds, never ask their context for Done, so neither
// database/sql nor the driver starts a goroutine to watch it (issue #34), and they still read
// and write the file; a context already ended still fails them.
func TestTheRiskRecordIsReadAndWrittenUncut(t *testing.T) {
	j := open(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	w := watched{ctx, new(atomic.Int64)}
	for i := range 5 {
		if err := j.SetValue(w, "risk", fmt.Sprint(i)); err != nil {
			t.Fatal(err)
		}
		v, ok, err := j.Value(w, "risk")
		if err != nil || !ok || v != fmt.Sprint(i) {
			t.Fatalf("Value after SetValue %d: %q %v %v", i, v, ok, err)
		}
	}
	if _, _, err := j.Value(w, "none"); err != nil {
		t.Fatal(err)
	}
	if n := w.asked.Load(); n != 0 {
		t.Fatalf("the record's reads and writes asked their context for Done %d times: each may start a watcher goroutine", n)
	}
	cancel()
	if _, _, err := j.Value(ctx, "risk"); err == nil {
		t.Fatal("a read under an ended context succeeded")
	}
	if err := j.SetValue(ctx, "risk", "x"); err == nil {
		t.Fatal("a write under an ended context succeeded")
	}
}
