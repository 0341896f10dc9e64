package sim

import (
	"math/bits"
	"strconv"

	"github.com/shopspring/decimal"
)

// tickerTicks is a ticker notification's data as the market holds it, in ticks and lots, read
// once a market step for every market that moved: it writes itself as tickerOut's decimals were
// written (TestTickerFromTicksIsTickerOut), without making the fourteen decimals, the mid's
// division, the volume's rounding and the day's change's division (about 30 allocations a
// ticker, 500 a step). Notifications sent on subscribing still use tickerOut.
type tickerTicks struct {
	m                                      *market
	bid, bidSize, ask, askSize, lo, hi, oi int64
	hasBid, hasAsk                         bool
	notional, open                         int64 // the day's traded notional (tick x lot units) and opening price
	mark, index, last, updated             int64
	funding                                decimal.Decimal
}

func tickerOfTicks(e *engine, m *market) *tickerTicks {
	t := new(tickerTicks)
	t.read(e, m)
	return t
}

// read reads m's ticker into t.
func (t *tickerTicks) read(e *engine, m *market) {
	*t = tickerTicks{m: m, mark: m.mark, index: m.index, last: m.last, oi: m.oi, funding: m.funding,
		updated: m.updated.UnixMilli()}
	if l := m.book.best(true); l != nil {
		t.bid, t.bidSize, t.hasBid = l.price, l.size, true
	}
	if l := m.book.best(false); l != nil {
		t.ask, t.askSize, t.hasAsk = l.price, l.size, true
	}
	t.lo, t.hi = m.band()
	t.notional, t.open = m.charts.stats24h(e.now())
}

func (t *tickerTicks) appendJSON(b []byte) []byte {
	m := t.m
	typ, funding, oi := "perp", t.funding, t.oi
	if m.spot {
		typ, funding, oi = "spot", decimal.Zero, 0
	}
	b = append(b, `{"instrument_name":`...)
	b = appendJSONString(b, m.name)
	b = append(b, `,"instrument_id":`...)
	b = strconv.AppendInt(b, int64(m.id), 10)
	b = append(b, `,"symbol":`...)
	b = appendJSONString(b, m.name)
	b = append(b, `,"type":`...)
	b = appendJSONString(b, typ)
	b = t.appendTicks(append(b, `,"mark_price":`...), t.mark)
	b = t.appendMid(append(b, `,"mid_price":`...))
	b = t.appendTicks(append(b, `,"index_price":`...), t.index)
	b = t.appendTicks(append(b, `,"best_bid_price":`...), t.bid)
	b = t.appendTicks(append(b, `,"best_ask_price":`...), t.ask)
	b = appendUnits(append(b, `,"best_bid_size":`...), t.bidSize, m.lot)
	b = appendUnits(append(b, `,"best_ask_size":`...), t.askSize, m.lot)
	b = appendDecimal(append(b, `,"funding_rate":`...), funding)
	b = t.appendVolume(append(b, `,"volume_24h":`...))
	b = t.appendChange(append(b, `,"change_24h":`...))
	b = appendUnits(append(b, `,"open_interest":`...), oi, m.lot)
	b = t.appendTicks(append(b, `,"max_trading_price":`...), t.hi)
	b = t.appendTicks(append(b, `,"min_trading_price":`...), t.lo)
	b = t.appendTicks(append(b, `,"last_price":`...), t.last)
	b = append(b, `,"last_updated":`...)
	b = strconv.AppendInt(b, t.updated, 10)
	return append(b, '}')
}

func (t *tickerTicks) appendTicks(b []byte, n int64) []byte { return appendUnits(b, n, t.m.tick) }

// appendUnits writes n units as appendDecimal writes u.dec(n).
func appendUnits(b []byte, n int64, u unit) []byte {
	hi, lo := bits.Mul64(uint64(max(n, -n)), uint64(u.m))
	if hi != 0 || lo >= 1<<63 {
		return appendDecimal(b, u.dec(n))
	}
	return appendScaled(b, n*u.m, u.e)
}

