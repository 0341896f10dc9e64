package state

import (
	"regexp"
	"slices"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// ReviewMaxAge is how long a confirmation may stay open and still send on Enter: an older one is
// checked again, shown again and asked again, whatever moved (issue #31 #6).
const ReviewMaxAge = 10 * time.Second

// Moved says what changed, for the trader, between the order c they were shown and fresh, the
// same intent checked again against the store: nil when nothing they confirmed moved. What counts:
// the size; the price signed (a market order's worst price) worse for them; the book filling less
// at once, or at a worse average; a warning that came or went (its figures aside, as they move with
// every mark); prices that turned stale, or fresh again. A move in the trader's favour leaves what
// they confirmed true (the order fills as far as the price they saw, no further), so it is not
// asked again: in a moving market every Enter would otherwise be refused.
func (c CheckedOrder) Moved(fresh CheckedOrder) []string {
	in, buy := c.Instrument, c.Wire.Side == api.SideBuy
	var why []string
	if !fresh.Size.Equal(c.Size) {
		why = append(why, "the size is now "+in.SizeText(fresh.Size)+", not "+in.SizeText(c.Size))
	}
	if worse(buy, fresh.Price, c.Price) {
		what := "the price"
		if c.Wire.IsMarket {
			what = "the worst price"
		}
		why = append(why, what+" moved from "+in.PriceText(c.Price)+" to "+in.PriceText(fresh.Price))
	}
	if s := c.Preview.Walk.movedFrom(fresh.Preview.Walk, buy, c.Size, in); s != "" {
		why = append(why, s)
	}
	if !slices.Equal(warningKinds(c.Warnings), warningKinds(fresh.Warnings)) {
		why = append(why, "the warnings changed")
	}
	switch {
	case c.PricesStale == 0 && fresh.PricesStale > 0:
		why = append(why, "prices are now "+fresh.PricesStale.String()+" old")
	case c.PricesStale > 0 && fresh.PricesStale == 0:
		why = append(why, "prices are fresh again")
	}
	return why
}

// movedFrom says how the book's fill now (fresh) is worse than the one shown (w): it is known or
// not any more, it fills less at once, or at a worse average; "" otherwise.
func (w BookWalk) movedFrom(fresh BookWalk, buy bool, size decimal.Decimal, in Instrument) string {
	switch {
	case w.Known != fresh.Known:
		return "the book's fill changed"
	case !w.Known:
		return ""
	case fresh.Fills.LessThan(w.Fills):
		return "the book now fills " + in.SizeText(fresh.Fills) + " of " + in.SizeText(size) + " at once, not " + in.SizeText(w.Fills)
	case worse(buy, fresh.AvgPrice, w.AvgPrice):
		return "the book's average fill moved from " + in.PriceText(w.AvgPrice) + " to " + in.PriceText(fresh.AvgPrice)
	}
	return ""
}

// worse reports whether price now is worse than was for a buyer (higher) or a seller (lower).
func worse(buy bool, now, was decimal.Decimal) bool {
	if buy {
		return now.GreaterThan(was)
	}
	return now.LessThan(was)
}

var figures = regexp.MustCompile(`[0-9][0-9.,]*`)

// warningKinds are warnings with their figures masked, so a warning whose figures moved with
// the mark is the same warning, and one that came or went is not.
func warningKinds(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = figures.ReplaceAllString(w, "#")
	}
	slices.Sort(out)
	return out
}

// Moved is CheckedOrder.Moved of the entry, and the legs: a take-profit or stop-loss measured
// from the expected fill that moved with it, and a stop that now lies past the liquidation price.
func (c CheckedBracket) Moved(fresh CheckedBracket) []string {
	why := c.Entry.Moved(fresh.Entry)
	in := c.Entry.Instrument
	if !fresh.TP.Equal(c.TP) {
		why = append(why, "the take-profit moved from "+in.PriceText(c.TP)+" to "+in.PriceText(fresh.TP))
	}
	if !fresh.SL.Equal(c.SL) {
		why = append(why, "the stop-loss moved from "+in.PriceText(c.SL)+" to "+in.PriceText(fresh.SL))
	}
	if fresh.StopPastLiq && !c.StopPastLiq {
		why = append(why, "the stop-loss now lies past the liquidation price "+in.PriceText(fresh.Liq))
	}
	return why
}

// Moved says what changed, for the trader, between the take-profit and stop-loss on a whole
// position they were shown (t) and fresh, the same command checked again: the position's size,
// a leg's trigger price (a distance from the entry moves with the entry), or a stop that now lies
// past the liquidation price. A leg the mark has since passed is not here: the check refuses it
// (it would fire at once), so nothing is sent.
func (t PositionTpsl) Moved(fresh PositionTpsl) []string {
	in := t.Instrument
	var why []string
	if !fresh.Position.Size.Equal(t.Position.Size) {
		why = append(why, "the position is now "+in.SizeText(fresh.Position.Size)+", not "+in.SizeText(t.Position.Size))
	}
	if !fresh.TP.Equal(t.TP) {
		why = append(why, "the take-profit moved from "+in.PriceText(t.TP)+" to "+in.PriceText(fresh.TP))
	}
	if !fresh.SL.Equal(t.SL) {
		why = append(why, "the stop-loss moved from "+in.PriceText(t.SL)+" to "+in.PriceText(fresh.SL))
	}
	if fresh.StopPastLiq && !t.StopPastLiq {
		why = append(why, "the stop-loss now lies past the liquidation price "+in.PriceText(fresh.Liq))
	}
	return why
}

// Moved says what changed, for the trader, between the leverage change they were shown (c) and
// fresh, the same change checked again: the leverage in force (set elsewhere meanwhile), or a
// position opened or closed on the instrument. The margin figures move with every mark and are
// not asked again for; a change that no longer passes (over the tiers' maximum, under margin) is
// refused by the check itself.
func (c LeverageChange) Moved(fresh LeverageChange) []string {
	var why []string
	if !fresh.Current.Equal(c.Current) {
		why = append(why, "the leverage in force is now "+fresh.Current.String()+"x, not "+c.Current.String()+"x")
	}
	if fresh.Notional.IsZero() != c.Notional.IsZero() {
		why = append(why, "the "+c.Instrument.Name+" position opened or closed")
	}
	return why
}
