package alert

import (
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// orderWatch remembers the fills and order events already seen, so one that arrives by the
// stream and again by a poll (the fills, the order history) fires once.
type orderWatch struct {
	primed  bool // the fills loaded at start were taken as already seen
	hprimed bool // so was the order history loaded at start
	fills   map[fillKey]bool
	events  map[orderKey]bool
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

// orderEvents appends the alerts of the fills and order events not seen before: fills from the
// store's fills (streamed or polled), cancels and triggers from the streamed order updates and
// from the polled order history, so a session without a stream misses none.
func (e *Engine) orderEvents(now time.Time, s *state.Store, msgs []state.Msg, out []Event) []Event {
	w := &e.orders
	w.olderPages(msgs)
	if s.Freshness(state.KindFills).Loaded() {
		out = e.fillEvents(now, s, out)
	}
	for _, m := range msgs {
		if u, ok := m.(state.OrderUpdateMsg); ok {
			out = e.closedEvent(now, u.Record, out)
		}
	}
	if s.Freshness(state.KindHistory).Loaded() {
		hist := s.History()
		for i := len(hist) - 1; i >= 0; i-- { // oldest first
			if !w.hprimed {
				w.seeClosed(hist[i])
				continue
			}
			out = e.closedEvent(now, hist[i], out)
		}
		w.hprimed = true
	}
	return out
}

// olderPages takes the rows of the fills' and the history's older pages (a view scrolled down)
// as seen: they are the past, never news.
func (w *orderWatch) olderPages(msgs []state.Msg) {
	for _, m := range msgs {
		switch m := m.(type) {
		case state.FillsMsg:
			if m.Page.Page > 1 {
				for _, f := range m.Page.Data {
					w.fills[fillKey{f.TradeID, f.OrderID}] = true
				}
			}
		case state.HistoryMsg:
			if m.Page.Page > 1 {
				for _, o := range m.Page.Data {
					w.seeClosed(o)
				}
			}
		}
	}
}

// fillEvents appends the alerts of the fills not seen before; those loaded at start are not news.
func (e *Engine) fillEvents(now time.Time, s *state.Store, out []Event) []Event {
	w := &e.orders
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
	return out
}

// seeClosed takes rec's cancel or trigger as seen without firing.
func (w *orderWatch) seeClosed(rec api.OrderRecord) {
	if ev := closedAs(rec.State); ev != "" {
		w.events[orderKey{rec.OrderID, ev}] = true
	}
}

// closedAs is the order event an order's state is ("" for one still open, or filled: fills are
// read from the fills).
func closedAs(state string) string {
	switch strings.ToLower(state) {
	case api.StateCancelled, "canceled":
		return EventCancel
	case api.StateTriggered:
		return EventTrigger
	}
	return ""
}

// closedEvent appends the alerts of rec's cancel or trigger, once per order and event however
// many times (stream, history poll) it is seen.
func (e *Engine) closedEvent(now time.Time, rec api.OrderRecord, out []Event) []Event {
	ev := closedAs(rec.State)
	if ev == "" {
		return out
	}
	k := orderKey{rec.OrderID, ev}
	if e.orders.events[k] {
		return out
	}
	e.orders.events[k] = true
	px := rec.LimitPrice
	if ev == EventTrigger && rec.TriggerPx.Valid {
		px = rec.TriggerPx.Decimal
	}
	return e.fireOrder(now, ev, rec.Instrument, rec.Size.String(), px.String(), out)
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
