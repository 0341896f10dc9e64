package state

import (
	"reflect"
	"sync"
	"time"
)

// Store holds everything the panes show. It changes only through Apply; the accessors return
// slices and maps the caller must not modify (Apply never edits one it has handed out: it
// replaces it, or edits its own copy, so a slice read earlier stays valid). It is safe for
// concurrent use.
//
// To add a kind of data (one file in state, one place in ui):
//
//  1. In state, write one file for the kind after KindBrokers' (the shortest): the Kind (newKind: its name, its stale
//     age, its empty data), the data it holds, its message types (each implements Msg: Kind, Order,
//     apply; a whole list or page carries Gen and At, an upsert Seq and At and returns
//     Order{Stream: true}), and its accessors (take s.mu.RLock, read s.data(Kind)).
//  2. In ui, give the feed a source for it: a root poll in ui's pollSpecs (a request that
//     returns the message, and its cadence in Intervals), or a pane's own feed.Task (see common.Pane).
//     A stream plugs in as a feed.Source beside the polls: the feed turns its records into the
//     kind's upsert messages, the same route into Apply.
type Store struct {
	mu    sync.RWMutex
	clock func() time.Time
	fees  Fees
	kinds []kindState
}

// kindState is the store's bookkeeping of one kind, and its data.
type kindState struct {
	gen        uint64 // the last poll generation applied
	seq        uint64 // the last stream sequence number applied
	version    uint64
	at         time.Time
	err        error
	staleAfter time.Duration
	data       any // the kind's holder, from its newKind's empty
}

// New returns an empty store; clock gives "now" for freshness (nil means time.Now).
func New(clock func() time.Time) *Store {
	if clock == nil {
		clock = time.Now
	}
	s := &Store{clock: clock, fees: DefaultFees(), kinds: make([]kindState, len(kinds))}
	for i, k := range kinds {
		s.kinds[i] = kindState{staleAfter: k.staleAfter, data: k.empty()}
	}
	return s
}

// data is kind k's holder (a pointer its file's accessors and messages type-assert).
func (s *Store) data(k Kind) any { return s.kinds[k].data }

// SetFees sets the fee rates used by previews.
func (s *Store) SetFees(f Fees) {
	s.mu.Lock()
	s.fees = f
	s.mu.Unlock()
}

// Fees returns the fee rates used by previews.
func (s *Store) Fees() Fees {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.fees
}

// SetStaleAfter sets the age after which k's data counts as stale (zero or less: only failures
// make it stale).
func (s *Store) SetStaleAfter(k Kind, d time.Duration) {
	if !k.valid() {
		return
	}
	s.mu.Lock()
	s.kinds[k].staleAfter = d
	s.mu.Unlock()
}

// Apply changes the store by one message (a value or a pointer to one) and reports whether
// anything changed. A message out of order for its kind (see Order) changes nothing; neither does
// a nil pointer or a kind this store does not know.
func (s *Store) Apply(msg Msg) (changed bool) {
	msg, ok := deref(msg)
	if !ok || !msg.Kind().valid() {
		return false
	}
	msg = cleanMsg(msg)
	k, o := msg.Kind(), msg.Order()
	s.mu.Lock()
	defer s.mu.Unlock()
	ks := &s.kinds[k]
	if !ks.admit(o) {
		return false
	}
	if o.At.IsZero() {
		o.At = s.clock()
	}
	if _, failed := msg.(FailedMsg); failed {
		msg.apply(s, o)
		ks.version++
		return true
	}
	if _, vouch := msg.(CurrentMsg); vouch && ks.at.IsZero() {
		return false // nothing loaded to vouch for
	}
	// A failure cleared, or the first data of the kind (an empty list too: "loading" becomes
	// "none"), is a change even when the data is the same.
	recovered := ks.err != nil || ks.at.IsZero()
	// The kind's age is that of its newest data from either route: a poll sent before a streamed
	// record (or a stream's vouching) and answered after it does not make the data look older.
	if o.At.After(ks.at) {
		ks.at = o.At
	}
	ks.err = nil
	if msg.apply(s, o) || recovered {
		ks.version++
		return true
	}
	return false
}

// admit checks a message's order against what the kind has applied, and records it.
func (ks *kindState) admit(o Order) bool {
	if o.Stream {
		if o.Seq > 0 && o.Seq <= ks.seq {
			return false
		}
		ks.seq = max(ks.seq, o.Seq)
		return true
	}
	if o.Gen < ks.gen {
		return false
	}
	ks.gen = o.Gen
	return true
}

// deref turns a pointer to a message into the message; a nil message or nil pointer is not one.
func deref(msg Msg) (Msg, bool) {
	if msg == nil {
		return nil, false
	}
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Pointer {
		return msg, true
	}
	if v.IsNil() {
		return nil, false
	}
	m, ok := v.Elem().Interface().(Msg)
	return m, ok
}

// replace stores v in *dst and reports whether it differs from what was there, so a poll that
// brings the same records does not make panes render again.
func replace[T any](dst *T, v T) bool {
	if reflect.DeepEqual(*dst, v) {
		return false
	}
	*dst = v
	return true
}

// copyMap returns a copy of m with k set to v (Apply never edits a map a reader may hold).
func copyMap[K comparable, V any](m map[K]V, k K, v V) map[K]V {
	out := make(map[K]V, len(m)+1)
	for key, val := range m {
		out[key] = val
	}
	out[k] = v
	return out
}
