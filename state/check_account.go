package state

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// account checks the order against the account: margin mode, leverage, available margin (perps) or
// balance (spot), and fills in the margin side of the preview. The margin is the exchange's rule,
// api.MarginOrder, the one the simulator rejects with.
func (c *checker) account() {
	if c.out.Instrument.Spot {
		c.spotBalance()
		return
	}
	c.onlyIsolated()
	lev := c.s.leverageFor(c.out.Instrument)
	c.out.Preview.Leverage = lev
	pos, _ := c.s.position(c.out.Instrument.Name)
	signed := c.size
	if c.side == api.SideSell {
		signed = signed.Neg()
	}
	rule := c.marginOrder(pos.Size, lev)
	full := rule.Need() // computed once: the basis reads its price even for a reduce-only order
	need := api.MarginNeed{}
	if !c.in.ReduceOnly {
		need = full
	}
	c.out.Preview.MarginRequired = need.Margin
	c.out.Preview.MarginPrice, c.out.Preview.MarginBasis = marginBasis(rule, full.Price)
	c.out.Preview.FeeReserve = need.Fee
	c.out.Preview.UtilizationAfter = MarginUtilizationAfter(c.s.account(), need.Margin.Sub(c.released(pos, signed)))
	c.out.Preview.LiquidationEstimate = c.liquidation(pos, signed, lev, c.fillPrice(), c.out.Preview.Fee)
	c.fillMargin(rule, pos)
	if !need.Grows() {
		return
	}
	c.maxLeverage(need, lev)
	c.availableMargin(rule, need)
}

// The prices api.MarginOrder can value an order's margin at (Preview.MarginBasis).
const (
	MarginAtPrice   = "price"   // the order's price as signed (a market order's worst price)
	MarginAtMark    = "mark"    // the mark, above the order's price
	MarginAtTrigger = "trigger" // the trigger, above the order's price and the mark
)

// marginBasis is the price the rule values the order at and which price that is: the order's
// own when it is the highest (ties go to the price, then the trigger), else the trigger or the mark.
// at is rule.Need().Price, passed in so a check computes the margin once.
func marginBasis(rule api.MarginOrder, at decimal.Decimal) (decimal.Decimal, string) {
	switch {
	case at.Equal(rule.Price):
		return at, MarginAtPrice
	case rule.Trigger.IsPositive() && at.Equal(rule.Trigger):
		return at, MarginAtTrigger
	}
	return at, MarginAtMark
}

// marginOrder is the order as the exchange's margin rule sees it: the position, the account's
// other open orders on the instrument, the price as signed, the mark and the taker rate.
func (c *checker) marginOrder(pos, lev decimal.Decimal) api.MarginOrder {
	o := api.MarginOrder{Position: pos, Buy: c.side == api.SideBuy, Size: c.size, Price: c.price,
		Trigger: c.trig, Mark: c.out.Mark, Leverage: lev, TakerFee: c.s.feesFor(c.out.Instrument).Taker}
	for _, r := range c.s.data(KindOrders).(*orderData).list {
		if r.Instrument != c.out.Instrument.Name {
			continue
		}
		sz := r.Unfilled
		if r.TriggerPx.Valid { // waiting triggers reserve their size unless reduce-only
			if r.ReduceOnly {
				continue
			}
			sz = r.Size
		}
		if r.Side == api.SideBuy {
			o.OpenBuy = o.OpenBuy.Add(sz)
		} else {
			o.OpenSell = o.OpenSell.Add(sz)
		}
	}
	return o
}

// released is the initial margin the position stops needing when an order of signed size q
// reduces it: its share of the position's margin (the account's figure, else its notional at the
// mark over its leverage). A close previews the state after the close, not today's.
func (c *checker) released(pos api.Position, q decimal.Decimal) decimal.Decimal {
	if pos.Size.IsZero() || pos.Size.Sign() == q.Sign() {
		return decimal.Zero
	}
	closed := decimal.Min(q.Abs(), pos.Size.Abs())
	im := c.s.account().PerpPositions[pos.Instrument].IM
	if !im.IsPositive() {
		mark := c.out.Mark
		if !mark.IsPositive() {
			mark = pos.EntryPrice
		}
		im = MarginRequired(Notional(pos.Size, mark), pos.Leverage)
	}
	return im.Mul(closed).Div(pos.Size.Abs())
}

// DefaultLeverage is the leverage assumed on an instrument the account has no setting or position
// on (capped at the instrument's maximum): the exchange's starting leverage.
var DefaultLeverage = decimal.NewFromInt(10)

// leverageFor is the leverage the account trades inst at: its leverage setting, else the open
// position's, else the account summary's leg, else DefaultLeverage capped at the instrument's max.
func (s *Store) leverageFor(inst Instrument) decimal.Decimal {
	if l, ok := s.leverage(inst.Name); ok && l.Leverage.IsPositive() {
		return l.Leverage
	}
	if p, ok := s.position(inst.Name); ok && p.Leverage.IsPositive() {
		return p.Leverage
	}
	if ps, ok := s.account().PerpPositions[inst.Name]; ok {
		for _, leg := range ps.Legs {
			if leg.Leverage.Value.IsPositive() {
				return leg.Leverage.Value
			}
		}
	}
	if inst.MaxLeverage.IsPositive() && inst.MaxLeverage.LessThan(DefaultLeverage) {
		return inst.MaxLeverage
	}
	return DefaultLeverage
}

