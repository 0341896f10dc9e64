package state

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// market prices market orders from the mid and checks the order against the book: minimum
// notional, post-only crossing, reduce-only.
func (c *checker) market() {
	name := c.out.Instrument.Name
	t, hasTicker := c.s.ticker(name)
	c.out.Mark = t.MarkPrice
	c.out.Mid, _ = c.s.mid(name)
	if !c.out.Mark.IsPositive() {
		c.out.Mark, _ = c.s.mid(name)
	}
	switch {
	case c.in.Type == Market:
		mid, ok := c.s.mid(name)
		if !ok {
			c.fail(FieldOrder, "no mid price for "+name+" yet, so a market order has no worst price; wait for market data or use a limit order", "")
			c.ok = false
			return
		}
		c.ref, c.price = mid, c.worstPrice(mid)
	case c.in.Type == Trigger && c.price.IsZero():
		c.ref, c.price = c.trig, c.worstPrice(c.trig)
	default:
		c.ref = c.price
	}
	c.out.Price, c.out.Size = c.price, c.size
	c.out.Preview.Notional = Notional(c.size, c.ref)
	c.minNotional()
	c.takerOrMaker(t, hasTicker)
	c.reduceOnly()
	c.walk()
}

// worstPrice is ref moved by the slippage against the trader, rounded to the tick, and at least
// one tick through ref so the order can fill.
func (c *checker) worstPrice(ref decimal.Decimal) decimal.Decimal {
	slip := c.in.Slippage
	if slip.IsZero() || slip.IsNegative() || slip.GreaterThan(maxSlippage) {
		slip = DefaultSlippage
	}
	tick := c.out.Instrument.TickSize
	if c.side == api.SideBuy {
		w := RoundToStep(ref.Mul(one.Add(slip)), tick)
		return decimal.Max(w, CeilToStep(ref, tick))
	}
	w := RoundToStep(ref.Mul(one.Sub(slip)), tick)
	w = decimal.Min(w, FloorToStep(ref, tick))
	if !w.IsPositive() {
		if tick.IsPositive() {
			return tick
		}
		return ref
	}
	return w
}

func (c *checker) minNotional() {
	inst := c.out.Instrument
	min := inst.MinNotional
	px := c.minPrice()
	if c.in.ReduceOnly || !min.IsPositive() || !px.IsPositive() {
		return
	}
	n := Notional(c.size, px)
	if n.GreaterThanOrEqual(min) {
		return
	}
	need := c.minSize()
	if c.convPx.IsPositive() { // the trader gave USD: the offer is in USD, and converts back to need
		usd := CeilToStep(need.Mul(c.convPx), cent)
		c.fail(FieldNotional, fmt.Sprintf("order value %s is under the %s minimum on %s; use at least %s USD",
			n.StringFixed(2), min, inst.Name, usd), usd.String())
		return
	}
	c.fail(FieldSize, fmt.Sprintf("order value %s is under the %s minimum on %s; use a size of at least %s",
		n.StringFixed(2), min, inst.Name, need), need.String())
}

// takerOrMaker decides which fee applies, and rejects a post-only order that would cross.
func (c *checker) takerOrMaker(t api.Ticker, hasTicker bool) {
	taker := c.in.Type != Limit
	if c.in.Type == Limit && hasTicker {
		bid, ask := t.BestBidPrice, t.BestAskPrice
		crossesAsk := c.side == api.SideBuy && ask.IsPositive() && c.price.GreaterThanOrEqual(ask)
		crossesBid := c.side == api.SideSell && bid.IsPositive() && c.price.LessThanOrEqual(bid)
		taker = crossesAsk || crossesBid
		tick, pd := c.out.Instrument.TickSize, c.out.Instrument.PriceDecimals()
		if c.in.PostOnly && crossesAsk {
			s, a := ask.Sub(tick), FormatPrice(ask, pd)
			c.fail(FieldPrice, fmt.Sprintf("post-only buy at %s would cross the best ask %s and be rejected; use a price below %s", FormatPrice(c.price, pd), a, a), s.String())
		}
		if c.in.PostOnly && crossesBid {
			s, b := bid.Add(tick), FormatPrice(bid, pd)
			c.fail(FieldPrice, fmt.Sprintf("post-only sell at %s would cross the best bid %s and be rejected; use a price above %s", FormatPrice(c.price, pd), b, b), s.String())
		}
	}
	if c.in.PostOnly {
		taker = false
	}
	c.out.Preview.Taker = taker
	c.passive = c.in.Type == Limit && !taker && hasTicker && t.BestBidPrice.IsPositive() && t.BestAskPrice.IsPositive()
	c.out.Rests = c.passive
	c.out.Preview.Fee = c.s.feesFor(c.out.Instrument).Estimate(c.out.Preview.Notional, taker)
}

