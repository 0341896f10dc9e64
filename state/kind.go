package state

import (
	"fmt"
	"time"
)

// Kind is one kind of data, polled on its own and with its own freshness and version.
type Kind int

// The kinds of data the store holds.
const (
	KindTickers Kind = iota
	KindMids
	KindInstruments
	KindCollateral
	KindAccount
	KindPositions
	KindOrders
	KindFills
	KindHistory
	KindChart
	KindBrokers
	KindLeverage
	numKinds
)

var kindNames = [numKinds]string{
	KindTickers:     "tickers",
	KindMids:        "mids",
	KindInstruments: "instruments",
	KindCollateral:  "collateral",
	KindAccount:     "account",
	KindPositions:   "positions",
	KindOrders:      "orders",
	KindFills:       "fills",
	KindHistory:     "history",
	KindChart:       "chart",
	KindBrokers:     "brokers",
	KindLeverage:    "leverage",
}

// String returns the kind's lower-case name, e.g. "tickers".
func (k Kind) String() string {
	if k < 0 || k >= numKinds {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// Kinds returns every kind, in declaration order.
func Kinds() []Kind {
	out := make([]Kind, numKinds)
	for i := range out {
		out[i] = Kind(i)
	}
	return out
}

// defaultStaleAfter is how old each kind's data may get before Freshness reports it stale. It is
// a few poll intervals of the default cadence in the design.
var defaultStaleAfter = [numKinds]time.Duration{
	KindTickers:     5 * time.Second,
	KindMids:        5 * time.Second,
	KindInstruments: 15 * time.Minute,
	KindCollateral:  15 * time.Minute,
	KindAccount:     10 * time.Second,
	KindPositions:   10 * time.Second,
	KindOrders:      10 * time.Second,
	KindFills:       30 * time.Second,
	KindHistory:     30 * time.Second,
	KindChart:       10 * time.Minute,
	KindBrokers:     15 * time.Minute,
	KindLeverage:    15 * time.Minute,
}

// DefaultStaleAfter returns the default age after which k's data counts as stale.
func DefaultStaleAfter(k Kind) time.Duration {
	if k < 0 || k >= numKinds {
		return 0
	}
	return defaultStaleAfter[k]
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
