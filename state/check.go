package state

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// checker carries one CheckOrder run: the store (read-locked), the intent, the guard, what has been
// worked out so far, and the problems found.
type checker struct {
	s     *Store
	in    OrderIntent
	g     Guard
	out   CheckedOrder
	errs  []FieldError
	side  string
	price decimal.Decimal // limit price (limit, trigger-limit) or worst price (market)
	ref   decimal.Decimal // price the notional is valued at
	trig  decimal.Decimal
	size  decimal.Decimal
	ok    bool // instrument, price and size are all known
	// passive: a limit order that cannot cross the book as it stands (it rests)
	passive bool
	resting bool            // the guard finding being said is a passive order's distance: no typed confirmation
	convPx  decimal.Decimal // the price a USD amount was turned into a size at; zero when a size was typed
}

func (c *checker) fail(field, msg, suggest string) {
	c.errs = append(c.errs, FieldError{Field: field, Msg: msg, Suggest: suggest})
}

func (c *checker) failErr(err error) {
	if fe, ok := err.(FieldError); ok {
		c.errs = append(c.errs, fe)
	}
}

// CheckOrder is the one validation path for orders. It checks the intent against the instrument,
// the market and the account, and returns the order to sign with its preview. The order may be
// signed only when the returned list is empty; when it is not, the CheckedOrder holds whatever
// could be worked out (for a live preview) and must not be sent. Nothing is rounded silently: a
// value off the tick or lot is an error whose Suggest holds the rounded value.
func (s *Store) CheckOrder(in OrderIntent, g Guard) (CheckedOrder, []FieldError) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c := &checker{s: s, in: in, g: g}
	if !c.instrument() {
		return c.out, c.errs
	}
	c.fields()
	if c.ok {
		c.market()
	}
	if c.ok {
		c.account()
		c.buildWire()
		c.guard()
	}
	c.out.NeedsConfirm = g.Confirm.asksOrder(c.out)
	return c.out, c.errs
}

// instrument resolves the instrument; it stops the check when there is none to check against.
func (c *checker) instrument() bool {
	name := strings.TrimSpace(c.in.Instrument)
	if name == "" {
		c.fail(FieldInstrument, "choose an instrument", "")
		return false
	}
	inst, ok := c.s.findInstrument(name)
	if !ok {
		if len(c.s.instrumentData().list) == 0 {
			c.fail(FieldInstrument, "instruments are not loaded yet; wait a moment and try again", "")
		} else {
			c.fail(FieldInstrument, fmt.Sprintf("unknown instrument %s; pick a name from the instrument list", text.Quote(name)), closestName(c.s.instrumentData().names, name))
		}
		return false
	}
	c.out.Instrument = inst
	if inst.Delisted {
		c.fail(FieldInstrument, inst.Name+" is delisted and takes no new orders", "")
		return false
	}
	return true
}

// closestName offers a name that starts with what was typed, ignoring case.
func closestName(names []string, typed string) string {
	up := strings.ToUpper(typed)
	for _, n := range names {
		if strings.HasPrefix(strings.ToUpper(n), up) {
			return n
		}
	}
	return ""
}

// fields checks every field on its own: side, type, tif, flags, cloid, slippage, price, trigger, size.
func (c *checker) fields() {
	side, ok := normalizeSide(c.in.Side)
	if !ok {
		c.failErr(sideError(c.in.Side))
	}
	c.side = side
	c.typeAndTif()
	c.cloid()
	c.slippage()
	priceOK := c.priceField()
	trigOK := c.triggerField()
	sizeOK := c.sizeField()
	c.ok = ok && priceOK && trigOK && sizeOK
}

func (c *checker) typeAndTif() {
	tif := strings.ToUpper(strings.TrimSpace(c.in.Tif))
	switch c.in.Type {
	case Limit, Trigger:
		if tif == "" {
			tif = api.TifGTC
		}
	case Market:
		if tif != "" && tif != api.TifIOC {
			c.fail(FieldTif, fmt.Sprintf("a market order is IOC, not %s; leave time in force empty", tif), api.TifIOC)
		}
		tif = api.TifIOC
		if c.in.PostOnly {
			c.fail(FieldOrder, "a market order cannot be post-only; choose limit or clear post-only", "")
		}
	default:
		c.fail(FieldType, fmt.Sprintf("order type %d is not limit, market or trigger", int(c.in.Type)), "")
	}
	if !validTif(tif) {
		c.failErr(tifError(tif))
	}
	if c.in.PostOnly && c.in.Type != Market && tif != api.TifGTC {
		c.fail(FieldTif, "post-only orders rest on the book, so they need GTC, not "+tif, api.TifGTC)
	}
	c.out.Wire.Tif = tif
}

func (c *checker) cloid() {
	id := strings.TrimSpace(c.in.Cloid)
	if id == "" {
		id = NewCloid()
	} else if err := api.CheckCloid(id); err != nil {
		c.failErr(cloidError(err))
	}
	c.out.Wire.Cloid = id
}

func (c *checker) slippage() {
	if c.in.Slippage.IsNegative() || c.in.Slippage.GreaterThan(maxSlippage) {
		c.fail(FieldSlippage, fmt.Sprintf("slippage %s is not between 0 and 0.5 (a fraction: 0.01 is 1%%)", c.in.Slippage), DefaultSlippage.String())
	}
}

