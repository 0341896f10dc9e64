package sim

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// order is one order, resting, waiting for its trigger, or closed.
type order struct {
	oid       api.OrderID
	acct      *account
	mkt       *market
	buy       bool
	price     int64 // limit in ticks; for a market order, the slippage bound
	limit     decimal.Decimal
	size      int64 // lots
	rest      int64 // lots not yet filled
	tif       string
	po, ro    bool
	isMarket  bool
	cloid     string
	trigger   int64 // ticks; 0 when the order has no trigger
	fireAbove bool
	tpsl      string
	grouping  string
	grp       *bracket // the bracket the order belongs to (entry, TP/SL child, or fired child)
	state     string
	created   time.Time
	inBook    bool
	autoBound bool   // a market order whose bound comes from the mark
	pxLots    int64  // sum of price×lots over the order's fills, in ticks×lots
	reason    string // why the exchange cancelled it on its own, if it did
	// A spot order's fills so far: their notional and the fee charged, which is always that
	// notional's fee rounded up, so that many small fills never cost more than one big one.
	spotNotional, spotFee decimal.Decimal
	dirty                 bool // changed since the store last wrote it (engine.touchOrder)
}

// Market orders without a usable price bound fill up to this far from the mark price.
var defaultSlippage = d("0.05")

// parseOrder checks an order's fields and turns it into an order. It does not look at balances.
func (e *engine) parseOrder(a *account, w *api.OrderWire) (*order, error) {
	m, err := e.market(w.InstrumentID)
	if err != nil {
		return nil, err
	}
	if m.delisted {
		return nil, fmt.Errorf("instrument %s is delisted: it takes no new orders", m.name)
	}
	o := &order{acct: a, mkt: m, cloid: w.Cloid, po: w.PostOnly, ro: w.ReduceOnly, isMarket: w.IsMarket,
		tpsl: w.Tpsl, grouping: w.Grouping}
	if err := o.parseFlags(w); err != nil {
		return nil, err
	}
	if err := o.parseSize(w.Size); err != nil {
		return nil, err
	}
	if err := o.parsePrice(w.Price); err != nil {
		return nil, err
	}
	if err := o.parseTrigger(w.TriggerPx); err != nil {
		return nil, err
	}
	return o, o.checkNotional()
}

func (o *order) parseFlags(w *api.OrderWire) error {
	switch w.Side {
	case api.SideBuy, "B", "buy":
		o.buy = true
	case api.SideSell, "S", "sell":
	default:
		return fmt.Errorf("side %q is not valid: use \"b\" (buy) or \"s\" (sell)", trunc(w.Side, 20))
	}
	switch strings.ToUpper(w.PositionSide) {
	case "", api.PositionSideBoth:
	case "LONG", "SHORT":
		return fmt.Errorf("positionSide %s needs hedge mode, which this account does not use: send BOTH", w.PositionSide)
	default:
		return fmt.Errorf("positionSide %q is not valid: send BOTH", trunc(w.PositionSide, 20))
	}
	o.tif = strings.ToUpper(w.Tif)
	switch o.tif {
	case "":
		o.tif = api.TifGTC
	case api.TifGTC, api.TifIOC, api.TifFOK:
	default:
		return fmt.Errorf("tif %q is not valid: use GTC, IOC or FOK", trunc(w.Tif, 20))
	}
	if o.isMarket && o.tif == api.TifGTC {
		o.tif = api.TifIOC
	}
	if o.po && (o.tif != api.TifGTC || o.isMarket) {
		return errors.New("a post-only order must be a GTC limit order: clear po or use tif GTC without isMarket")
	}
	switch o.tpsl {
	case "", api.TpslTakeProfit, api.TpslStopLoss:
	default:
		return fmt.Errorf("tpsl %q is not valid: use \"tp\", \"sl\" or \"\"", trunc(o.tpsl, 20))
	}
	switch o.grouping {
	case "", "normal", "position":
	default:
		return fmt.Errorf("grouping %q is not valid: use \"normal\", \"position\" or \"\"", trunc(o.grouping, 20))
	}
	if o.mkt.spot && (o.ro || w.TriggerPx != "" || o.tpsl != "") {
		return fmt.Errorf("%s is a spot pair: reduce-only and trigger orders apply to perpetuals only", o.mkt.name)
	}
	if len(o.cloid) > 128 {
		return errors.New("cloid is longer than 128 characters")
	}
	return nil
}

func (o *order) parseSize(s string) error {
	if n, ok := o.mkt.lot.countText(s); ok {
		o.size, o.rest = n, n
		return nil
	}
	v, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("size %q is not a decimal number", trunc(s, 30))
	}
	if !v.IsPositive() {
		return fmt.Errorf("size %s must be above zero", v)
	}
	n, err := o.mkt.lot.count(v, "size")
	if err != nil {
		return fmt.Errorf("%w (lot size of %s)", err, o.mkt.name)
	}
	o.size, o.rest = n, n
	return nil
}

func (o *order) parsePrice(s string) error {
	m := o.mkt
	if n, ok := m.tick.countText(s); ok && !o.isMarket {
		if lo, hi := m.band(); n >= lo && n <= hi {
			o.price = n // o.limit stays zero: record() renders the price from the ticks
			return nil
		}
	}
	s = strings.TrimSpace(s)
	v, err := decimal.NewFromString(s)
	if err != nil && !(o.isMarket && s == "") {
		return fmt.Errorf("price %q is not a decimal number", trunc(s, 30))
	}
	if o.isMarket {
		return o.marketBound(v)
	}
	if !v.IsPositive() {
		return fmt.Errorf("price %s must be above zero", v)
	}
	n, err := m.tick.count(v, "price")
	if err != nil {
		return fmt.Errorf("%w (tick size of %s)", err, m.name)
	}
	lo, hi := m.band()
	if n < lo || n > hi {
		return fmt.Errorf("price %s is outside %s's allowed band %s to %s (mark %s ± 50%%)", v, m.name, m.px(lo), m.px(hi), m.markPx())
	}
	o.price, o.limit = n, v
	return nil
}

