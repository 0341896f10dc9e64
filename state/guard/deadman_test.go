package guard

import (
	"testing"
	"time"
)

// TestDeadManFiresOnceAfterMissedHeartbeats: with a stepped clock, the switch does not fire while
// heartbeats come within its span, fires once the span passes without one, never again until it
// is armed anew, and a disarmed switch never fires.
func TestDeadManFiresOnceAfterMissedHeartbeats(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var d DeadMan
	d.Arm(30*time.Second, t0)
	for i := 1; i <= 10; i++ {
		now := t0.Add(time.Duration(i) * 20 * time.Second)
		if d.Due(now) {
			t.Fatalf("fired at %v with a heartbeat every 20s", now.Sub(t0))
		}
		d.Beat(now)
	}
	last := t0.Add(200 * time.Second)
	if st := d.State(last.Add(10 * time.Second)); !st.Armed || st.Left != 20 {
		t.Fatalf("state 10s after the last heartbeat: %+v", st)
	}
	if d.Due(last.Add(29 * time.Second)) {
		t.Fatal("fired 29s after the last heartbeat")
	}
	if !d.Due(last.Add(30 * time.Second)) {
		t.Fatal("did not fire 30s after the last heartbeat")
	}
	for _, s := range []time.Duration{31, 60, 3600} {
		if d.Due(last.Add(s * time.Second)) {
			t.Fatalf("fired a second time at +%ds", s)
		}
	}
	if st := d.State(last.Add(time.Hour)); st.Armed || st.Fired == nil {
		t.Fatalf("state after firing: %+v", st)
	}
	d.Arm(10*time.Second, last.Add(time.Hour))
	if !d.Due(last.Add(time.Hour + 10*time.Second)) {
		t.Fatal("re-armed, it did not fire")
	}
	d.Arm(0, last)
	if d.Due(last.Add(100 * time.Hour)) {
		t.Fatal("a disarmed switch fired")
	}
}

// TestDeadManLostExchange: the exchange lost for less than the span and reached again does not
// fire; lost for the span or longer fires once; disarmed, nothing fires.
func TestDeadManLostExchange(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var d DeadMan
	if d.Lost(t0, t0.Add(time.Hour)) {
		t.Fatal("disarmed, it fired")
	}
	d.Arm(10*time.Second, t0)
	if d.Lost(t0, t0.Add(9*time.Second)) {
		t.Fatal("lost 9s of 10s: it fired")
	}
	if !d.Lost(t0.Add(time.Second), t0.Add(11*time.Second)) {
		t.Fatal("lost 10s of 10s: it did not fire")
	}
	if d.Lost(t0, t0.Add(time.Hour)) || d.Due(t0.Add(time.Hour)) {
		t.Fatal("it fired twice in one arming")
	}
	if st := d.State(t0.Add(time.Hour)); st.Armed || st.Fired == nil {
		t.Fatalf("state after firing: %+v", st)
	}
}
