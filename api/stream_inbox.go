package api

import (
	"sync"
	"time"
)

// StreamStatus is how a stream's connection stands.
type StreamStatus struct {
	Up bool
	// Epoch counts the connections that came up (every subscription answered); a new epoch
	// means records may have been missed in between: reconcile. A connection's records reach the
	// inbox only after the status that says it is up (see Stream).
	Epoch uint64
	// Err is why the connection is down (nil while up, or before the first attempt ends).
	Err   error
	Since time.Time
}

// StreamBatch is what an Inbox holds since it was last drained.
type StreamBatch struct {
	// Events are the records in the order they arrived; state records with the same Key are
	// merged, the newest kept in the place of the first.
	Events []StreamEvent
	// Status is the connection's latest status, and StatusChanged whether it changed.
	Status        StreamStatus
	StatusChanged bool
	// Dropped is how many rows of the notifications since the last drain did not decode and were
	// left out, the rest kept (as a poll drops a bad row: api.Drops); DropReason says why the
	// first was, and DropTopic of which subscription.
	Dropped    int
	DropReason string
	DropTopic  Topic
}

// Inbox is a bounded mailbox that subscriptions deliver to: state records are merged by key
// (a slow reader gets the newest state, never a growing queue), events are kept in order up to
// a limit per subscription, beyond which the stream drops its connection and resynchronises.
// Ready is signalled when something is waiting; Drain takes it all. Safe for concurrent use.
type Inbox struct {
	mu     sync.Mutex
	ready  chan struct{}
	max    int
	items  []StreamEvent
	byKey  map[string]int
	perSub map[string]int // items queued per topic
	// lastTopic and lastKey are the topic add last queued and its key: the stream puts its records
	// one notification at a time, 500 tickers of one topic a step with 500 instruments, and
	// key() makes a new string each call (issue #34).
	lastTopic Topic
	lastKey   string
	status    StreamStatus
	changed   bool
	dropped   int
	dropWhy   string
	dropTop   Topic
}

// DefaultInboxLimit is the most records an Inbox queues per subscription.
const DefaultInboxLimit = 4096

// NewInbox returns an inbox that queues at most limit records per subscription (0: the
// default).
func NewInbox(limit int) *Inbox {
	if limit <= 0 {
		limit = DefaultInboxLimit
	}
	return &Inbox{ready: make(chan struct{}, 1), max: limit, byKey: map[string]int{}, perSub: map[string]int{}}
}

// Ready is signalled (once) when records or a status change are waiting.
func (in *Inbox) Ready() <-chan struct{} { return in.ready }

// put queues records; it reports false when a subscription's queue is full.
func (in *Inbox) put(evs []StreamEvent) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	_, ok := in.add(evs)
	if ok {
		in.signal()
	}
	return ok
}

// putQuiet queues records as put does but leaves the signal to the caller (quietSignal): it
// reports false when a subscription's queue is full.
func (in *Inbox) putQuiet(evs []StreamEvent) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	_, ok := in.add(evs)
	return ok
}

// signalWaiting signals when something waits: records queued without a signal may have been
// drained already with an earlier one's batch, and a signal for nothing would only wake the
// consumer for an empty batch.
func (in *Inbox) signalWaiting() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.items) > 0 || in.changed || in.dropped > 0 {
		in.signal()
	}
}

// take queues what another inbox held, drained (its records in order, its dropped rows counted);
// it reports the topic whose queue filled, if one did.
func (in *Inbox) take(b StreamBatch) (Topic, bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.dropped == 0 && b.Dropped > 0 {
		in.dropWhy, in.dropTop = b.DropReason, b.DropTopic
	}
	in.dropped += b.Dropped
	full, ok := in.add(b.Events)
	in.signal()
	return full, ok
}

// add queues records (under mu) until a subscription's queue is full, and reports which.
func (in *Inbox) add(evs []StreamEvent) (Topic, bool) {
	for _, ev := range evs {
		if ev.Key != "" {
			if i, ok := in.byKey[ev.Key]; ok {
				in.items[i] = ev
				continue
			}
		}
		if in.lastKey == "" || ev.Topic != in.lastTopic {
			in.lastTopic, in.lastKey = ev.Topic, ev.Topic.key()
		}
		k := in.lastKey
		if in.perSub[k] >= in.max {
			return ev.Topic, false
		}
		in.perSub[k]++
		if ev.Key != "" {
			in.byKey[ev.Key] = len(in.items)
		}
		in.items = append(in.items, ev)
	}
	return Topic{}, true
}

// noteDrop records a row of topic t left out for why; the next batch says so. It does not signal:
// the kept rows of the same notification follow.
func (in *Inbox) noteDrop(t Topic, why string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.dropped == 0 {
		in.dropWhy, in.dropTop = why, t
	}
	in.dropped++
}

// setStatus records the connection's status.
func (in *Inbox) setStatus(s StreamStatus) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.status, in.changed = s, true
	in.signal()
}

func (in *Inbox) signal() {
	select {
	case in.ready <- struct{}{}:
	default:
	}
}

// Drain takes everything waiting, and the Ready signal with it: what arrived after the signal
// was taken (a burst's later records) is in this batch, so a signal left behind would only wake
// the reader for an empty batch (an extra redraw, and a frame's wait for the next real one).
func (in *Inbox) Drain() StreamBatch {
	in.mu.Lock()
	defer in.mu.Unlock()
	select {
	case <-in.ready:
	default:
	}
	b := StreamBatch{Events: in.items, Status: in.status, StatusChanged: in.changed,
		Dropped: in.dropped, DropReason: in.dropWhy, DropTopic: in.dropTop}
	in.items, in.changed = nil, false
	in.dropped, in.dropWhy, in.dropTop = 0, "", Topic{}
	clear(in.byKey)
	clear(in.perSub)
	return b
}

// Status is the connection's latest status.
func (in *Inbox) Status() StreamStatus {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.status
}