// marginModeFor is cross or isolated for inst: its leverage setting, else the open position, else
// the account; "" when none is known.
func (s *Store) marginModeFor(inst Instrument) string {
	if l, ok := s.leverage(inst.Name); ok && l.MarginType != "" {
		return strings.ToLower(l.MarginType)
	}
	if p, ok := s.position(inst.Name); ok && p.MarginMode != "" {
		return strings.ToLower(p.MarginMode)
	}
	return strings.ToLower(s.account().MarginMode)
}

func (c *checker) onlyIsolated() {
	inst := c.out.Instrument
	if inst.OnlyIsolated && c.s.marginModeFor(inst) == api.MarginCross {
		c.fail(FieldOrder, inst.Name+" allows isolated margin only and the account trades it in cross; switch "+inst.Name+" to isolated margin first", "")
	}
}

// maxLeverage rejects a leverage setting above what the margin tiers allow for the worst position
// the order can lead to, valued as the exchange values it.
func (c *checker) maxLeverage(need api.MarginNeed, lev decimal.Decimal) {
	inst := c.out.Instrument
	n := need.After.Mul(need.Price)
	max := inst.MaxLeverageAt(n)
	if !max.IsPositive() || lev.LessThanOrEqual(max) {
		return
	}
	c.fail(FieldOrder, fmt.Sprintf("leverage %sx is over the %sx allowed for a %s USD position on %s; lower the leverage or the size",
		lev, max, FormatPrice(n, 2), inst.Name), "")
}

// availableMargin rejects an order whose margin and fee reserve exceed the available balance,
// offering the largest size the same rule accepts.
func (c *checker) availableMargin(rule api.MarginOrder, need api.MarginNeed) {
	if c.s.kinds[KindAccount].at.IsZero() {
		c.fail(FieldOrder, "the account is not loaded yet, so margin cannot be checked; wait a moment", "")
		return
	}
	avail := c.s.account().AvailableBalance
	if need.Total().LessThanOrEqual(avail) {
		return
	}
	suggest := ""
	if max := c.affordable(rule.MaxSize(avail, c.out.Instrument.LotSize)); max.IsPositive() {
		suggest = max.String()
	}
	msg := fmt.Sprintf("needs %s USD of margin and fees at %sx (valued at %s) but only %s USD is available",
		FormatPrice(need.Total(), 2), rule.Leverage, FormatPrice(need.Price, c.out.Instrument.PriceDecimals()), FormatPrice(avail, 2))
	if suggest != "" {
		msg += "; use a size of at most " + suggest
	}
	c.fail(FieldSize, msg, suggest)
}

// affordable is max when it also meets the minimum notional; zero when no size both fits and meets it.
func (c *checker) affordable(max decimal.Decimal) decimal.Decimal {
	if !max.IsPositive() || (!c.in.ReduceOnly && c.minSize().GreaterThan(max)) {
		return decimal.Zero
	}
	return max
}

// spotBalance checks a spot order against the spot balance it spends: the quote asset for a buy,
// the base asset for a sell, by the exchange's rule (api.SpotNeed: a buy reserves the taker fee at
// its price as signed), and offers the largest size that fits. When the collateral list or the
// account is not loaded it cannot check and says so in a warning.
func (c *checker) spotBalance() {
	inst := c.out.Instrument
	buy := c.side == api.SideBuy
	asset, need := inst.BaseAsset, api.SpotNeed(buy, c.size, c.price, c.s.feesFor(inst).Taker)
	if buy {
		asset = inst.QuoteAsset
		c.out.Preview.MarginRequired = need
	}
	sym, ok := c.s.collateralSymbol(asset)
	if !ok || c.s.kinds[KindAccount].at.IsZero() {
		c.out.Warnings = append(c.out.Warnings, "the spot balance could not be checked (account or collateral list not loaded)")
		return
	}
	bal := c.s.account().SpotCollateral[sym]
	// What open orders hold is not spendable: the withdrawable figure is what is free, even when
	// it is zero and the balance is not.
	have := decimal.Max(bal.WithdrawableBalance, decimal.Zero)
	if need.LessThanOrEqual(have) {
		return
	}
	msg := fmt.Sprintf("needs %s %s but the spot balance has %s %s", need, sym, have, sym)
	if held := bal.Balance.Sub(have); held.IsPositive() {
		msg = fmt.Sprintf("needs %s %s but the spot balance has %s %s free (%s held by open orders)", need, sym, have, sym, held)
	}
	suggest := ""
	if max := c.affordable(api.SpotMaxSize(buy, have, c.price, c.s.feesFor(inst).Taker, inst.LotSize)); max.IsPositive() {
		suggest = max.String()
		msg += "; use a size of at most " + suggest
	}
	c.fail(FieldSize, msg, suggest)
}

func (s *Store) collateralSymbol(id api.CollateralID) (string, bool) {
	for _, col := range s.collateralData().list {
		if col.ID == id {
			return col.Symbol, true
		}
	}
	return "", false
}
