package guard

import "time"

// DeadMan is the client-side dead-man's switch: armed with a span, it fires when no heartbeat
// came for that span, and at most once per arming. It reads no clock of its own: every call is
// given the time, so a test steps it.
type DeadMan struct {
	after   time.Duration
	last    time.Time
	fired   bool
	firedAt time.Time
}

// Arm arms the switch for after (0 disarms it) and counts now as a heartbeat; a fired switch is
// armed anew.
func (d *DeadMan) Arm(after time.Duration, now time.Time) {
	*d = DeadMan{after: after, last: now}
}

// Beat records a heartbeat at now.
func (d *DeadMan) Beat(now time.Time) {
	if now.After(d.last) {
		d.last = now
	}
}

// Due reports whether the switch fires at now: armed, not fired since it was armed, and no
// heartbeat for its span. It reports true once; the switch is then spent until armed again.
func (d *DeadMan) Due(now time.Time) bool {
	if d.after <= 0 || d.fired || now.Sub(d.last) < d.after {
		return false
	}
	d.fired, d.firedAt = true, now
	return true
}

// Lost reports whether the switch fires at now for an exchange lost since since and reached
// again: armed, not fired since it was armed, and lost for its span or longer. Like Due it
// reports true once.
func (d *DeadMan) Lost(since, now time.Time) bool {
	if d.after <= 0 || d.fired || now.Sub(since) < d.after {
		return false
	}
	d.fired, d.firedAt = true, now
	return true
}

// Span is the switch's span (0: disarmed).
func (d *DeadMan) Span() time.Duration { return d.after }

// DeadManState is the switch as status shows it.
type DeadManState struct {
	Armed bool `json:"armed"`
	// Flatten says the switch also closes every position.
	Flatten bool `json:"flatten,omitempty"`
	// After is the span, in seconds.
	After float64 `json:"after_s,omitempty"`
	// Left is how long until it fires without a heartbeat, in seconds (0 once fired).
	Left          float64    `json:"left_s,omitempty"`
	LastHeartbeat *time.Time `json:"last_heartbeat,omitempty"`
	Fired         *time.Time `json:"fired,omitempty"`
}

// State is the switch at now.
func (d *DeadMan) State(now time.Time) DeadManState {
	if d.after <= 0 {
		return DeadManState{}
	}
	last := d.last
	s := DeadManState{Armed: !d.fired, After: d.after.Seconds(), LastHeartbeat: &last}
	if d.fired {
		at := d.firedAt
		s.Fired = &at
		return s
	}
	s.Left = max(d.after-now.Sub(d.last), 0).Seconds()
	return s
}
