package feed

import (
	"time"

	"github.com/tradedesk/tradedesk/state"
)

// Feed is the console's one scheduler: every task (a kind of data from one source) is registered
// here, and every timer and reply goes through Update. It lives in the root model's goroutine:
// only Update calls it, so it needs no lock.
type Feed struct {
	clock      Clock
	timeout    time.Duration
	maxBackoff time.Duration
	tasks      []*Task
	byKind     map[state.Kind]*Task
	heart      *Task
	latency    time.Duration
	src        *streamSource // the stream beside the polls, if any
	wake       wakeList      // the tasks' and the heartbeat's timers, on one clock timer
	sending    *round        // the round the requests sent now join (set while a wake runs)
}

// New returns a feed on clock whose requests time out after timeout and back off at most
// maxBackoff (a task's Spec may say otherwise).
func New(clock Clock, timeout, maxBackoff time.Duration) *Feed {
	return &Feed{clock: clock, timeout: timeout, maxBackoff: maxBackoff, byKind: map[state.Kind]*Task{}}
}

// Clock is the feed's clock.
func (f *Feed) Clock() Clock { return f.clock }

// After is a timer on the feed's clock for a pane's own use (a price flash ending): msg is
// delivered once d has passed.
func (f *Feed) After(d time.Duration, msg Message) Cmd { return f.clock.After(d, msg) }

// AfterFor is After as owner's one timer: it supersedes owner's earlier one, which is never
// delivered (a price flash's end moved to a later change), and it waits on the feed's one clock
// timer with the polls.
func (f *Feed) AfterFor(owner any, d time.Duration, msg Message) Cmd {
	return f.arm(owner, d, ownMsg{msg})
}

// Cancel drops owner's timer set with AfterFor, if one is pending: its message is never delivered,
// and the one clock timer moves to the next due (a kept-back read that a change read first wakes
// nothing). The command it returns, if any, must be run. On a clock without a re-armable timer
// the timer's message still comes.
func (f *Feed) Cancel(owner any) Cmd {
	tc, ok := f.clock.(timerClock)
	if !ok {
		return nil
	}
	n := len(f.wake.entries)
	if f.wake.entries = dropOwner(f.wake.entries, owner); len(f.wake.entries) == n {
		return nil
	}
	return f.rearm(tc)
}

// ownMsg is a pane's timer (AfterFor) on the feed's list: due, it delivers msg.
type ownMsg struct{ msg Message }

func (ownMsg) isFeedMsg() {}

// Add registers a task. The first task of a kind is the one Refresh polls; a Heartbeat task is the
// one the connection state is read from.
func (f *Feed) Add(s Spec) *Task {
	if s.Timeout <= 0 {
		s.Timeout = f.timeout
	}
	if s.MaxBackoff <= 0 {
		s.MaxBackoff = f.maxBackoff
	}
	t := &Task{f: f, spec: s}
	f.tasks = append(f.tasks, t)
	if _, ok := f.byKind[s.Kind]; !ok {
		f.byKind[s.Kind] = t
	}
	if s.Heartbeat {
		f.heart = t
	}
	return t
}

// Task returns the task that polls kind k (the first registered), or nil.
func (f *Feed) Task(k state.Kind) *Task { return f.byKind[k] }

// Tasks returns every task, in the order they were added.
func (f *Feed) Tasks() []*Task { return f.tasks }

// Refresh polls the given kinds at once (after an action, on the refresh key), each that has
// started; one already in flight runs again on its reply.
func (f *Feed) Refresh(kinds ...state.Kind) Cmd {
	var cmds []Cmd
	for _, k := range kinds {
		if t := f.byKind[k]; t != nil && t.started {
			cmds = append(cmds, t.Poll())
		}
	}
	return Batch(cmds...)
}

// RefreshAll polls every started task at once (the refresh key): the root's polls and the panes'
// own (fills, history, the chart), so nothing shown waits for its interval.
func (f *Feed) RefreshAll() Cmd {
	var cmds []Cmd
	for _, t := range f.tasks {
		if t.started {
			cmds = append(cmds, t.Poll())
		}
	}
	return Batch(cmds...)
}

// Busy reports whether any request is out or queued.
func (f *Feed) Busy() bool {
	for _, t := range f.tasks {
		if t.Busy() {
			return true
		}
	}
	return false
}

// Msg is a message of the feed (a timer that ran out, a request's reply); the root model hands
// every one to Update.
type Msg interface{ isFeedMsg() }

// dueMsg fires when a task's timer runs out; a token other than the task's is a superseded timer.
type dueMsg struct {
	t     *Task
	token uint64
}

