package sim

import "fmt"

// DefaultKeepFills and DefaultKeepOrders are the fills and closed orders each account keeps
// unless WithKeepFills and WithKeepOrders say otherwise; MaxKeep bounds both.
const (
	DefaultKeepFills  = maxFillsKept
	DefaultKeepOrders = maxClosedKept
	MaxKeep           = 100_000
)

// keep is how much of its history each account keeps: its newest fills and closed orders.
type keep struct{ fills, orders int }

// WithKeepFills sets how many fills each account keeps, newest first (default DefaultKeepFills;
// outside 1 to MaxKeep, the default). The fills method pages through them.
func WithKeepFills(n int) Option { return func(c *config) { c.keep.fills = n } }

// WithKeepOrders sets how many closed orders (filled, cancelled, triggered) each account keeps
// in its order history besides its open ones (default DefaultKeepOrders; outside 1 to MaxKeep,
// the default): the oldest closed ones go first once it holds a quarter more.
func WithKeepOrders(n int) Option { return func(c *config) { c.keep.orders = n } }

// CheckKeep says what is wrong with a number of records an account keeps (what names them,
// "fills" or "closed orders"), or nil.
func CheckKeep(what string, n int) error {
	if n < 1 || n > MaxKeep {
		return fmt.Errorf("%d %s an account keeps: want 1 to %d", n, what, MaxKeep)
	}
	return nil
}

// orDefault is k with each count out of range replaced by its default.
func (k keep) orDefault() keep {
	if CheckKeep("", k.fills) != nil {
		k.fills = DefaultKeepFills
	}
	if CheckKeep("", k.orders) != nil {
		k.orders = DefaultKeepOrders
	}
	return k
}