// reduceOnly checks that a reduce-only order shrinks the position and does not outgrow it.
func (c *checker) reduceOnly() {
	if !c.in.ReduceOnly {
		return
	}
	inst := c.out.Instrument
	if inst.Spot {
		c.fail(FieldOrder, "reduce-only applies to perpetual positions, not to spot "+inst.Name+"; clear reduce-only", "")
		return
	}
	if c.s.kinds[KindPositions].at.IsZero() {
		c.fail(FieldOrder, "positions are not loaded yet, so reduce-only cannot be checked; wait a moment", "")
		return
	}
	pos, ok := c.s.position(inst.Name)
	if !ok {
		c.fail(FieldOrder, "reduce-only: there is no position on "+inst.Name+" to reduce; clear reduce-only", "")
		return
	}
	long := pos.Size.IsPositive()
	if (c.side == api.SideBuy) == long {
		dir := "long"
		want := "sell"
		if !long {
			dir, want = "short", "buy"
		}
		c.fail(FieldSide, fmt.Sprintf("reduce-only %s would not reduce: the position is %s %s; a reduce-only order must %s", SideText(c.side), dir, pos.Size.Abs(), want), want)
		return
	}
	if c.size.GreaterThan(pos.Size.Abs()) {
		c.fail(FieldSize, fmt.Sprintf("reduce-only size %s is larger than the %s position; use %s", c.size, pos.Size.Abs(), pos.Size.Abs()), pos.Size.Abs().String())
	}
}

// buildWire fills in the order exactly as it will be signed.
func (c *checker) buildWire() {
	w := &c.out.Wire
	w.InstrumentID = c.out.Instrument.ID
	w.Side = c.side
	w.PositionSide = api.PositionSideBoth
	w.Price = c.price.String()
	w.Size = c.size.String()
	w.ReduceOnly = c.in.ReduceOnly
	w.PostOnly = c.in.PostOnly
	w.IsMarket = c.in.Type == Market || c.isTriggerMarket()
	if c.in.Type == Trigger {
		w.TriggerPx = c.trig.String()
		w.Tpsl = strings.ToLower(strings.TrimSpace(c.in.Tpsl))
	}
}

func (c *checker) isTriggerMarket() bool {
	return c.in.Type == Trigger && strings.TrimSpace(c.in.Price) == ""
}

// guard applies the fat-finger limits: it never rejects, it asks for a typed confirmation. A
// reduce-only order only cuts risk, so its findings are said but Enter confirms it; so is the
// distance of a limit order that cannot cross the book (it rests, it cannot fill at a bad price).
func (c *checker) guard() {
	inst := c.out.Instrument
	n := c.out.Preview.Notional
	switch c.in.Type {
	case Limit:
		c.resting = c.passive
		c.distanceFromMark("price", c.price)
		c.resting = false
	case Trigger:
		c.triggersAtOnce()
		if !c.isTriggerMarket() {
			c.distanceFrom("limit price", c.price, "trigger price", c.trig)
		}
	}
	c.stalePrices()
	if c.g.MaxNotional.IsPositive() && n.GreaterThan(c.g.MaxNotional) {
		c.warn(fmt.Sprintf("order value %s USD (%s %s) is over the %s USD large-order limit",
			FormatPrice(n, 2), FormatSize(c.size, inst.SizeDecimals()), inst.Name, FormatPrice(c.g.MaxNotional, 0)))
	}
	c.marketLimit(n)
}