// DoneMsg is one request's reply.
type DoneMsg struct {
	t       *Task
	gen     uint64
	Msg     state.Msg // the records, or a state.FailedMsg
	Err     error
	Latency time.Duration
	// Dropped is how many rows of the answer did not decode and were left out (the rest are in
	// Msg); DropReason says why the first was (api.Drops).
	Dropped    int
	DropReason string
}

// Kind is the kind of data the reply carries.
func (m DoneMsg) Kind() state.Kind { return m.t.spec.Kind }

// Current reports whether the reply answers its task's latest request (an older one is dropped).
func (m DoneMsg) Current() bool { return m.gen == m.t.gen }

// Task is the task whose request this answers.
func (m DoneMsg) Task() *Task { return m.t }

func (dueMsg) isFeedMsg()  {}
func (DoneMsg) isFeedMsg() {}

// Result is what Update asks of the root model: apply Msg to the store (nil: nothing to apply),
// then Msgs (a stream's batch, in order), show Err, and run Cmd.
type Result struct {
	Kind state.Kind
	Msg  state.Msg
	Msgs []state.Msg
	Err  error
	Cmd  Cmd
	// Dropped and DropReason: the bad rows left out of Msg (see DoneMsg).
	Dropped    int
	DropReason string
	// Hold says more replies of the polls that went out with this one (one wake of the feed's
	// timer) are due within RoundWait of their sending: a front end that draws may keep this
	// one off the screen until a Result without Hold, and draw the round as one frame. Any
	// other Result has no Hold.
	Hold bool
}

// Update takes a feed message: a timer starts its task's next poll; a reply comes back as the
// state message to apply, and arms what follows (the queued request, the next poll, a backoff,
// the recovery of the other failing tasks).
func (f *Feed) Update(msg Msg) Result {
	switch msg := msg.(type) {
	case dueMsg:
		if msg.token != msg.t.token {
			return Result{}
		}
		return Result{Cmd: msg.t.Poll()}
	case DoneMsg:
		return msg.t.done(msg)
	case sourceMsg:
		if f.src == nil {
			return Result{}
		}
		return f.sourceUpdate(msg)
	case stallMsg:
		return f.stallCheck(msg)
	case subscribedMsg:
		return Result{Cmd: f.subscribed(msg)}
	case wakeMsg:
		return f.woken(msg)
	case ownMsg:
		return Result{Cmd: func() Message { return msg.msg }}
	}
	return Result{}
}

// NoteLatency records a round trip measured elsewhere (a signed action) for the status line.
func (f *Feed) NoteLatency(d time.Duration) { f.latency = d }

// recover polls at once, with their backoff reset, every started task other than except whose
// last request failed and which has none out: the exchange answered again.
func (f *Feed) recover(except *Task) Cmd {
	var cmds []Cmd
	for _, t := range f.tasks {
		if t != except && t.started && t.fails > 0 && !t.inFlight {
			t.fails = 0
			cmds = append(cmds, t.Poll())
		}
	}
	return Batch(cmds...)
}

// ConnState is how the console's connection to the exchange stands.
type ConnState int

// Connection states.
const (
	Offline    ConnState = iota // no heartbeat task
	Connecting                  // no answer yet
	Connected                   // the heartbeat's last request succeeded
	Retrying                    // the heartbeat's last requests failed; Fails says how many
)

// Conn is the connection as the status line shows it.
type Conn struct {
	State   ConnState
	Fails   int           // consecutive failures of the heartbeat (Retrying)
	Latency time.Duration // the last round trip measured
	Stream  bool          // a stream is up (polling is only reconciling)
	// HasStream says the console has a stream source; StreamErr is why it is down (nil: not yet
	// connected, or up).
	HasStream bool
	StreamErr error
	// Stalled says which market topics are silent with the stream up, and how long ("ticker
	// stream silent 5s"): their kinds are polled meanwhile. "" when none is.
	Stalled string
}

// Conn reads the connection state from the heartbeat task.
func (f *Feed) Conn() Conn {
	c := Conn{Latency: f.latency}
	if f.src != nil {
		c.HasStream, c.Stream, c.StreamErr = true, f.src.up, f.src.err
		if f.src.up {
			c.Stalled = f.src.stalled(f.clock.Now())
		}
	}
	switch h := f.heart; {
	case h == nil:
		c.State = Offline
	case h.fails > 0:
		c.State, c.Fails = Retrying, h.fails
	case h.lastOK.IsZero():
		c.State = Connecting
	default:
		c.State = Connected
	}
	return c
}
