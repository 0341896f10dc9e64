package state

import (
	"fmt"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// BookWalk is what the order book, as the store holds it, gives an order that takes liquidity:
// the preview of a market order or a crossing limit. Every figure is from the book, not the mid.
type BookWalk struct {
	Known    bool            // a sound book of the instrument was loaded and walked
	Fillable decimal.Decimal // size the book holds at or better than the order's price (its worst price for a market order)
	AvgPrice decimal.Decimal // expected average price of the fillable size (zero when none)
	Mid      decimal.Decimal // the book's mid the slippage is measured from
	// SlippagePct and SlippageTicks are how far the expected average is from the mid, against
	// the trader (positive: worse than the mid), in percent and in ticks.
	SlippagePct   decimal.Decimal
	SlippageTicks decimal.Decimal
	// Fills, Rests and Cancelled split the order's size by what becomes of it as the book stands:
	// filled at once, left resting at its price (a GTC limit's remainder), cancelled (a market or
	// IOC order's remainder; all of a FOK order the book cannot fill whole).
	Fills, Rests, Cancelled decimal.Decimal
	// FillCost is what fills at once, priced level by level (the sum of size x price): the fee's
	// notional, exact where Fills x AvgPrice would carry the average's rounding.
	FillCost decimal.Decimal
	// FillMargin, FillUtilization and FillLiquidation are the initial margin, the account's
	// utilization (percent) and the estimated liquidation price after what fills at once
	// (perpetuals; zero otherwise).
	FillMargin      decimal.Decimal
	FillUtilization decimal.Decimal
	FillLiquidation decimal.Decimal
}

// Short reports whether the book cannot fill all of size within the order's price.
func (w BookWalk) Short(size decimal.Decimal) bool {
	return w.Known && w.Fillable.LessThan(size)
}

// walkLevels takes size from levels (best first) at prices no worse than limit: the size taken
// and its cost (sum of size times price). A buy takes asks at or below limit, a sell bids at or
// above it.
func walkLevels(levels []api.BookLevel, buy bool, size, limit decimal.Decimal) (taken, cost decimal.Decimal) {
	for _, l := range levels {
		if !taken.LessThan(size) {
			break
		}
		if (buy && l.Price.GreaterThan(limit)) || (!buy && l.Price.LessThan(limit)) {
			break
		}
		q := decimal.Min(l.Size, size.Sub(taken))
		taken = taken.Add(q)
		cost = cost.Add(q.Mul(l.Price))
	}
	return taken, cost
}

// walkBook walks symbol's book for an order of size on side up to limit; Known is false when the
// store holds no sound book with both sides.
func (s *Store) walkBook(symbol, side string, size, limit, tick decimal.Decimal) BookWalk {
	b := s.bookData().books[symbol]
	if b == nil || !b.loaded || b.err != "" || len(b.bids) == 0 || len(b.asks) == 0 {
		return BookWalk{}
	}
	buy := side == api.SideBuy
	levels := b.bids
	if buy {
		levels = b.asks
	}
	w := BookWalk{Known: true, Mid: b.bids[0].Price.Add(b.asks[0].Price).Div(two)}
	taken, cost := walkLevels(levels, buy, size, limit)
	w.Fillable, w.FillCost = taken, cost
	if !taken.IsPositive() {
		return w
	}
	w.AvgPrice = cost.Div(taken)
	diff := w.AvgPrice.Sub(w.Mid)
	if !buy {
		diff = diff.Neg()
	}
	w.SlippagePct = diff.Div(w.Mid).Mul(hundred)
	if tick.IsPositive() {
		w.SlippageTicks = diff.Div(tick)
	}
	return w
}

var two = decimal.NewFromInt(2)

// walk fills in the book walk of an order that takes liquidity at once, and says in words when
// the book cannot fill all of it within its price.
func (c *checker) walk() {
	takes := c.in.Type == Market || (c.in.Type == Limit && c.out.Preview.Taker)
	if !takes {
		return
	}
	inst := c.out.Instrument
	w := c.s.walkBook(inst.Name, c.side, c.size, c.price, inst.TickSize)
	c.split(&w)
	c.out.Preview.Walk = w
	c.fillFee()
	if !w.Short(c.size) && w.FillCost.IsPositive() {
		// The book fills it whole: its notional and fee are those of the expected fills, not of
		// the mid or its limit price.
		c.out.Preview.Notional = w.FillCost
		c.out.Preview.Fee = c.s.feesFor(inst).Estimate(w.FillCost, true)
	}
	if !w.Short(c.size) {
		return
	}
	if c.out.Wire.Tif == api.TifGTC && c.in.Type == Limit {
		// The remainder rests at the trader's own price: said, but no typed confirmation.
		c.out.Warnings = append(c.out.Warnings, c.shortWords(w))
		return
	}
	c.warn(c.shortWords(w))
}

// split divides the order's size into what fills at once, what rests and what is cancelled.
func (c *checker) split(w *BookWalk) {
	w.Fills = decimal.Min(w.Fillable, c.size)
	rest := c.size.Sub(w.Fills)
	switch {
	case !rest.IsPositive():
	case c.out.Wire.Tif == api.TifFOK: // all or nothing: the book cannot fill it whole
		w.Fills, w.FillCost, w.Cancelled = decimal.Zero, decimal.Zero, c.size
	case c.in.Type == Limit && c.out.Wire.Tif == api.TifGTC:
		w.Rests = rest
	default:
		w.Cancelled = rest
	}
}

// fillFee is the fee of what the order really does when the book cannot fill it whole: the taker
// rate on what fills at once, at the book's prices, and the maker rate on what rests at the
// order's price; what is cancelled pays nothing. (When the book fills it all the fee stays on the
// whole notional at the taker rate, takerOrMaker's.)
func (c *checker) fillFee() {
	w := c.out.Preview.Walk
	if !w.Short(c.size) {
		return
	}
	f := c.s.feesFor(c.out.Instrument)
	c.out.Preview.Fee = f.Estimate(w.FillCost, true).Add(f.Estimate(Notional(w.Rests, c.price), false))
}

// shortWords says what becomes of the part of the order the book cannot fill.
func (c *checker) shortWords(w BookWalk) string {
	inst := c.out.Instrument
	sd, pd := inst.SizeDecimals(), inst.PriceDecimals()
	have := fmt.Sprintf("the book holds only %s of %s %s at or better than %s",
		FormatSize(w.Fillable, sd), FormatSize(c.size, sd), inst.Name, FormatPrice(c.price, pd))
	rest := FormatSize(c.size.Sub(w.Fillable), sd)
	switch c.out.Wire.Tif {
	case api.TifFOK:
		return have + ": this FOK order would fill nothing and be cancelled"
	case api.TifGTC:
		return have + ": " + rest + " would rest on the book at " + FormatPrice(c.price, pd)
	}
	if c.in.Type == Market {
		return have + " (the slippage bound): " + rest + " would not fill and be cancelled"
	}
	return have + ": " + rest + " would not fill and be cancelled (IOC)"
}

// fillMargin is the margin, utilization and liquidation estimate after what the book will really
// fill at once, by the same rules as the whole order's (api.MarginOrder, released, liquidation),
// on the size that fills (zero for a FOK order the book cannot fill whole).
func (c *checker) fillMargin(rule api.MarginOrder, pos api.Position) {
	w := &c.out.Preview.Walk
	if !w.Known {
		return
	}
	signed := w.Fills
	if c.side == api.SideSell {
		signed = signed.Neg()
	}
	if !c.in.ReduceOnly {
		rule.Size = w.Fills
		w.FillMargin = rule.Need().Margin
	}
	w.FillUtilization = MarginUtilizationAfter(c.s.account(), w.FillMargin.Sub(c.released(pos, signed)))
	entry := w.AvgPrice
	if !entry.IsPositive() {
		entry = c.ref
	}
	w.FillLiquidation = c.liquidation(pos, signed, rule.Leverage, entry, c.s.feesFor(c.out.Instrument).Estimate(w.FillCost, true))
}

// fillPrice is the price the whole order is expected to fill at: the book walk's average when
// the book fills all of it at once, else the price its notional is valued at.
func (c *checker) fillPrice() decimal.Decimal {
	w := c.out.Preview.Walk
	if w.Known && !w.Short(c.size) && w.AvgPrice.IsPositive() {
		return w.AvgPrice
	}
	return c.ref
}

// Words is the walk in one line, as the form, the confirmation and `order --dry-run` say it:
// "0.300 of 0.500, avg 50,006.83 (0.014%, 14 ticks off mid)". Empty when no book was walked.
func (w BookWalk) Words(size decimal.Decimal, inst Instrument) string {
	if !w.Known {
		return ""
	}
	sd, pd := inst.SizeDecimals(), inst.PriceDecimals()
	if !w.Fillable.IsPositive() {
		return "fills nothing of " + FormatSize(size, sd) + " at its price"
	}
	return fmt.Sprintf("%s of %s, avg %s (%s%%, %s off mid)", FormatSize(w.Fillable, sd), FormatSize(size, sd),
		FormatPrice(w.AvgPrice, pd+1), w.SlippagePct.StringFixed(3), TicksText(w.SlippageTicks))
}

// TicksText is a distance in ticks as a trader counts them, whole: "331 ticks" for 331.1, "1 tick",
// "<1 tick" for a part of one, "0 ticks"; a negative distance keeps its sign.
func TicksText(t decimal.Decimal) string {
	sign := ""
	if t.IsNegative() {
		sign = "-"
	}
	n := t.Abs().Round(0)
	if n.IsZero() && !t.IsZero() {
		return "<1 tick"
	}
	if n.Equal(decimal.NewFromInt(1)) {
		return sign + "1 tick"
	}
	return sign + FormatPrice(n, 0) + " ticks"
}
