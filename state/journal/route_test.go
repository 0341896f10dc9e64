package journal

import (
	"context"
	"testing"
	"time"
)

// TestRouteStampsMergeFirstSeen (issue #41): an order's route is written as its points are
// passed (the executor's signed and answered, the console's keystroke, stream and screen), each
// stamp kept to the nanosecond, the first kept when one is written twice. Guards: a later write
// wiping the stamps of an earlier one, stamps rounded to milliseconds (the legs would no longer
// add up).
func TestRouteStampsMergeFirstSeen(t *testing.T) {
	ctx := context.Background()
	j := open(t)
	t0 := time.Unix(1_780_000_000, 123_456_789).UTC()
	if err := j.SetRoute(ctx, Route{ID: "c1", Signed: t0.Add(3 * time.Millisecond), Answered: t0.Add(40_123_001)}); err != nil {
		t.Fatal(err)
	}
	if err := j.SetRoute(ctx, Route{ID: "c1", Keystroke: t0, Signed: t0.Add(time.Hour), Streamed: t0.Add(41 * time.Millisecond), Shown: t0.Add(58 * time.Millisecond)}); err != nil {
		t.Fatal(err)
	}
	got, err := j.Routes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := Route{ID: "c1", Keystroke: t0, Signed: t0.Add(3 * time.Millisecond), Answered: t0.Add(40_123_001),
		Streamed: t0.Add(41 * time.Millisecond), Shown: t0.Add(58 * time.Millisecond)}
	if got["c1"] != want || len(got) != 1 {
		t.Fatalf("routes %+v, want %+v", got, want)
	}
}
