package feed

import "time"

// RoundWait is how long after the polls of one wake went out a reply may be held for the others
// (Result.Hold): on loopback they come back within a few milliseconds of each other, and drawn as
// they came they were two or three frames a round where one does (issue #34: the polling demo
// drew three frames a second, each a whole View).
const RoundWait = 50 * time.Millisecond

// round is the polls that went out in one wake of the feed's timer, until each has its reply.
type round struct {
	sent    time.Time
	pending int // requests of the round without a reply yet
}

// join counts one more request in r (nil: the request goes out alone) and returns r.
func (r *round) join() *round {
	if r != nil {
		r.pending++
	}
	return r
}

// leave counts a reply of r's and says whether the front end may hold it for the rest of the
// round: others are still out and the round went out less than RoundWait before now. Past that,
// each reply is drawn as it comes.
func (r *round) leave(now time.Time) bool {
	if r == nil {
		return false
	}
	r.pending--
	return r.pending > 0 && now.Sub(r.sent) < RoundWait
}

// timerNow is the time the feed's timers run on (the console's clock when it has no timer of
// its own).
func (f *Feed) timerNow() time.Time {
	if tc, ok := f.clock.(timerClock); ok {
		return tc.timerNow()
	}
	return f.clock.Now()
}
