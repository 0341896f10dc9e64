package record

import (
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"
)

// Arrival is the market as an order met it at send time: a zero value is not known.
type Arrival struct {
	// Mid is the book's mid the preview walked from.
	Mid decimal.Decimal
	// Mark is the mark price the guard used.
	Mark decimal.Decimal
	// Expected is the preview's expected average fill (the book walk's).
	Expected decimal.Decimal
	// At is when the order was sent.
	At time.Time
}

// Route is when an order passed each point of its way, on one clock: the keystroke that sent
// it, its signing, the exchange's answer, the first record of it the stream brought, and the
// first frame drawn after that record. A zero stamp was not seen.
type Route struct {
	ID        string // the order's client id
	Keystroke time.Time
	Signed    time.Time
	Answered  time.Time
	Streamed  time.Time
	Shown     time.Time
}

// Stamps are the route's stamps in its order, keystroke first.
func (r Route) Stamps() [5]time.Time {
	return [5]time.Time{r.Keystroke, r.Signed, r.Answered, r.Streamed, r.Shown}
}

// AlgoMarket is the market's trades over an algorithm's interval: how many, their size and
// their volume-weighted average price.
type AlgoMarket struct {
	From, To time.Time
	Trades   int
	Volume   decimal.Decimal
	VWAP     decimal.Decimal
}

// AlgoRunning is the state of an algorithm that has not ended: on start it is resumed,
// cancelled or flattened.
const AlgoRunning = "running"

// AlgoPaused is the state of an algorithm the trader paused: it sends nothing until it is resumed,
// and a restart leaves it paused (it is not among those left running).
const AlgoPaused = "paused"

// Algo is one algorithm as the journal holds it.
type Algo struct {
	// ID names the algorithm; its children's client ids are ChildCloid(ID, n).
	ID string
	// Kind is chase, scale, twap or trail.
	Kind string
	// Params are its parameters, as the algorithm wrote them (JSON).
	Params json.RawMessage
	// State is AlgoRunning until it ends (done, stopped, cancelled, flattened, failed).
	State string
	// Children is how many child client ids it has taken.
	Children int
	Created  time.Time
	Updated  time.Time
	// Detail says how it ended, or what it did last.
	Detail string
}

// AlertDef is one alert definition as the journal keeps it: its stable id, its rule in the alert
// grammar (alert.Parse reads it), where it came from and when it last fired.
type AlertDef struct {
	ID        string
	Rule      string
	Origin    string // "config" (seeded from an [[alert]] table) or "user"
	Created   time.Time
	LastFired time.Time // zero: never
}
