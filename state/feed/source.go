package feed

import (
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// Source is a stream beside the polls (the exchange's WebSocket, issue #10): one connection that
// carries records of several kinds. Its records take the same route as polled ones: Message turns
// each into its kind's upsert, and Update hands them to the root to apply. A command waits for
// the next batch, at most one a Frame after two back to back, so a busy market cannot flood the
// update loop. While the
// stream is up, the polls of its Kinds only reconcile (every Reconcile, the market data's every
// MarketReconcile, and every kind once right after the stream comes up); while it is down they
// run at their own cadence, and Conn says why.
type Source struct {
	// Inbox is where the stream's records arrive.
	Inbox *api.Inbox
	// Message turns one record, received at at, into the state message to apply (nil: none).
	Message func(ev api.StreamEvent, at time.Time) state.Msg
	// Kinds are the kinds the stream carries.
	Kinds []state.Kind
	// Quiet are the kinds among them whose records come only on a change (an account's): while
	// the stream is up they are current with no record, so when it goes down they are vouched
	// for as of then (state.CurrentMsg), and their age counts from there, not from the last
	// reconcile poll.
	Quiet []state.Kind
	// Reconcile is their polls' cadence while the stream is up.
	Reconcile time.Duration
	// MarketReconcile is the cadence of the market data's polls (tickers, mids, books, trades)
	// while the stream is up and their topics are not stalled (0: ten Reconciles). Their topics
	// send all the time, so the heartbeat (heard) finds one gone silent within seconds and polls
	// its kinds at once; a reconcile pass adds nothing it would not (issue #34).
	MarketReconcile time.Duration
	// Frame paces the batches: two may come back to back, then one a Frame (0: 16 ms, about 60
	// a second).
	Frame time.Duration
	// Kind names the kind of a topic's records, for the word on the rows a batch left out
	// (Result.Dropped); nil: the batch's drops are not reported.
	Kind func(api.Topic) state.Kind
	// Drop says why a record is left out before it becomes a message ("" keeps it); it is
	// counted and named with the batch's bad rows. nil keeps every record.
	Drop func(ev api.StreamEvent) string
	// Resubscribe subscribes a market channel that went silent again (api.Stream.Resubscribe;
	// it runs in a command), and Topics are the topics subscribed now (api.Stream.Topics): a
	// silent topic no longer subscribed is not stalled. nil: neither (see the heartbeat, heard).
	Resubscribe func(channel string)
	Topics      func() []api.Topic
}

// streamSource is the feed's stream source and its state.
type streamSource struct {
	src   Source
	kinds map[state.Kind]bool
	up    bool
	epoch uint64
	err   error
	pace  pace // the batches that may come at once (wall time)
	// The market topics' heartbeats (Feed.heard), and the timer that checks them.
	beats      map[api.Topic]*beat
	stallAt    time.Time
	stallToken uint64
	sleep      func(time.Duration) // time.Sleep; tests count the waits
}

// sourceMsg is one batch of the stream: records, and the connection's status when it changed.
type sourceMsg struct{ batch api.StreamBatch }

func (sourceMsg) isFeedMsg() {}

// AddSource gives the feed its stream source; StartSource starts waiting for it.
func (f *Feed) AddSource(src Source) {
	if src.Frame <= 0 {
		src.Frame = 16 * time.Millisecond
	}
	if src.Reconcile <= 0 {
		src.Reconcile = 30 * time.Second
	}
	if src.MarketReconcile <= 0 {
		src.MarketReconcile = 10 * src.Reconcile
	}
	s := &streamSource{src: src, kinds: map[state.Kind]bool{}, sleep: time.Sleep}
	for _, k := range src.Kinds {
		s.kinds[k] = true
	}
	f.src = s
}

// StartSource is the command that waits for the source's first batch (nil without a source).
func (f *Feed) StartSource() Cmd {
	if f.src == nil {
		return nil
	}
	return f.src.wait()
}

// Streaming reports whether kind k comes from a stream that is up (its poll only reconciles): not
// while a topic of its records is stalled (silent with the connection up: see heard).
func (f *Feed) Streaming(k state.Kind) bool {
	return f.src != nil && f.src.up && f.src.kinds[k] && !f.src.stalledKind(k)
}

// wait waits for the next batch: the records queued when the first comes are taken at once,
// with no timer (issue #34: a 1 ms sleep to gather the rest of the exchange's burst was a timer
// wake a batch, and split the idle console's once-a-second work in two, each waking threads);
// a burst's records that arrive while the batch is applied make the next, drawn at once too
// (burst). One that comes while the pace allows none (two batches back to back, then one a
// frame) waits for it, so what arrives meanwhile joins it.
func (s *streamSource) wait() Cmd {
	in, frame, p, sleep := s.src.Inbox, s.src.Frame, s.pace, s.sleep
	return func() Message {
		<-in.Ready()
		if d := p.wait(time.Now(), frame); d > 0 {
			sleep(d)
		}
		return sourceMsg{batch: in.Drain()}
	}
}

// burst is how many batches may come at once, back to back, before the frame paces them: an
// order's record a few milliseconds after the market's step is taken at once, not a frame later,
// also when the step came in two parts (a batch takes what is queued, with no gather: issue #34).
const burst = 3

// pace is the batches that may come at once (a token bucket: burst at most, one more a frame).
type pace struct {
	held float64 // batches that may come at once, as of at
	at   time.Time
}

// now is how many batches may come at once at t.
func (p pace) now(t time.Time, frame time.Duration) float64 {
	if p.at.IsZero() {
		return burst
	}
	return min(burst, p.held+float64(t.Sub(p.at))/float64(frame))
}

// wait is how long from t until a batch may come (0: at once).
func (p pace) wait(t time.Time, frame time.Duration) time.Duration {
	if h := p.now(t, frame); h < 1 {
		return time.Duration((1 - h) * float64(frame))
	}
	return 0
}

// spend takes a batch taken at t from the allowance.
func (p *pace) spend(t time.Time, frame time.Duration) { p.held, p.at = p.now(t, frame)-1, t }

// update takes a batch: its records become state messages; a change of the connection hands the
// kinds to their polls (down) or reconciles them once (up).
func (f *Feed) sourceUpdate(msg sourceMsg) Result {
	s := f.src
	s.pace.spend(time.Now(), s.src.Frame)
	at := f.clock.Now()
	b := msg.batch
	msgs := make([]state.Msg, 0, len(b.Events))
	heard := map[api.Topic]bool{}
	for _, ev := range b.Events {
		if s.src.Drop != nil {
			if why := s.src.Drop(ev); why != "" {
				if b.Dropped == 0 {
					b.DropReason, b.DropTopic = why, ev.Topic
				}
				b.Dropped++
				continue
			}
		}
		heard[ev.Topic] = true
		if m := s.src.Message(ev, at); m != nil {
			msgs = append(msgs, m)
		}
	}
	var cmds []Cmd
	if b.StatusChanged {
		wasUp := s.up
		cmds = append(cmds, f.sourceStatus(b.Status))
		if wasUp && !s.up {
			for _, k := range s.src.Quiet {
				msgs = append(msgs, state.CurrentMsg{Of: k, At: at})
			}
		}
	}
	if s.up {
		cmds = append(cmds, f.heard(heard, at))
	}
	cmds = append(cmds, s.wait())
	r := Result{Msgs: msgs, Cmd: Batch(cmds...)}
	if b.Dropped > 0 && s.src.Kind != nil {
		r.Kind, r.Dropped, r.DropReason = s.src.Kind(b.DropTopic), b.Dropped, b.DropReason
	}
	return r
}

// sourceStatus follows the connection: up (a new connection) reconciles every kind once, then
// their polls slow down; down makes them poll now and at their own cadence. A task that follows
// streamed kinds (Task.Follow) takes its new cadence at once (refollow).
func (f *Feed) sourceStatus(st api.StreamStatus) Cmd {
	s := f.src
	if !st.Up || st.Epoch != s.epoch { // a new connection learns its topics' intervals again
		s.beats, s.stallAt = nil, time.Time{}
		s.stallToken++
	}
	before := f.following()
	var cmd Cmd
	switch {
	case st.Up && (!s.up || st.Epoch != s.epoch):
		s.up, s.epoch, s.err = true, st.Epoch, nil
		cmd = f.pollKinds()
	case !st.Up:
		wasUp := s.up
		s.up, s.err = false, st.Err
		if wasUp {
			cmd = f.pollKinds()
		}
	}
	return Batch(cmd, f.refollow(before))
}

// following is which started tasks that follow streamed kinds have the stream carry them all now.
func (f *Feed) following() map[*Task]bool {
	on := map[*Task]bool{}
	for _, t := range f.tasks {
		if t.started && len(t.follows) > 0 {
			on[t] = t.followsStream()
		}
	}
	return on
}

// refollow re-arms, at its new cadence from now, the timer of each idle task whose followed kinds
// started or stopped streaming since before (following): the order history answered before the
// stream came up had its next poll armed at its own 5 s, and polled once more while the stream
// was up (issue #33); a task that fails keeps its backoff, one with a request out arms on its reply.
func (f *Feed) refollow(before map[*Task]bool) Cmd {
	var cmds []Cmd
	for _, t := range f.tasks { // in the order added: timers due together fire in that order
		if was, ok := before[t]; ok && t.followsStream() != was && !t.Busy() && t.fails == 0 {
			cmds = append(cmds, t.schedule(t.every()))
		}
	}
	return Batch(cmds...)
}

// pollKinds polls now every started task of the source's kinds.
func (f *Feed) pollKinds() Cmd {
	var cmds []Cmd
	for _, t := range f.tasks {
		if t.started && f.src.kinds[t.spec.Kind] {
			cmds = append(cmds, t.Poll())
		}
	}
	return Batch(cmds...)
}
