package state

import (
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// Labels of the preview's rows (the order form and the confirmation show the same rows).
const (
	RowNotional    = "Notional"
	RowFee         = "Fee (est.)"
	RowMargin      = "Margin"
	RowCost        = "Cost"
	RowUtilization = "Util. after"
	RowLiquidation = "Liq. est."
	RowBook        = "Book fills"
)

// PreviewRow is one figure of an order's preview, in words: its label and its value.
type PreviewRow struct {
	Label string
	Value string
	// Pct is the utilization the value says (RowUtilization only), for the pane to colour.
	Pct decimal.Decimal
}

// PreviewRows is a checked order's preview as the order form and the confirmation both show it,
// so the two never differ: the notional; the fee, maker when a limit order cannot cross and taker
// otherwise, saying which; the margin and the utilization after; the estimated liquidation price
// ("none" when the account's equity covers a fall to zero); and, after the notional, what the book
// fills of an order that takes liquidity. When the book cannot fill a market, IOC or FOK order whole, the fee, margin,
// utilization and liquidation price are those of what fills, and the rows say so.
func (c CheckedOrder) PreviewRows() []PreviewRow {
	p, in := c.Preview, c.Instrument
	if p.Notional.IsZero() {
		return nil
	}
	rows := []PreviewRow{{Label: RowNotional, Value: FormatPrice(p.Notional, 2) + " USD"}}
	// What the book fills comes next: the figures below it may be of that part alone.
	if b := p.Walk.Words(c.Size, in); b != "" {
		rows = append(rows, PreviewRow{Label: RowBook, Value: b})
	}
	rows = append(rows, PreviewRow{Label: RowFee, Value: FormatUSDFee(p.Fee) + " USD (" + c.feeWords() + ")"})
	if in.Spot {
		if c.Wire.Side == api.SideBuy {
			rows = append(rows, PreviewRow{Label: RowCost, Value: c.spotCostWords()})
		}
		return rows
	}
	margin, util, liq := p.MarginRequired, p.UtilizationAfter, p.LiquidationEstimate
	w := p.Walk
	marginText := FormatPrice(margin, 2) + " USD" + levWords(p) + c.valuedWords()
	if c.partial() {
		margin, util, liq = w.FillMargin, w.FillUtilization, w.FillLiquidation
		marginText = FormatPrice(margin, 2) + " USD" + levWords(p) + c.valuedWords() + ", on the " + FormatSize(w.Fills, in.SizeDecimals()) + " that fills"
		if !w.Fills.IsPositive() {
			marginText = FormatPrice(margin, 2) + " USD: nothing fills"
		}
	}
	liqText := "none"
	if liq.IsPositive() {
		liqText = FormatPrice(liq, in.PriceDecimals())
	}
	utilText := FormatPercent(util, 2)
	if c.Rests {
		// The exchange's utilization moves when it fills, not when it rests (its margin is
		// held aside from the available balance).
		utilText += " once it fills"
	}
	rows = append(rows,
		PreviewRow{Label: RowMargin, Value: marginText},
		PreviewRow{Label: RowUtilization, Value: utilText, Pct: util},
		PreviewRow{Label: RowLiquidation, Value: liqText},
	)
	return rows
}

// SpotCost is what a spot buy is expected to cost with its fee (the notional the preview gives,
// at the expected fills for an order the book fills at once), and what the exchange holds for it
// until it fills: its size at its price as signed (a market buy's worst price) with the taker
// fee. Zero for a sell.
func (c CheckedOrder) SpotCost() (cost, holds decimal.Decimal) {
	if !c.Instrument.Spot || c.Wire.Side != api.SideBuy {
		return decimal.Zero, decimal.Zero
	}
	return c.Preview.Notional.Add(c.Preview.Fee), c.Preview.MarginRequired
}

// spotCostWords is a spot buy's cost row: "1,946.90 USD with the fee", and what the exchange
// holds for it when that is more ("; holds up to 1,966.17 until it fills").
func (c CheckedOrder) spotCostWords() string {
	cost, holds := c.SpotCost()
	out := FormatPrice(cost, 2) + " USD with the fee"
	if FormatPrice(holds, 2) != FormatPrice(cost, 2) && holds.GreaterThan(cost) {
		out += "; holds up to " + FormatPrice(holds, 2) + " until it fills"
	}
	return out
}

// HintCosts is what an order's one-line hint says after its fee: the margin a perpetual order
// needs ("margin"), or what a spot buy costs with the fee ("cost"); a spot sell has none
// (label ""). When the book fills only part of it and the rest is cancelled, the fee and margin
// are those of what fills, and fills is that size (zero otherwise): the figures the review shows.
func (c CheckedOrder) HintCosts() (fee, amount decimal.Decimal, label string, fills decimal.Decimal) {
	p := c.Preview
	fee = p.Fee
	if c.Instrument.Spot {
		if cost, _ := c.SpotCost(); cost.IsPositive() {
			return fee, cost, "cost", decimal.Zero
		}
		return fee, decimal.Zero, "", decimal.Zero
	}
	if c.partial() {
		return fee, p.Walk.FillMargin, "margin", p.Walk.Fills
	}
	return fee, p.MarginRequired, "margin", decimal.Zero
}

// partial reports whether the book cannot fill the order whole and the rest is cancelled (a
// market, IOC or FOK order): its figures are then those of what fills.
func (c CheckedOrder) partial() bool {
	return c.Preview.Walk.Known && c.Preview.Walk.Cancelled.IsPositive()
}

// feeWords says which rate the fee is at, and on what when the book cannot fill the order whole.
func (c CheckedOrder) feeWords() string {
	p, w, sd := c.Preview, c.Preview.Walk, c.Instrument.SizeDecimals()
	switch {
	case !p.Taker:
		return "maker"
	case !w.Short(c.Size):
		return "taker"
	case !w.Fills.IsPositive():
		return "taker; nothing fills"
	case w.Rests.IsPositive():
		return "taker on the " + FormatSize(w.Fills, sd) + " that fills, maker on the " + FormatSize(w.Rests, sd) + " that rests"
	}
	return "taker on the " + FormatSize(w.Fills, sd) + " that fills"
}

// valuedWords says, when the exchange values the margin at another price than the one the
// notional is at, which price that is (api.MarginOrder's rule: the highest of the mark, the price
// and the trigger): " (valued at the mark 97,071.2)". A market order's notional is at the mid, so
// a margin at its worst price is said too. Empty when no margin is needed.
func (c CheckedOrder) valuedWords() string {
	p := c.Preview
	if !p.MarginRequired.IsPositive() || !p.MarginPrice.IsPositive() {
		return ""
	}
	what := p.MarginBasis
	switch {
	case p.MarginBasis != MarginAtPrice:
	case c.Wire.IsMarket:
		what = "worst price"
	default:
		return ""
	}
	return " (valued at the " + what + " " + FormatPrice(p.MarginPrice, c.Instrument.PriceDecimals()) + ")"
}

// levWords is " at 10x" when the order needs margin at a leverage.
func levWords(p Preview) string {
	if !p.Leverage.IsPositive() || !p.MarginRequired.IsPositive() {
		return ""
	}
	return " at " + p.Leverage.String() + "x"
}
