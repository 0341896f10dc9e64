package state

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// ReversePlan is a checked reverse: one market order of twice the position's size on the other
// side (not reduce-only), so the position ends the same size on the other side; and the
// position's take-profit and stop-loss orders, which the front end cancels once it filled (they
// close the old side, and are offered again on the new one).
type ReversePlan struct {
	Position api.Position
	Order    CheckedOrder
	Intent   OrderIntent
	// PnL is what the old side realises at the expected price, before fees; Fee is the whole
	// order's.
	PnL, Fee decimal.Decimal
	// MarginAfter is the new side's initial margin: its size at the expected price over the
	// leverage in force.
	MarginAfter decimal.Decimal
	Tpsl        []api.OrderRecord
}

// PlanReverse checks the reverse of symbol's position with g.
func (s *Store) PlanReverse(symbol, cloid string, g Guard) (ReversePlan, []FieldError) {
	var plan ReversePlan
	pos, ok := s.Position(symbol)
	if !ok || pos.Size.IsZero() {
		return plan, []FieldError{{Field: FieldInstrument, Msg: "no open position on " + text.Brief(symbol) + " to reverse"}}
	}
	held := pos.Size.Abs()
	in := OrderIntent{Instrument: pos.Instrument, Side: closingSide(pos), Type: Market, Size: held.Add(held).String(), Cloid: cloid}
	co, errs := s.CheckOrder(in, g)
	plan = ReversePlan{Position: pos, Order: co, Intent: in, Fee: co.Preview.Fee, Tpsl: s.positionTpslOrders(pos)}
	plan.PnL = realised(pos, held, expectedPrice(co))
	lev := co.Preview.Leverage
	if !lev.IsPositive() {
		lev = pos.Leverage
	}
	if lev.IsPositive() {
		plan.MarginAfter = held.Mul(expectedPrice(co)).Div(lev).Round(2)
	}
	return plan, errs
}

// positionTpslOrders are the open reduce-only take-profit and stop-loss orders that close pos.
func (s *Store) positionTpslOrders(pos api.Position) []api.OrderRecord {
	var out []api.OrderRecord
	side := closingSide(pos)
	for _, o := range s.Orders() {
		if strings.EqualFold(o.Instrument, pos.Instrument) && o.Side == side && o.ReduceOnly && o.TriggerPx.Valid && o.TriggerPx.Decimal.IsPositive() {
			out = append(out, o)
		}
	}
	return out
}

// Words is the reverse in one line, for previews: what it sends, the fee, the margin and
// liquidation estimate after, and what becomes of the TP/SL.
func (p ReversePlan) Words() string {
	in := p.Order.Instrument
	sd, pd := in.SizeDecimals(), in.PriceDecimals()
	to := "SHORT"
	if p.Position.Size.IsNegative() {
		to = "LONG"
	}
	liq := "none"
	if l := p.Order.Preview.LiquidationEstimate; l.IsPositive() {
		liq = FormatPrice(l, pd)
	}
	w := fmt.Sprintf("reverse %s to %s %s: %s %s at market, realises %s USD, fee %s USD, margin after %s USD, liq. est. %s",
		in.Name, to, FormatSize(p.Position.Size.Abs(), sd), sideWord(p.Intent.Side), FormatSize(p.Order.Size, sd),
		FormatSigned(p.PnL, 2), FormatUSDFee(p.Fee), FormatPrice(p.MarginAfter, 2), liq)
	if t := p.TpslWords(); t != "" {
		w += "; its TP/SL " + t
	}
	return w
}

// TpslWords says what becomes of the position's TP/SL ("" without any): "(2 orders) will be
// cancelled, and offered again on the new side: tpsl BTC-PERP tp 5% sl 5%".
func (p ReversePlan) TpslWords() string {
	n := len(p.Tpsl)
	if n == 0 {
		return ""
	}
	w := fmt.Sprintf("(%d orders) will be cancelled", n)
	if o := p.Offer(); o != "" {
		w += ", and offered again on the new side: " + o
	}
	return w
}

