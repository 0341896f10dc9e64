package state

import (
	"time"
)

// Msg is one change to the store: the only way data gets in (Store.Apply). Each message knows its
// kind, where it stands among the messages of its kind (Order), and how it changes the store. The
// apply method is unexported: only this package declares messages, one file per kind.
type Msg interface {
	// Kind is the kind of data the message changes.
	Kind() Kind
	// Order is the message's ordering key (see Order).
	Order() Order
	// apply changes the kind's data and reports whether it now differs from what was held. It
	// runs under the store's write lock, after the ordering checks.
	apply(s *Store, o Order) bool
}

// Order is where a message stands among the messages of its kind. Two sources write a kind: a
// poll (the feed's request, answered with the whole list or one page) and a stream (the
// exchange's notifications, one record at a time: an upsert). They order each other like this:
//
//   - Polls among polls: by Gen, the poll's local generation. The feed runs one request of a kind
//     at a time and numbers them; Apply drops a poll message whose Gen is older than the last
//     applied for its kind (a late answer after a newer one, or after the instrument changed).
//   - Stream messages among themselves: by Seq, the exchange's sequence number when the channel
//     has one (0 when it has none: then in the order they arrive, which a single connection keeps).
//     A Seq at or below the last applied is a duplicate (a resubscription's replay) and dropped.
//     A stream message never compares its Seq with a poll's Gen: they count different things.
//   - A poll against the stream: on one axis, the console's own clock. A poll's At is when its
//     request was sent; a streamed record's At is when it was received. A record received before a
//     poll was sent happened at the exchange before the poll was served, so the poll's answer
//     already holds it. A record received after the poll was sent may be missing from the answer
//     or be older there. So a whole-list replacement keeps every streamed record received after its
//     request was sent, applied again over the polled list, and forgets the earlier ones: a poll
//     started before a streamed update and answered after it cannot overwrite newer data.
//   - Exchange timestamps are compared only with each other, for the same record (an upsert does
//     not replace a copy whose exchange timestamp is newer), never with the local clock: the two
//     clocks are not in step.
type Order struct {
	Gen    uint64    // a poll's generation (polls only)
	At     time.Time // a poll: when its request was sent; a stream: when received (zero: now)
	Seq    uint64    // a stream's exchange sequence number (0: none)
	Stream bool      // from a stream: ordered by Seq and the local clock, never by Gen
}

// FailedMsg reports that a poll of Kind failed: the kind is marked stale with Err and its old data
// is kept.
type FailedMsg struct {
	Gen uint64
	At  time.Time
	Of  Kind // the kind whose poll failed
	Err error
}

// Kind implements Msg.
func (m FailedMsg) Kind() Kind { return m.Of }

// Order implements Msg.
func (m FailedMsg) Order() Order { return Order{Gen: m.Gen, At: m.At} }

// apply marks the kind failed; its data stays. A failure is always a change (the kind turns
// stale, and its error shows).
func (m FailedMsg) apply(s *Store, _ Order) bool {
	s.kinds[m.Of].err = m.Err
	return true
}

// CurrentMsg says kind Of's data was current at At with no record to show for it: a stream that
// carried the kind, whose records come only on a change (an account's orders, fills, positions
// and summary), was up until then. It moves the kind's age forward to At (never back) and changes
// no data; a kind never loaded stays so.
type CurrentMsg struct {
	Of Kind
	At time.Time
}

// Kind implements Msg.
func (m CurrentMsg) Kind() Kind { return m.Of }

// Order implements Msg: a stream's, with no sequence number.
func (m CurrentMsg) Order() Order { return Order{At: m.At, Stream: true} }

func (CurrentMsg) apply(*Store, Order) bool { return false }
