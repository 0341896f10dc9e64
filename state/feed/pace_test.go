package feed

import (
	"testing"
	"time"
)

// Three batches may come back to back (an order's record a few milliseconds after the market's
// step, in two batches, is not held a frame), the fourth waits for the frame, and a steady stream
// comes one a frame.
func TestBatchesComeThreeAtOnceThenOneAFrame(t *testing.T) {
	const frame = 30 * time.Millisecond
	var p pace
	t0 := time.Unix(1_700_000_000, 0)
	for i, at := range []time.Duration{0, 2 * time.Millisecond, 3 * time.Millisecond} {
		if w := p.wait(t0.Add(at), frame); w != 0 {
			t.Fatalf("batch %d waits %v, want none", i+1, w)
		}
		p.spend(t0.Add(at), frame)
	}
	if w := p.wait(t0.Add(6*time.Millisecond), frame); w < 20*time.Millisecond || w > 25*time.Millisecond {
		t.Fatalf("the fourth batch within the frame waits %v, want the rest of the frame (24ms)", w)
	}
	now := t0.Add(30 * time.Millisecond)
	taken := 0
	for ; now.Before(t0.Add(330 * time.Millisecond)); now = now.Add(time.Millisecond) {
		if p.wait(now, frame) == 0 {
			p.spend(now, frame)
			taken++
		}
	}
	if taken < 10 || taken > 11 {
		t.Fatalf("%d batches taken in 10 frames of records arriving every millisecond, want one a frame", taken)
	}
	if w := p.wait(now.Add(time.Second), frame); w != 0 {
		t.Fatalf("after a quiet second a batch waits %v, want none", w)
	}
}
