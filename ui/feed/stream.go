package feed

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
)

// Stream is a source that pushes records (a WebSocket channel, issue #10), in go-ethereum's shape:
// Subscribe sends records to a channel until the subscription ends. It plugs into a task beside
// its poll (Task.AddStream), so streamed records take the same route as polled ones: the feed
// turns each into the kind's upsert message and Update hands it to the root to apply. While the
// stream is up the task's poll only reconciles (every Reconcile); when the stream fails, the poll
// takes over at once at its own cadence and the stream subscribes again after a backoff.
type Stream struct {
	// Subscribe starts the subscription: records go to out until ctx ends or it fails.
	Subscribe func(ctx context.Context, out chan<- Record) (Subscription, error)
	// Message turns one record, received at at, into the kind's upsert message (for example
	// state.OrderUpdateMsg with the record's sequence number).
	Message func(r Record, at time.Time) state.Msg
	// Reconcile is the poll's cadence while the stream is up.
	Reconcile time.Duration
}

// Record is one streamed record: the exchange's sequence number (0: none) and the data.
type Record struct {
	Seq  uint64
	Data any
}

// Subscription is a live stream: Err delivers why it ended; Unsubscribe ends it.
type Subscription interface {
	Unsubscribe()
	Err() <-chan error
}

// stream is a task's stream source and its state.
type stream struct {
	t      *Task
	src    Stream
	up     bool
	fails  int
	sub    Subscription
	ch     chan Record
	epoch  uint64 // the subscription the messages belong to; older ones are dropped
	cancel context.CancelFunc
}

// streamMsg is a stream's event: subscribed (sub set), a record, or the end (err set).
type streamMsg struct {
	s      *stream
	epoch  uint64
	sub    Subscription
	rec    *Record
	err    error
	resubs bool // the backoff before subscribing again ran out
}

func (streamMsg) isFeedMsg() {}

// AddStream gives the task a stream source beside its poll; StartStream subscribes.
func (t *Task) AddStream(src Stream) { t.stream = &stream{t: t, src: src} }

// StartStream subscribes the task's stream (nil when it has none).
func (t *Task) StartStream() tea.Cmd {
	if t.stream == nil {
		return nil
	}
	return t.stream.subscribe()
}

// StreamUp reports whether the task's stream is up.
func (t *Task) StreamUp() bool { return t.stream != nil && t.stream.up }

func (s *stream) subscribe() tea.Cmd {
	s.epoch++
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	ch := make(chan Record, 64)
	s.ch = ch
	epoch, sub := s.epoch, s.src.Subscribe
	return func() tea.Msg {
		h, err := sub(ctx, ch)
		return streamMsg{s: s, epoch: epoch, sub: h, err: err}
	}
}

// wait is the command that waits for the next record or the end of the subscription.
func (s *stream) wait() tea.Cmd {
	ch, sub, epoch := s.ch, s.sub, s.epoch
	return func() tea.Msg {
		select {
		case r := <-ch:
			return streamMsg{s: s, epoch: epoch, rec: &r}
		case err := <-sub.Err():
			if err == nil {
				err = context.Canceled
			}
			return streamMsg{s: s, epoch: epoch, err: err}
		}
	}
}

// update takes a stream event: a record becomes the kind's message, and the wait is armed again;
// the end hands the kind back to its poll and arms a new subscription.
func (s *stream) update(msg streamMsg) Result {
	t := s.t
	switch {
	case msg.resubs:
		return Result{Cmd: s.subscribe()}
	case msg.epoch != s.epoch:
		return Result{}
	case msg.err != nil:
		return s.down(msg.err)
	case msg.rec != nil:
		return Result{Kind: t.spec.Kind, Msg: s.src.Message(*msg.rec, t.f.clock.Now()), Cmd: s.wait()}
	}
	s.sub, s.up, s.fails = msg.sub, true, 0
	return Result{Cmd: tea.Batch(s.wait(), t.Poll())} // reconcile once, then at the slow cadence
}

// down ends the subscription: the poll takes over now, and the stream subscribes again after a
// backoff.
func (s *stream) down(err error) Result {
	if s.cancel != nil {
		s.cancel()
	}
	if s.sub != nil {
		s.sub.Unsubscribe()
	}
	s.up, s.sub = false, nil
	s.fails++
	s.epoch++
	t := s.t
	wait := Backoff(t.every(), s.fails, t.spec.MaxBackoff, err)
	return Result{Cmd: tea.Batch(t.Poll(), t.f.clock.After(wait, streamMsg{s: s, resubs: true}))}
}