// marketBound sets a market order's worst price: the given price (rounded the permissive way),
// or the mark ± 5% when the price is empty or zero.
func (o *order) marketBound(v decimal.Decimal) error {
	m := o.mkt
	o.autoBound = !v.IsPositive()
	if lo, hi := m.band(); !o.autoBound && (v.LessThan(m.px(lo)) || v.GreaterThan(m.px(hi))) {
		return fmt.Errorf("market order price bound %s is outside %s's allowed band %s to %s (mark %s ± 50%%): send a worst price within the band, or 0 for the mark ± 5%%",
			trunc(v.String(), 30), m.name, m.px(lo), m.px(hi), m.markPx())
	}
	if o.autoBound {
		f := decimal.NewFromInt(1).Sub(defaultSlippage)
		if o.buy {
			f = decimal.NewFromInt(1).Add(defaultSlippage)
		}
		v = m.markPx().Mul(f)
	}
	q := v.Div(m.tick.d)
	if o.buy {
		o.price = q.Ceil().IntPart()
	} else {
		o.price = q.Floor().IntPart()
	}
	o.limit = m.px(o.price)
	return nil
}

func (o *order) parseTrigger(s string) error {
	m := o.mkt
	s = strings.TrimSpace(s)
	if s == "" || s == "0" {
		if o.tpsl != "" {
			return fmt.Errorf("tpsl %q needs a triggerPx", o.tpsl)
		}
		return nil
	}
	v, err := decimal.NewFromString(s)
	if err != nil || !v.IsPositive() {
		return fmt.Errorf("triggerPx %q is not a positive decimal number", trunc(s, 30))
	}
	n, err := m.tick.count(v, "triggerPx")
	if err != nil {
		return fmt.Errorf("%w (tick size of %s)", err, m.name)
	}
	o.trigger = n
	switch {
	case o.tpsl == api.TpslTakeProfit:
		o.fireAbove = !o.buy // a sell take-profit closes a long when the price rises
	case o.tpsl == api.TpslStopLoss:
		o.fireAbove = o.buy
	default:
		o.fireAbove = n > m.mark
	}
	return nil
}

// checkNotional rejects orders worth less than the instrument's minimum. Reduce-only orders are
// exempt, so small positions can always be closed.
func (o *order) checkNotional() error {
	if o.ro {
		return nil
	}
	px := o.price
	if o.isMarket {
		px = o.mkt.mark
	}
	if min := o.mkt.minUnits(); px > 0 && o.size >= (min+px-1)/px {
		return nil // px × size ≥ the minimum, in tick×lot units (both counts are at most 10^15)
	}
	if n := o.mkt.notional(px, o.size); n.LessThan(o.mkt.minNotional) {
		return fmt.Errorf("order value %s USDC is below %s's minimum of %s: increase the size", n.StringFixed(2), o.mkt.name, o.mkt.minNotional)
	}
	return nil
}

// band returns the lowest and highest limit price accepted now, in ticks.
func (m *market) band() (lo, hi int64) {
	w := m.mark / 2 // the mark ± 50%, in ticks
	lo = max(m.mark-w, 1)
	return lo, m.mark + w
}

// record renders an order as an order history record.
func (o *order) record() api.OrderRecord {
	r := api.OrderRecord{OrderID: o.oid, User: o.acct.addr, InstrumentID: o.mkt.id, Instrument: o.mkt.name,
		Side: api.SideSell, PositionSide: api.PositionSideBoth, LimitPrice: o.limitPrice(), Size: o.mkt.qty(o.size),
		Unfilled: o.mkt.qty(o.rest), State: o.state, Cloid: o.cloid, Tif: o.tif, PostOnly: o.po, ReduceOnly: o.ro,
		IsMarket: o.isMarket, Tpsl: o.tpsl, Grouping: o.grouping, Timestamp: api.Time{Time: o.created}}
	if o.buy {
		r.Side = api.SideBuy
	}
	if o.trigger != 0 {
		r.TriggerPx = api.OptDecimal{Decimal: o.mkt.px(o.trigger), Valid: true}
	}
	return r
}

// avgPrice is the order's average fill price (zero before any fill).
func (o *order) avgPrice() decimal.Decimal {
	filled := o.size - o.rest
	if filled == 0 {
		return decimal.Zero
	}
	return o.mkt.tick.dec(o.pxLots).DivRound(decimal.NewFromInt(filled), int32(max(-o.mkt.tick.e, 0))+4)
}

// limitPrice is the order's limit price: as sent, or rendered from its ticks when the fast path
// read it.
func (o *order) limitPrice() decimal.Decimal {
	if o.limit.IsZero() {
		return o.mkt.px(o.price)
	}
	return o.limit
}

// minUnits is the market's minimum notional in tick×lot units, rounded up.
func (m *market) minUnits() int64 {
	if m.minTL == 0 {
		m.minTL = max(m.minNotional.Div(m.tick.d.Mul(m.lot.d)).Ceil().IntPart(), 1)
	}
	return m.minTL
}