// appendScaled writes c x 10^exp as appendDecimal writes decimal.New(c, exp).
func appendScaled(b []byte, c int64, exp int32) []byte {
	if exp > 18 || exp < -18 || c == -1<<63 || !decimal.TrimTrailingZeros || decimal.UseScientificNotation {
		return appendDecimal(b, decimal.New(c, exp))
	}
	return appendCoefficient(b, c, exp)
}

// appendMid is the mid as market.mid gives it: half the best bid and ask, exact (half a tick is
// one more decimal, which the library's 16 places hold for every tick of 10^-15 or more), or
// the mark when a side is empty.
func (t *tickerTicks) appendMid(b []byte) []byte {
	m := t.m
	switch {
	case !t.hasBid || !t.hasAsk:
		return t.appendTicks(b, t.mark)
	case m.tick.e < -15:
		return appendDecimal(b, m.mid())
	}
	hi, lo := bits.Mul64(uint64(t.bid+t.ask), uint64(m.tick.m)*5)
	if t.bid+t.ask < 0 || hi != 0 || lo >= 1<<63 {
		return appendDecimal(b, m.mid())
	}
	return appendScaled(b, int64(lo), m.tick.e-1)
}

// appendVolume is the day's traded notional in USD rounded half away from zero to cents, as
// engine.ticker's Volume24h.
func (t *tickerTicks) appendVolume(b []byte) []byte {
	m := t.m
	exp := m.tick.e + m.lot.e
	hi, lo := bits.Mul64(uint64(max(t.notional, 0)), uint64(m.tick.m*m.lot.m))
	k := -2 - exp // the places rounded off
	if t.notional < 0 || hi != 0 || lo >= 1<<63 || k > 18 {
		return appendDecimal(b, m.tick.d.Mul(m.lot.d).Mul(decimal.NewFromInt(t.notional)).Round(2))
	}
	v := int64(lo)
	if k <= 0 {
		return appendScaled(b, v, exp)
	}
	p := int64(1)
	for range k {
		p *= 10
	}
	q := v / p
	if 2*(v%p) >= p {
		q++
	}
	return appendScaled(b, q, -2)
}

// appendChange is the day's change in percent, (last - open) / open x 100 rounded half away
// from zero to 2 places (the tick cancels out), as engine.ticker's Change24h: 0 with no opening
// price.
func (t *tickerTicks) appendChange(b []byte) []byte {
	if t.open <= 0 {
		return append(b, '0')
	}
	d := t.last - t.open
	hi, lo := bits.Mul64(uint64(max(d, -d)), 10_000)
	if hi != 0 || lo >= 1<<63 {
		m := t.m
		return appendDecimal(b, m.px(d).Mul(hundred).DivRound(m.px(t.open), 2))
	}
	n := int64(lo) // |d| x 10^4: the percent's hundredths before the division
	q, r := n/t.open, n%t.open
	if 2*r >= t.open {
		q++
	}
	if d < 0 {
		q = -q
	}
	return appendScaled(b, q, -2)
}

// tickerTopic is the market's ticker topic, made on first use rather than every step.
func (m *market) tickerTopic() string {
	if m.topic == "" {
		m.topic = "ticker:" + m.name
	}
	return m.topic
}

// midTicks is one market's mid as collectMids reads it: the best bid and ask in ticks, or the
// mark when a side is empty.
type midTicks struct {
	m              *market
	bid, ask, mark int64
	both           bool
}

func midOfTicks(m *market) midTicks {
	bid, okb := m.book.bestPrice(true)
	ask, oka := m.book.bestPrice(false)
	return midTicks{m: m, bid: bid, ask: ask, mark: m.mark, both: okb && oka}
}

// midsTicks is the mids:all notification's data, written as midsJSON writes the same mids
// (TestTickerFromTicksIsTickerOut) without a decimal and a division a market.
type midsTicks []midTicks

func (ms midsTicks) appendJSON(b []byte) []byte {
	b = append(b, '[')
	for i, x := range ms {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"symbol":`...)
		b = appendJSONString(b, x.m.name)
		b = append(b, `,"mid_price":"`...)
		t := tickerTicks{m: x.m, bid: x.bid, ask: x.ask, mark: x.mark, hasBid: x.both, hasAsk: x.both}
		b = append(t.appendMid(b), `"}`...)
	}
	return append(b, ']')
}