// marketLimit warns when what an order takes from the book at once is over the market-order
// limit: a market order's whole notional, and a limit priced through the book (it fills at once
// like a market order) for what the book fills within its price (all of it when the book is not
// known).
func (c *checker) marketLimit(n decimal.Decimal) {
	limit, inst := c.g.MaxMarketNotional, c.out.Instrument
	if !limit.IsPositive() {
		return
	}
	switch {
	case c.in.Type == Market && n.GreaterThan(limit):
		c.warn(fmt.Sprintf("market %s of %s USD is over the %s USD market-order limit and may fill as far as %s",
			SideText(c.side), FormatPrice(n, 2), FormatPrice(limit, 0), FormatPrice(c.price, inst.PriceDecimals())))
	case c.in.Type == Limit && c.out.Preview.Taker:
		now := n
		if w := c.out.Preview.Walk; w.Known {
			now = w.FillCost
		}
		if now.GreaterThan(limit) {
			c.warn(fmt.Sprintf("limit %s crosses the book: %s USD of it fills at once, like a market order, over the %s USD market-order limit, as far as %s",
				SideText(c.side), FormatPrice(now, 2), FormatPrice(limit, 0), FormatPrice(c.price, inst.PriceDecimals())))
		}
	}
}

// stalePrices warns, and asks for a typed confirmation, when the market data the notional, the
// margin, a market order's worst price and the distance from the mark were computed from is stale:
// the exchange is unreachable or slow, and the trader must know the figures are old.
func (c *checker) stalePrices() {
	f := c.s.pricesFreshness(c.in.Type == Market)
	if !f.Loaded() || !f.Stale {
		return
	}
	c.out.PricesStale = max(f.Age.Round(time.Second), time.Second)
	why := ""
	if f.Err != nil {
		why = ", the last update failed"
	}
	c.warn(fmt.Sprintf("market prices are %s old%s: the mark, notional, margin and distance shown are from then", c.out.PricesStale, why))
}

// distanceFromMark warns when px is further from the mark than the guard allows, or when there is
// no mark to compare with.
func (c *checker) distanceFromMark(what string, px decimal.Decimal) {
	if !c.g.MaxPriceDistance.IsPositive() {
		return
	}
	inst := c.out.Instrument
	if !c.out.Mark.IsPositive() {
		c.warn(fmt.Sprintf("there is no mark price for %s, so how far %s is from the market cannot be checked", inst.Name, FormatPrice(px, inst.PriceDecimals())))
		return
	}
	c.distanceFrom(what, px, "mark", c.out.Mark)
}

// distanceFrom warns when px is further from ref than the guard allows.
func (c *checker) distanceFrom(what string, px decimal.Decimal, refName string, ref decimal.Decimal) {
	if !c.g.MaxPriceDistance.IsPositive() || !ref.IsPositive() {
		return
	}
	dist := px.Sub(ref).Div(ref)
	if dist.Abs().LessThanOrEqual(c.g.MaxPriceDistance) {
		return
	}
	dir := "above"
	if dist.IsNegative() {
		dir = "below"
	}
	pd := c.out.Instrument.PriceDecimals()
	c.warn(fmt.Sprintf("%s %s is %s %s the %s %s", what, FormatPrice(px, pd), FormatPercent(dist.Abs().Mul(hundred), 2), dir, refName, FormatPrice(ref, pd)))
}

// triggersAtOnce warns when a trigger order's condition already holds at the mark, so it would
// execute as soon as it is placed: a stop-loss buy (or take-profit sell) triggers when the price
// rises to it, a stop-loss sell (or take-profit buy) when the price falls to it.
func (c *checker) triggersAtOnce() {
	mark := c.out.Mark
	if !mark.IsPositive() {
		return
	}
	tp := strings.EqualFold(strings.TrimSpace(c.in.Tpsl), api.TpslTakeProfit)
	risesTo := (c.side == api.SideBuy) != tp
	now := (risesTo && mark.GreaterThanOrEqual(c.trig)) || (!risesTo && mark.LessThanOrEqual(c.trig))
	if !now {
		return
	}
	pd := c.out.Instrument.PriceDecimals()
	dir := "at or above"
	if !risesTo {
		dir = "at or below"
	}
	c.warn(fmt.Sprintf("the mark %s is already %s the trigger price %s, so this %s %s would trigger at once",
		FormatPrice(mark, pd), dir, FormatPrice(c.trig, pd), strings.ToLower(strings.TrimSpace(c.in.Tpsl)), SideText(c.side)))
}

// warn says a guard's finding and asks for a typed confirmation, unless the order only reduces
// or the finding is about a resting order's distance.
func (c *checker) warn(s string) {
	if c.resting {
		s += "; it rests on the book and cannot fill at once"
	}
	c.out.Warnings = append(c.out.Warnings, s)
	if !c.in.ReduceOnly && !c.resting {
		c.out.NeedsTypedConfirm = true
	}
}
