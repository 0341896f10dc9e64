package api

import "github.com/shopspring/decimal"

// MarginOrder is one perpetual order as the exchange's margin check sees it. MarginOrder.Need is
// the one rule: the simulator rejects with it and the console previews and offers sizes with it,
// so a size the console calls affordable is one the exchange accepts.
//
// The rule: an order needs margin only when it makes the worst position its open orders could
// lead to (all buys filled, or all sells) larger. Then it needs the initial margin of that growth
// and a reserve for the taker fee on its whole size, both valued at the highest of the mark, its
// price and its trigger (a resting buy below the mark is valued at the mark; a market buy at its
// worst price), and the total must not exceed the available balance. Reduce-only orders need
// nothing.
type MarginOrder struct {
	Position decimal.Decimal // the account's signed position on the instrument (negative: short)
	OpenBuy  decimal.Decimal // unfilled size of resting buys and of waiting buy triggers that are not reduce-only
	OpenSell decimal.Decimal // the same for sells
	Buy      bool
	Size     decimal.Decimal // the order's size, in base units
	Price    decimal.Decimal // limit price, or a market order's worst price, as signed
	Trigger  decimal.Decimal // trigger price; zero when there is none
	Mark     decimal.Decimal
	Leverage decimal.Decimal // the account's leverage on the instrument (below 1 counts as 1)
	TakerFee decimal.Decimal // taker fee rate (0.0004 = 0.04%)
}

// MarginNeed is what a perpetual order needs under the exchange's rule.
type MarginNeed struct {
	Price  decimal.Decimal // the price the order is valued at: max(mark, price, trigger)
	Before decimal.Decimal // the worst position size without the order
	After  decimal.Decimal // with it
	Margin decimal.Decimal // initial margin of the growth (After - Before) at Price
	Fee    decimal.Decimal // taker fee reserve on the whole size at Price
}

// Grows reports whether the order makes the worst position larger; only then is it checked.
func (n MarginNeed) Grows() bool { return n.After.GreaterThan(n.Before) }

// Total is the margin and the fee reserve: what must be available.
func (n MarginNeed) Total() decimal.Decimal { return n.Margin.Add(n.Fee) }

// rulePrice is the price the order is valued at.
func (o MarginOrder) rulePrice() decimal.Decimal {
	return decimal.Max(o.Mark, decimal.Max(o.Price, o.Trigger))
}

// leverage is the leverage the margin is computed at (at least 1).
func (o MarginOrder) leverage() decimal.Decimal {
	if o.Leverage.LessThan(decimal.NewFromInt(1)) {
		return decimal.NewFromInt(1)
	}
	return o.Leverage
}

// worstWith is the worst position size after an order of size s on the order's side.
func (o MarginOrder) worstWith(s decimal.Decimal) decimal.Decimal {
	b, sl := o.OpenBuy, o.OpenSell
	if o.Buy {
		b = b.Add(s)
	} else {
		sl = sl.Add(s)
	}
	return decimal.Max(o.Position.Add(b).Abs(), o.Position.Sub(sl).Abs())
}

// Need is what the order needs: zero margin and fee when it does not grow the worst position.
func (o MarginOrder) Need() MarginNeed {
	n := MarginNeed{Price: o.rulePrice(), Before: o.worstWith(decimal.Zero), After: o.worstWith(o.Size)}
	if !n.Grows() {
		return n
	}
	n.Margin = n.After.Sub(n.Before).Mul(n.Price).Div(o.leverage())
	n.Fee = o.Size.Mul(n.Price).Mul(o.TakerFee)
	return n
}

// MaxSize is the largest size, a multiple of lot, that the order could have under the rule with
// avail available (its price, side and everything else as they are). Sizes up to the room the
// other side's open orders leave need nothing, so it is never below that room.
func (o MarginOrder) MaxSize(avail, lot decimal.Decimal) decimal.Decimal {
	before := o.worstWith(decimal.Zero)
	y := o.Position.Add(o.OpenBuy) // the position the order's side leads to, signed toward the order
	if !o.Buy {
		y = o.OpenSell.Sub(o.Position)
	}
	free := before.Sub(y) // size the order can have without growing the worst position
	if !o.rulePrice().IsPositive() || !avail.IsPositive() {
		return floorLot(free, lot)
	}
	s := o.maxSizeEstimate(avail, free, lot)
	for s.GreaterThan(free) { // the division above is rounded; step down until the rule agrees
		try := o
		try.Size = s
		if try.Need().Total().LessThanOrEqual(avail) {
			break
		}
		s = s.Sub(lot)
	}
	return decimal.Max(s, floorLot(free, lot))
}

// maxSizeEstimate solves the rule for the size in closed form, floored to the lot: need(s) =
// px (s - free) / lev + px s fee <= avail. Only the division's rounding can leave it above the
// answer, so MaxSize steps down at most a lot or two from it.
func (o MarginOrder) maxSizeEstimate(avail, free, lot decimal.Decimal) decimal.Decimal {
	px, lev := o.rulePrice(), o.leverage()
	s := avail.Mul(lev).Div(px).Add(free).Div(decimal.NewFromInt(1).Add(lev.Mul(o.TakerFee)))
	return floorLot(s, lot)
}

// SpotNeed is what a spot order needs under the exchange's rule: a buy its notional at its price
// (a market buy's worst price) plus the taker fee reserve, in the quote asset; a sell its size, in
// the base asset.
func SpotNeed(buy bool, size, price, takerFee decimal.Decimal) decimal.Decimal {
	if !buy {
		return size
	}
	return size.Mul(price).Mul(decimal.NewFromInt(1).Add(takerFee))
}

// SpotMaxSize is the largest size, a multiple of lot, that a spot order can have with free of the
// asset it spends.
func SpotMaxSize(buy bool, free, price, takerFee, lot decimal.Decimal) decimal.Decimal {
	if !free.IsPositive() {
		return decimal.Zero
	}
	if !buy {
		return floorLot(free, lot)
	}
	if !price.IsPositive() {
		return decimal.Zero
	}
	s := floorLot(free.Div(price.Mul(decimal.NewFromInt(1).Add(takerFee))), lot)
	for s.IsPositive() && SpotNeed(true, s, price, takerFee).GreaterThan(free) {
		s = s.Sub(lot)
	}
	return s
}

// floorLot rounds v down to a multiple of lot (a lot of zero or less leaves v as it is).
func floorLot(v, lot decimal.Decimal) decimal.Decimal {
	if !lot.IsPositive() {
		return v
	}
	return v.Div(lot).Floor().Mul(lot)
}
