// Package risk is the trader's own hard limits and the account's trading state, enforced by the
// one gate every order passes (state/exec): per order a notional cap (per instrument or a
// default), per instrument a position cap, for the account the leverage, open orders, orders a
// minute (a token bucket: a denied order is refused, never queued), the day's loss (realised,
// funding and fees since the UTC day began, plus unrealised; USD or % of the day's starting
// equity) and the drawdown from a persisted high-water mark.
//
// The state is ACTIVE, REDUCING (a loss limit tripped: only orders that reduce a position, and
// cancels) or HALTED (by the trader: only cancels). It is kept in the journal (Store), so a
// restart does not reset the day; REDUCING clears at the next UTC day. A limit is tightened at
// once; a loosening takes effect only after the loosen delay (default 15 min), pending until then.
// No flag or confirmation overrides a limit.
package risk

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// DefaultLoosenDelay is how long a loosened limit stays pending before it applies.
const DefaultLoosenDelay = 15 * time.Minute

// The limits' names, as in the config's [risk] table. A per-instrument limit is the name, a dot
// and the instrument ("max_order_notional.BTC-PERP").
const (
	OrderNotional    = "max_order_notional"
	PositionNotional = "max_position_notional"
	Leverage         = "max_leverage"
	OpenOrders       = "max_open_orders"
	OrdersPerMinute  = "max_orders_per_minute"
	DailyLoss        = "max_daily_loss"     // USD
	DailyLossPct     = "max_daily_loss_pct" // % of the day's starting equity
	Drawdown         = "max_drawdown"       // USD below the high-water mark
	DrawdownPct      = "max_drawdown_pct"   // % of the equity at the high-water mark
	LoosenDelay      = "loosen_delay_seconds"
)

// Limits are the limits by name (see the constants; a per-instrument one as "name.INSTRUMENT").
// A missing or zero limit is no limit.
type Limits map[string]decimal.Decimal

// Get is the limit called name, zero when none.
func (l Limits) Get(name string) decimal.Decimal { return l[name] }

// For is the limit called name for an instrument: its own when set, else the default.
func (l Limits) For(name, instrument string) (decimal.Decimal, string) {
	if v, ok := l[name+"."+strings.ToUpper(instrument)]; ok && v.IsPositive() {
		return v, name + "." + strings.ToUpper(instrument)
	}
	return l[name], name
}

// Any reports whether any limit is set.
func (l Limits) Any() bool {
	for k, v := range l {
		if k != LoosenDelay && v.IsPositive() {
			return true
		}
	}
	return false
}

// Delay is the loosen delay the limits set (DefaultLoosenDelay when unset).
func (l Limits) Delay() time.Duration {
	if v := l[LoosenDelay]; v.IsPositive() {
		return time.Duration(v.IntPart()) * time.Second
	}
	return DefaultLoosenDelay
}

// Names are the limits' names, sorted.
func (l Limits) Names() []string {
	out := make([]string, 0, len(l))
	for k := range l {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// looser reports whether moving limit name from old to next loosens it: a cap raised or removed,
// or the loosen delay shortened.
func looser(name string, old, next decimal.Decimal) bool {
	if name == LoosenDelay {
		return next.LessThan(old) && !(next.IsZero() && old.Equal(decimal.NewFromInt(int64(DefaultLoosenDelay/time.Second))))
	}
	if old.IsZero() || !old.IsPositive() {
		return false // no limit before: anything is as tight or tighter
	}
	return next.IsZero() || next.GreaterThan(old)
}

// Check says what is wrong with a limit's name and value, or nil.
func Check(name string, v decimal.Decimal) error {
	base, inst, per := strings.Cut(name, ".")
	switch base {
	case OrderNotional, PositionNotional:
	case Leverage, OpenOrders, OrdersPerMinute, DailyLoss, DailyLossPct, Drawdown, DrawdownPct, LoosenDelay:
		if per {
			return fmt.Errorf("%s is an account limit, not per instrument (%s)", base, inst)
		}
	default:
		return fmt.Errorf("unknown limit %q: want one of %s", name, strings.Join(allNames, ", "))
	}
	if per && strings.TrimSpace(inst) == "" {
		return fmt.Errorf("%s: name the instrument after the dot", name)
	}
	if v.IsNegative() {
		return fmt.Errorf("%s = %s: want zero (no limit) or more", name, v)
	}
	if (base == DailyLossPct || base == DrawdownPct) && v.GreaterThan(decimal.NewFromInt(100)) {
		return fmt.Errorf("%s = %s: a percentage, at most 100", name, v)
	}
	if (base == OpenOrders || base == OrdersPerMinute || base == LoosenDelay) && !v.IsInteger() {
		return fmt.Errorf("%s = %s: want a whole number", name, v)
	}
	return nil
}

var allNames = []string{OrderNotional, PositionNotional, Leverage, OpenOrders, OrdersPerMinute, DailyLoss, DailyLossPct, Drawdown, DrawdownPct, LoosenDelay}
