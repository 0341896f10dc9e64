package state

import (
	"strconv"
	"strings"

	"github.com/tradedesk/tradedesk/api"
)

// CancelScope is what cancelling a set of open orders (every order, or every order on one
// instrument) removes, said before it is sent: how many orders, and the take-profits and
// stop-losses among them that guard a position, which stays open without them. The console's
// X, C and kill switch and the headless cancel-all say it the same way.
type CancelScope struct {
	// Orders is how many open orders are cancelled.
	Orders int
	// Guards names, per position, the stops among them that protect it: "the stop-loss and
	// take-profit on your 0.1 BTC long".
	Guards []string
}

// NewCancelScope is the scope of cancelling orders, with the account's positions (a reduce-only
// take-profit or stop-loss on a position's closing side guards it) and their instruments (for the
// size at its lot).
func NewCancelScope(orders []api.OrderRecord, positions []api.Position, inst func(string) (Instrument, bool)) CancelScope {
	sc := CancelScope{Orders: len(orders)}
	for _, pos := range positions {
		if pos.Size.IsZero() {
			continue
		}
		closing := api.SideSell
		if pos.Size.IsNegative() {
			closing = api.SideBuy
		}
		var tp, sl int
		for _, o := range orders {
			if o.Instrument != pos.Instrument || o.Side != closing || !o.ReduceOnly || !o.TriggerPx.Valid {
				continue
			}
			switch o.Tpsl {
			case api.TpslTakeProfit:
				tp++
			case api.TpslStopLoss:
				sl++
			}
		}
		if tp+sl == 0 {
			continue
		}
		var legs []string
		if sl > 0 {
			legs = append(legs, stops(sl, "stop-loss", "stop-losses"))
		}
		if tp > 0 {
			legs = append(legs, stops(tp, "take-profit", "take-profits"))
		}
		if (sl == 1) || (sl == 0 && tp == 1) {
			legs[0] = "the " + legs[0]
		}
		in, _ := inst(pos.Instrument)
		side := "long"
		if pos.Size.IsNegative() {
			side = "short"
		}
		sc.Guards = append(sc.Guards, strings.Join(legs, " and ")+" on your "+in.SizeText(pos.Size.Abs())+" "+
			baseOf(pos.Instrument)+" "+side)
	}
	return sc
}

// stops is "stop-loss" for one, "2 stop-losses" for more.
func stops(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return strconv.Itoa(n) + " " + many
}

// baseOf is the asset an instrument's size is counted in: "BTC" of BTC-PERP or BTC-USDC.
func baseOf(name string) string {
	base, _, _ := strings.Cut(name, "-")
	return base
}

// Takes is the positions' stops among the orders cancelled: "the stop-loss and take-profit on
// your 0.1 BTC long and the stop-loss on your 2 ETH short"; "" when no position loses a stop.
func (c CancelScope) Takes() string {
	switch n := len(c.Guards); n {
	case 0:
		return ""
	case 1:
		return c.Guards[0]
	default:
		return strings.Join(c.Guards[:n-1], ", ") + " and " + c.Guards[n-1]
	}
}

// Including is what the cancel takes beyond plain orders, after its count: "including the
// stop-loss and take-profit on your 0.1 BTC long"; "" when no position loses a stop.
func (c CancelScope) Including() string {
	if t := c.Takes(); t != "" {
		return "including " + t
	}
	return ""
}

// Unguarded is the warning under a cancel that removes a position's stops: the position stays
// open; "" when none does.
func (c CancelScope) Unguarded() string {
	switch len(c.Guards) {
	case 0:
		return ""
	case 1:
		return "The position stays open without them."
	}
	return "The positions stay open without them."
}

// CancelScope is the scope of cancelling orders, read with the store's positions and instruments.
func (s *Store) CancelScope(orders []api.OrderRecord) CancelScope {
	return NewCancelScope(orders, s.Positions(), s.Instrument)
}
