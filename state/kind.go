package state

import (
	"fmt"
	"time"
)

// Kind is one kind of data, fetched on its own and with its own freshness and version. Each kind
// is declared in its own file (data_<kind>.go) with newKind, beside its messages and accessors.
type Kind int

// kindInfo is what a kind's file registers: its name, its default stale age and its empty data.
type kindInfo struct {
	name       string
	staleAfter time.Duration
	empty      func() any
}

// kinds is every registered kind, indexed by Kind. Only package initialisation appends to it.
var kinds []kindInfo

// newKind registers a kind: name is its lower-case name, staleAfter how old its data may get
// before Freshness reports it stale (a few poll intervals of the design's cadence), empty builds
// a new store's holder of its data (the pointer its messages' apply methods change).
func newKind(name string, staleAfter time.Duration, empty func() any) Kind {
	kinds = append(kinds, kindInfo{name: name, staleAfter: staleAfter, empty: empty})
	return Kind(len(kinds) - 1)
}

func (k Kind) valid() bool { return k >= 0 && int(k) < len(kinds) }

// String returns the kind's lower-case name, e.g. "tickers".
func (k Kind) String() string {
	if !k.valid() {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kinds[k].name
}

// DefaultStaleAfter returns the default age after which k's data counts as stale.
func DefaultStaleAfter(k Kind) time.Duration {
	if !k.valid() {
		return 0
	}
	return kinds[k].staleAfter
}

// Freshness says how old one kind's data is and whether its last poll failed.
type Freshness struct {
	At    time.Time     // when the data shown was fetched; zero if never
	Err   error         // the last poll's error, nil after a success
	Stale bool          // the last poll failed, or the data is older than the kind's stale age
	Age   time.Duration // now minus At; zero if never fetched
}

// Loaded reports whether data of this kind has ever arrived.
func (f Freshness) Loaded() bool { return !f.At.IsZero() }