// Offer is the position's TP/SL at the same distances from the entry on the new side, as a
// command ("tpsl BTC-PERP tp 2% sl 1%": the distances are from the new position's entry), or ""
// without any: what the console offers on the command line once the reverse filled.
func (p ReversePlan) Offer() string {
	entry := p.Position.EntryPrice
	if len(p.Tpsl) == 0 || !entry.IsPositive() {
		return ""
	}
	out, legs := "tpsl "+p.Position.Instrument, 0
	for _, leg := range []string{api.TpslTakeProfit, api.TpslStopLoss} {
		for _, o := range p.Tpsl {
			if o.Tpsl != leg {
				continue
			}
			pct := o.TriggerPx.Decimal.Sub(entry).Abs().Div(entry).Mul(hundred).Round(2)
			out += " " + map[string]string{api.TpslTakeProfit: "tp", api.TpslStopLoss: "sl"}[leg] + " " + pct.String() + "%"
			legs++
			break
		}
	}
	if legs == 0 {
		return ""
	}
	return out
}

// BreakevenPlan is a checked stop to breakeven: a stop-loss on the whole position at its entry
// price plus the fees it paid to open and will pay to close at the taker rate, so the stop
// closes it without a loss.
type BreakevenPlan struct {
	Tpsl PositionTpsl
	// Stop is the stop's trigger; FeesPaid the opening fees counted (from the account's fills
	// when they say, else estimated at the taker rate) and CloseFee the estimated closing fee.
	Stop, FeesPaid, CloseFee decimal.Decimal
}

// PlanBreakeven checks a stop-loss at breakeven on symbol's position: entry plus fees per unit,
// rounded to the tick away from a loss (up for a long).
func (s *Store) PlanBreakeven(symbol string) (BreakevenPlan, []FieldError) {
	var plan BreakevenPlan
	pos, ok := s.Position(symbol)
	if !ok || pos.Size.IsZero() {
		return plan, []FieldError{{Field: FieldInstrument, Msg: "no open position on " + text.Brief(symbol)}}
	}
	inst, ok := s.Instrument(pos.Instrument)
	if !ok {
		return plan, []FieldError{{Field: FieldInstrument, Msg: "instrument " + text.Brief(pos.Instrument) + " is not loaded yet; wait a moment"}}
	}
	held := pos.Size.Abs()
	s.mu.RLock()
	taker := s.feesFor(inst).Taker
	s.mu.RUnlock()
	plan.FeesPaid = s.openingFees(pos, taker)
	plan.CloseFee = held.Mul(pos.EntryPrice).Mul(taker)
	per := plan.FeesPaid.Add(plan.CloseFee).Div(held)
	if pos.Size.IsPositive() {
		plan.Stop = CeilToStep(pos.EntryPrice.Add(per), inst.TickSize)
	} else {
		plan.Stop = FloorToStep(pos.EntryPrice.Sub(per), inst.TickSize)
	}
	pt, errs := s.CheckPositionTpsl(pos.Instrument, "", plan.Stop.String())
	plan.Tpsl = pt
	for i, e := range errs {
		if e.Field == FieldStopLoss {
			errs[i].Msg = "breakeven " + FormatPrice(plan.Stop, inst.PriceDecimals()) + " (entry plus fees): " + e.Msg +
				"; the position must be in profit past its fees first"
		}
	}
	return plan, errs
}

// openingFees is what the fills that built pos paid: its instrument's newest fills, walked back
// to the one that opened it (start size zero), when they all added to it and sum to its size;
// otherwise (a fill that reduced it, fills not loaded that far) the taker rate on the entry
// notional.
func (s *Store) openingFees(pos api.Position, taker decimal.Decimal) decimal.Decimal {
	var got, fees decimal.Decimal
	for _, f := range s.Fills() {
		if !strings.EqualFold(f.Instrument, pos.Instrument) {
			continue
		}
		signed := f.Size
		if f.Side == api.SideSell {
			signed = signed.Neg()
		}
		if signed.Sign() != pos.Size.Sign() {
			break
		}
		got, fees = got.Add(signed), fees.Add(f.Fee)
		if f.StartSize.IsZero() {
			if got.Equal(pos.Size) {
				return fees
			}
			break
		}
	}
	return pos.Size.Abs().Mul(pos.EntryPrice).Mul(taker)
}
