package feed

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// Request is one fetch: it returns the state message (records, or a page) for generation gen,
// asked at at (the feed's clock when the request is sent: the message's At, see state.Order).
type Request func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error)

// Spec describes a task: one kind of data from one source.
type Spec struct {
	Kind state.Kind
	// Every is the wait before the next periodic request.
	Every func() time.Duration
	// Request builds the periodic request for what is shown now; nil (or a nil Request) means
	// nothing to poll now: the task waits Every and asks again.
	Request func() Request
	// Timeout bounds each request; MaxBackoff caps the wait after failures (0: the feed's).
	Timeout    time.Duration
	MaxBackoff time.Duration
	// Heartbeat marks the connection's heartbeat: one light request that, while failing, waits at
	// most two intervals (longer only when the server asks with Retry-After), so the console is
	// fresh again soon after the exchange comes back; the status line reads its state.
	Heartbeat bool
}

// Task is one schedule: one request in flight at most (so replies arrive in the order of their
// generations), a generation per request so a late reply is dropped, the requests asked for
// meanwhile queued, a timer for the next periodic request, and a backoff after failures.
type Task struct {
	f        *Feed
	spec     Spec
	gen      uint64 // generation of the last request sent
	token    uint64 // the live timer's token; a dueMsg with another is superseded
	inFlight bool
	queued   []queuedRequest
	fails    int
	started  bool
	lastOK   time.Time
	follows  []state.Kind // streamed kinds whose records say when this kind changed (Follow)
	round    *round       // the polls the request in flight went out with (nil: it went alone)
}

// queuedRequest is a request waiting for the one in flight; periodic marks the poll, which is
// queued once at most.
type queuedRequest struct {
	r        Request
	periodic bool
}

// Kind is the kind of data the task fetches.
func (t *Task) Kind() state.Kind { return t.spec.Kind }

// Started reports whether periodic polling has begun.
func (t *Task) Started() bool { return t.started }

// Busy reports whether a request is out or queued.
func (t *Task) Busy() bool { return t.inFlight || len(t.queued) > 0 }

// InFlight reports whether a request is out.
func (t *Task) InFlight() bool { return t.inFlight }

// Fails is the number of consecutive failed requests.
func (t *Task) Fails() int { return t.fails }

// SetEvery replaces the task's cadence (configuration and tests).
func (t *Task) SetEvery(every func() time.Duration) { t.spec.Every = every }

// Start begins periodic polling (once).
func (t *Task) Start() Cmd {
	if t.started {
		return nil
	}
	t.started = true
	return t.Poll()
}

// Poll sends the periodic request now; with one in flight, it runs on its reply. Any pending
// timer is superseded.
func (t *Task) Poll() Cmd {
	t.token++
	var r Request
	if t.spec.Request != nil {
		r = t.spec.Request()
	}
	if r == nil {
		return t.schedule(t.every())
	}
	if !t.inFlight {
		return t.Send(r)
	}
	for i, q := range t.queued {
		if q.periodic {
			// Built now, r asks for what is shown now (a chart's new instrument): the older one
			// would fetch what was shown before, and nothing would ask for this.
			t.queued[i].r = r
			return nil
		}
	}
	t.queued = append(t.queued, queuedRequest{r: r, periodic: true})
	return nil
}

// Send runs r now, or after the requests before it (a pane's next page).
func (t *Task) Send(r Request) Cmd {
	if t.inFlight {
		t.queued = append(t.queued, queuedRequest{r: r})
		return nil
	}
	t.inFlight = true
	t.gen++
	t.round = t.f.sending.join()
	gen, at, timeout, kind := t.gen, t.f.clock.Now(), t.spec.Timeout, t.spec.Kind
	now := t.f.clock.Now
	return func() Message {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		start := time.Now()
		var drops api.Drops
		msg, err := r(api.WithDrops(ctx, &drops), gen, at)
		lat := time.Since(start)
		if err != nil {
			msg = state.FailedMsg{Gen: gen, At: now(), Of: kind, Err: err}
		}
		return DoneMsg{t: t, gen: gen, Msg: msg, Err: err, Latency: lat, Dropped: drops.Count(), DropReason: drops.First()}
	}
}

