package alert

import (
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
)

// value reads what t compares against its level.
func (e *Engine) value(t *tracked, now time.Time, s *state.Store) (decimal.Decimal, reading, bool) {
	switch t.Kind {
	case KindMargin:
		if !s.Freshness(state.KindAccount).Loaded() {
			return decimal.Zero, reading{}, false
		}
		return state.MarginUtilizationAfter(s.Account(), decimal.Zero), reading{}, true
	case KindDown:
		since, ok := e.down[t.Field]
		if !ok {
			return decimal.Zero, reading{}, true
		}
		return decimal.NewFromInt(int64(now.Sub(since) / time.Second)), reading{}, true
	}
	inst, ok := t.resolve(s)
	if !ok {
		return decimal.Zero, reading{}, false
	}
	r := reading{inst: inst}
	switch t.Kind {
	case KindPrice:
		v, ok := price(s, inst, t.Field)
		return v, r, ok
	case KindFunding:
		tk, ok := s.Ticker(inst)
		return tk.FundingRate, r, ok
	case KindMove:
		sm := e.moves[inst]
		if sm == nil {
			return decimal.Zero, r, false
		}
		v, _, ok := sm.move(now, t.Window)
		return v, r, ok
	case KindLiq:
		l, ok := s.PositionLiquidation(inst)
		if !ok || !l.Price.IsPositive() {
			return decimal.Zero, r, false
		}
		r.source = l.Source
		return l.Distance, r, true
	}
	return decimal.Zero, r, false
}

// resolve is t's instrument by its full name, once the instruments are known (btc: BTC-PERP).
func (t *tracked) resolve(s *state.Store) (string, bool) {
	if t.inst != "" {
		return t.inst, true
	}
	in, err := s.ResolveInstrument(t.Instrument)
	if err != nil {
		if tk, ok := s.Ticker(t.Instrument); ok { // no instrument list: a ticker by that name
			t.inst = tk.Symbol
			return t.inst, true
		}
		return "", false
	}
	t.inst = in.Name
	return t.inst, true
}

// price is an instrument's mark, last or mid price; false when the store has none.
func price(s *state.Store, inst, field string) (decimal.Decimal, bool) {
	if field == "mid" {
		if m, ok := s.Mid(inst); ok && m.IsPositive() {
			return m, true
		}
	}
	tk, ok := s.Ticker(inst)
	if !ok {
		return decimal.Zero, false
	}
	v := tk.MarkPrice
	switch field {
	case "last":
		v = tk.LastPrice
	case "mid":
		v = tk.MidPrice
	}
	return v, v.IsPositive()
}

// noteLink records since when the stream and the exchange are down.
func (e *Engine) noteLink(now time.Time, l Link) {
	set := func(what string, up bool) {
		_, was := e.down[what]
		switch {
		case up:
			delete(e.down, what)
		case !was:
			e.down[what] = now
		}
	}
	set(DownExchange, l.ExchangeUp)
	set(DownStream, !l.HasStream || l.StreamUp)
}

// samples are one instrument's recent marks within its longest window, as two monotonic queues:
// lows (rising) and highs (falling), so the lowest and highest mark of the window are at their
// fronts and each check costs the same however many ticks the window holds.
type samples struct {
	lows, highs []sample
	last        decimal.Decimal
}

type sample struct {
	at time.Time
	px decimal.Decimal
}

// maxWindow bounds how long marks are kept for move rules.
const maxWindow = 24 * time.Hour

// sampleMoves records the mark of every instrument a move rule watches.
func (e *Engine) sampleMoves(now time.Time, s *state.Store) {
	var keep map[string]time.Duration // instrument -> its longest window
	for _, t := range e.rules {
		if t.Kind != KindMove || t.done {
			continue
		}
		if inst, ok := t.resolve(s); ok {
			if keep == nil {
				keep = map[string]time.Duration{}
			}
			keep[inst] = max(keep[inst], t.Window, time.Second)
		}
	}
	for inst, window := range keep {
		px, ok := price(s, inst, "mark")
		if !ok {
			continue
		}
		sm := e.moves[inst]
		if sm == nil {
			sm = &samples{}
			e.moves[inst] = sm
		}
		sm.add(now, px, min(window, maxWindow))
	}
}

func (sm *samples) add(now time.Time, px decimal.Decimal, keep time.Duration) {
	sm.last = px
	for n := len(sm.lows); n > 0 && !sm.lows[n-1].px.LessThan(px); n-- {
		sm.lows = sm.lows[:n-1]
	}
	for n := len(sm.highs); n > 0 && !sm.highs[n-1].px.GreaterThan(px); n-- {
		sm.highs = sm.highs[:n-1]
	}
	sm.lows, sm.highs = append(sm.lows, sample{now, px}), append(sm.highs, sample{now, px})
	sm.lows, sm.highs = expire(sm.lows, now, keep), expire(sm.highs, now, keep)
}

// expire drops the samples older than keep (the newest always stays).
func expire(q []sample, now time.Time, keep time.Duration) []sample {
	cut := 0
	for cut+1 < len(q) && now.Sub(q[cut].at) > keep {
		cut++
	}
	if cut > len(q)/2 { // reuse the array's front
		return append(q[:0], q[cut:]...)
	}
	return q[cut:]
}

// move is the largest move, in percent, from a mark within window to the latest.
func (sm *samples) move(now time.Time, window time.Duration) (decimal.Decimal, reading, bool) {
	lo, hi := extreme(sm.lows, now, window), extreme(sm.highs, now, window)
	if !lo.IsPositive() || !hi.IsPositive() {
		return decimal.Zero, reading{}, false
	}
	up := sm.last.Sub(lo).Div(lo)
	down := hi.Sub(sm.last).Div(hi)
	return decimal.Max(up, down).Mul(hundred).Round(4), reading{}, true
}

// extreme is the front of a queue within window of now.
func extreme(q []sample, now time.Time, window time.Duration) decimal.Decimal {
	for _, x := range q {
		if now.Sub(x.at) <= window {
			return x.px
		}
	}
	return decimal.Zero
}
