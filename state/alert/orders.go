package alert

import (
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// orderWatch remembers the fills and order events already seen, so a fill that arrives by the
// stream and again by a poll fires once.
type orderWatch struct {
	primed bool // the fills loaded at start were taken as already seen
	fills  map[fillKey]bool
	events map[orderKey]bool
}

type fillKey struct {
	trade api.TradeID
	order api.OrderID
}

type orderKey struct {
	order api.OrderID
	event string
}

func newOrderWatch() orderWatch {
	return orderWatch{fills: map[fillKey]bool{}, events: map[orderKey]bool{}}
}

// orderEvents appends the alerts of the fills and order events not seen before.
func (e *Engine) orderEvents(now time.Time, s *state.Store, msgs []state.Msg, out []Event) []Event {
	w := &e.orders
	if s.Freshness(state.KindFills).Loaded() {
		fills := s.Fills()
		open := s.Orders()
		for i := len(fills) - 1; i >= 0; i-- { // oldest first
			f := fills[i]
			k := fillKey{f.TradeID, f.OrderID}
			if w.fills[k] {
				continue
			}
			w.fills[k] = true
			if !w.primed {
				continue // a fill from before this process: not news
			}
			ev := EventFill
			if partlyOpen(open, f.OrderID) {
				ev = EventPartial
			}
			out = e.fireOrder(now, ev, f.Instrument, f.Size.String(), f.Price.String(), out)
		}
		w.primed = true
	}
	for _, m := range msgs {
		u, ok := m.(state.OrderUpdateMsg)
		if !ok {
			continue
		}
		ev := ""
		switch strings.ToLower(u.Record.State) {
		case api.StateCancelled, "canceled":
			ev = EventCancel
		case api.StateTriggered:
			ev = EventTrigger
		default:
			continue
		}
		k := orderKey{u.Record.OrderID, ev}
		if w.events[k] {
			continue
		}
		w.events[k] = true
		out = e.fireOrder(now, ev, u.Record.Instrument, u.Record.Size.String(), u.Record.LimitPrice.String(), out)
	}
	return out
}

func partlyOpen(open []api.OrderRecord, id api.OrderID) bool {
	for _, o := range open {
		if o.OrderID == id {
			return o.Unfilled.IsPositive()
		}
	}
	return false
}

// fireOrder appends an alert for every order rule event ev on inst matches.
func (e *Engine) fireOrder(now time.Time, ev, inst, size, px string, out []Event) []Event {
	for _, t := range e.rules {
		if t.Kind != KindOrder || t.done || !matchesEvent(t.Field, ev) {
			continue
		}
		if t.Instrument != "" && !sameInstrument(t, inst) {
			continue
		}
		t.lastFired, t.fired, t.done = now, t.fired+1, t.Once
		x := t.event(reading{inst: inst}, decimalOrZero(size), now)
		x.Threshold = px // the order's price
		x.Text = describeOrder(ev, x)
		out = append(out, x)
	}
	return out
}

func matchesEvent(rule, ev string) bool {
	return rule == ev || rule == EventFill && ev == EventPartial
}

// sameInstrument matches a rule's typed instrument (btc) to a full name (BTC-PERP).
func sameInstrument(t *tracked, inst string) bool {
	if t.inst != "" {
		return strings.EqualFold(t.inst, inst)
	}
	up := strings.ToUpper(inst)
	return up == t.Instrument || up == t.Instrument+"-PERP" || up == t.Instrument+"/USDC"
}