// done takes a reply: it sends the queued request, or arms the next periodic one (after a
// backoff when it failed); the first success after failures recovers the other failing tasks.
func (t *Task) done(msg DoneMsg) Result {
	if msg.gen != t.gen {
		return Result{}
	}
	t.inFlight = false
	t.f.latency = msg.Latency
	hold := t.round.leave(t.f.timerNow())
	t.round = nil
	var cmds []Cmd
	wait := t.every()
	if msg.Err != nil {
		t.fails++
		wait = t.retryWait(msg.Err)
	} else {
		if t.fails > 0 {
			cmds = append(cmds, t.f.recover(t))
		}
		t.fails = 0
		t.lastOK = t.f.clock.Now()
	}
	if len(t.queued) > 0 {
		q := t.queued[0]
		t.queued = t.queued[1:]
		cmds = append(cmds, t.Send(q.r))
	} else {
		cmds = append(cmds, t.schedule(wait))
	}
	return Result{Kind: t.spec.Kind, Msg: msg.Msg, Err: msg.Err, Cmd: Batch(cmds...), Dropped: msg.Dropped,
		DropReason: msg.DropReason, Hold: hold}
}

// Cadence is the wait before the next periodic request (the stream's reconcile while a stream
// carries the kind).
func (t *Task) Cadence() time.Duration { return t.every() }

// every is the wait before the next periodic request; a task that has a stream up only
// reconciles, the market data's more slowly (the heartbeat watches their topics).
func (t *Task) every() time.Duration {
	if t.f.Streaming(t.spec.Kind) && isMarketKind(t.spec.Kind) {
		return t.f.src.src.MarketReconcile
	}
	if t.f.Streaming(t.spec.Kind) || t.followsStream() {
		return t.f.src.src.Reconcile
	}
	if t.spec.Every == nil {
		return time.Minute
	}
	return t.spec.Every()
}

// Follow says that kinds' streamed records are how a change of the task's kind is noticed (a
// closed order comes with the orders stream, and the pane polls on it): while the stream carries
// all of them, the task only reconciles, as a streamed kind's poll does. It returns t.
func (t *Task) Follow(kinds ...state.Kind) *Task {
	t.follows = kinds
	return t
}

// Streamed reports whether the task's records come with the stream now: its kind streams, or
// every kind it follows does (a list that merges what they bring needs no poll to hear of it).
func (t *Task) Streamed() bool { return t.f.Streaming(t.spec.Kind) || t.followsStream() }

func (t *Task) followsStream() bool {
	for _, k := range t.follows {
		if !t.f.Streaming(k) {
			return false
		}
	}
	return len(t.follows) > 0
}

// retryWait is the wait after a failure: the backoff, bounded for the heartbeat.
func (t *Task) retryWait(err error) time.Duration {
	wait := Backoff(t.every(), t.fails, t.spec.MaxBackoff, err)
	if !t.spec.Heartbeat {
		return wait
	}
	return HeartbeatWait(t.every(), wait, err)
}

// schedule arms the task's next periodic request after d, superseding any pending timer.
func (t *Task) schedule(d time.Duration) Cmd {
	t.token++
	return t.f.arm(t, d, dueMsg{t: t, token: t.token})
}

// Backoff is the wait before retrying after n consecutive failures: the interval doubled per
// failure, capped at maxWait, with up to 20% jitter, and never less than what the server asked
// (Retry-After).
func Backoff(every time.Duration, n int, maxWait time.Duration, err error) time.Duration {
	d := every
	for i := 0; i < n && d < maxWait; i++ {
		d *= 2
	}
	d = min(d, maxWait)
	d += time.Duration(rand.Int64N(int64(d)/5 + 1))
	if e, ok := api.AsError(err); ok && e.RetryAfter > d {
		d = e.RetryAfter
	}
	return d
}

// HeartbeatWait bounds the heartbeat's wait after a failure to two of its intervals, unless the
// server asked for longer (Retry-After).
func HeartbeatWait(every, wait time.Duration, err error) time.Duration {
	limit := 2 * every
	if e, ok := api.AsError(err); ok && e.RetryAfter > limit {
		return wait
	}
	return min(wait, limit)
}

// SetLimits replaces the task's request timeout and backoff cap (configuration and tests).
func (t *Task) SetLimits(timeout, maxBackoff time.Duration) {
	t.spec.Timeout, t.spec.MaxBackoff = timeout, maxBackoff
}

// Gen is the generation of the task's last request.
func (t *Task) Gen() uint64 { return t.gen }

// Reply is the reply to the task's request of generation gen, as if it had come back with msg
// and err: for benchmarks and tests that feed data without a request.
func (t *Task) Reply(gen uint64, msg state.Msg, err error) DoneMsg {
	if err != nil && msg == nil {
		msg = state.FailedMsg{Gen: gen, At: t.f.clock.Now(), Of: t.spec.Kind, Err: err}
	}
	return DoneMsg{t: t, gen: gen, Msg: msg, Err: err}
}
