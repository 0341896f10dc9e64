package alert

import (
	"strconv"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// paymentKey identifies one funding payment, as the store does: an instrument settles once at a
// time.
type paymentKey struct {
	instrument api.InstrumentID
	at         int64
}

// paymentWatch remembers the funding payments already seen: each alerts once, and those loaded at
// start are not news.
type paymentWatch struct {
	primed bool
	seen   map[paymentKey]bool
}

// paymentEvents appends the alerts of the funding payments not seen before. The rows of older
// pages (the Funding view scrolled down) are the past, never news.
func (e *Engine) paymentEvents(now time.Time, s *state.Store, msgs []state.Msg, out []Event) []Event {
	w := &e.payments
	if w.seen == nil {
		w.seen = map[paymentKey]bool{}
	}
	for _, m := range msgs {
		if f, ok := m.(state.FundingMsg); ok && f.Page.Page > 1 {
			for _, p := range f.Page.Data {
				w.seen[paymentKey{p.InstrumentID, p.Time.UnixNano()}] = true
			}
		}
	}
	ps := s.Funding()
	for i := len(ps) - 1; i >= 0; i-- { // oldest first
		p := ps[i]
		k := paymentKey{p.InstrumentID, p.Time.UnixNano()}
		if w.seen[k] {
			continue
		}
		w.seen[k] = true
		if w.primed {
			out = e.firePayment(now, s, p, out)
		}
	}
	w.primed = true
	return out
}

func (e *Engine) firePayment(now time.Time, s *state.Store, p api.FundingPayment, out []Event) []Event {
	inst := strconv.FormatInt(int64(p.InstrumentID), 10)
	if in, ok := s.InstrumentByID(p.InstrumentID); ok {
		inst = in.Name
	}
	for _, t := range e.rules {
		if t.Kind != KindPayment || t.done || !p.Payment.Abs().GreaterThan(t.Level) {
			continue
		}
		if t.Instrument != "" && !sameInstrument(t, inst) {
			continue
		}
		t.lastFired, t.fired, t.done = now, t.fired+1, t.Once
		ev := t.event(reading{inst: inst}, p.Payment, now)
		ev.Text = describe(ev, t.Rule)
		out = append(out, ev)
	}
	return out
}