// priceField checks the limit price (limit orders, and trigger orders that carry one).
func (c *checker) priceField() bool {
	if c.in.Type == Market || (c.in.Type == Trigger && strings.TrimSpace(c.in.Price) == "") {
		return true
	}
	p, err := ParsePositive(FieldPrice, "price", c.in.Price)
	if err != nil {
		c.failErr(err)
		return false
	}
	if !c.onTick(FieldPrice, "price", p) {
		return false
	}
	c.price = p
	return true
}

// triggerField checks the trigger price and tp/sl of a trigger order.
func (c *checker) triggerField() bool {
	if c.in.Type != Trigger {
		return true
	}
	ok := true
	switch {
	case strings.TrimSpace(c.in.Tpsl) == "":
		c.fail(FieldTpsl, "a trigger order needs tp (take profit) or sl (stop loss)", "")
		ok = false
	case !validTpsl(c.in.Tpsl):
		c.failErr(tpslError(c.in.Tpsl))
		ok = false
	}
	p, err := ParsePositive(FieldTrigger, "trigger price", c.in.TriggerPx)
	if err != nil {
		c.failErr(err)
		return false
	}
	if !c.onTick(FieldTrigger, "trigger price", p) {
		return false
	}
	c.trig = p
	return ok
}

// onTick checks that price p of the field is a multiple of the instrument's tick; when it is not,
// the problem suggests p rounded to the passive side for a limit price (down for a buy, up for a
// sell: a rounded price never trades at a worse price than the one typed), to the nearest tick for
// a trigger price, and at least one tick.
func (c *checker) onTick(field, what string, p decimal.Decimal) bool {
	tick := c.out.Instrument.TickSize
	if OnStep(p, tick) {
		return true
	}
	r := RoundToStep(p, tick)
	switch {
	case field != FieldPrice:
	case c.side == api.SideBuy:
		r = FloorToStep(p, tick)
	case c.side == api.SideSell:
		r = CeilToStep(p, tick)
	}
	if r.IsZero() {
		r = tick
	}
	c.fail(field, fmt.Sprintf("%s %s is not a multiple of the tick size %s on %s; use %s", what, p, tick, c.out.Instrument.Name, r), r.String())
	return false
}

// sizeField checks the size, or converts the USD notional to a size when no size is given.
func (c *checker) sizeField() bool {
	if strings.TrimSpace(c.in.Size) == "" && strings.TrimSpace(c.in.NotionalUSD) != "" {
		return c.notionalField()
	}
	sz, err := ParsePositive(FieldSize, "size", c.in.Size)
	if err != nil {
		c.failErr(err)
		return false
	}
	lot := c.out.Instrument.LotSize
	if !OnStep(sz, lot) {
		// The offer meets the minimum order value too, so taking it passes the next check.
		r := decimal.Max(decimal.Max(FloorToStep(sz, lot), lot), c.minSize())
		c.fail(FieldSize, fmt.Sprintf("size %s is not a multiple of the lot size %s on %s; use %s", sz, lot, c.out.Instrument.Name, r), r.String())
		return false
	}
	c.size = sz
	return true
}

// notionalField turns a USD amount into a size at the limit price (or the mid), rounded down to
// the lot: the trader asked for "about this much", and the preview shows the size it became.
func (c *checker) notionalField() bool {
	n, err := ParsePositive(FieldNotional, "notional", c.in.NotionalUSD)
	if err != nil {
		c.failErr(err)
		return false
	}
	px := c.price
	if !px.IsPositive() {
		px = c.trig
	}
	if !px.IsPositive() {
		m, ok := c.s.mid(c.out.Instrument.Name)
		if !ok {
			c.fail(FieldNotional, "no price to convert the notional at yet; enter a size instead", "")
			return false
		}
		px = m
	}
	lot := c.out.Instrument.LotSize
	c.convPx = px
	sz := FloorToStep(n.Div(px), lot)
	if !sz.IsPositive() {
		// The offer is one lot or the minimum order value, whichever is more, rounded up to the
		// cent so that it converts back to a size that passes.
		least := decimal.Max(lot, c.minSize())
		need := CeilToStep(Notional(least, px), cent)
		c.fail(FieldNotional, fmt.Sprintf("%s USD is less than one lot (%s) at %s; use at least %s USD", n, lot, px, need), need.String())
		return false
	}
	c.size = sz
	return true
}

var cent = decimal.New(1, -2)

// minPrice is the price the exchange values an order at for its minimum order value: the mark
// for a market order (and a trigger that executes at market), else the limit price; before the
// price is known, the mark (or the mid).
func (c *checker) minPrice() decimal.Decimal {
	market := c.in.Type == Market || c.isTriggerMarket()
	if !market && c.price.IsPositive() {
		return c.price
	}
	name := c.out.Instrument.Name
	if t, ok := c.s.ticker(name); ok && t.MarkPrice.IsPositive() {
		return t.MarkPrice
	}
	if m, ok := c.s.mid(name); ok {
		return m
	}
	return c.price
}

// minSize is the smallest size, a multiple of the lot, whose value meets the instrument's minimum
// order value at minPrice; zero when there is no minimum or no price.
func (c *checker) minSize() decimal.Decimal {
	inst := c.out.Instrument
	px := c.minPrice()
	if !inst.MinNotional.IsPositive() || !px.IsPositive() {
		return decimal.Zero
	}
	return CeilToStep(inst.MinNotional.Div(px), inst.LotSize)
}
