package state

import (
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// Field names of a bracket's legs in FieldError.Field.
const (
	FieldTakeProfit = "takeprofit"
	FieldStopLoss   = "stoploss"
)

// TpslSlippage bounds the market order a take-profit or stop-loss fires: it fills up to 5% past
// its trigger (the simulator's own default bound for a market order).
var TpslSlippage = decimal.RequireFromString("0.05")

// BracketIntent is an order with a take-profit and a stop-loss attached, as the trader typed it.
// Each leg is empty (none), a price ("200"), a distance from the entry price in percent ("2%") or
// in ticks ("40t"). The form and the command line build one and check it with CheckBracket.
type BracketIntent struct {
	Entry                OrderIntent
	TakeProfit, StopLoss string
}

// HasLegs reports whether the trader asked for a take-profit or a stop-loss.
func (b BracketIntent) HasLegs() bool {
	return strings.TrimSpace(b.TakeProfit) != "" || strings.TrimSpace(b.StopLoss) != ""
}

// CheckedBracket is a bracket that passed CheckBracket: its entry (checked as any order), the
// legs' trigger prices (zero when absent), the orders to sign in one placeOrder, and what the
// take-profit would gain and the stop-loss lose at their triggers, fees left out.
type CheckedBracket struct {
	Entry CheckedOrder
	// Ref is the price the legs' distances, reward and risk are measured from: the price the
	// trader expects to get (the book walk's average fill where it is known, else the limit
	// price, else the mark for a market entry); RefWhat names it ("the expected average fill").
	Ref     decimal.Decimal
	RefWhat string
	// Judge is the price the exchange judges the legs' sides against (the limit price, or the
	// mark for a market entry); JudgeWhat names it. Each leg lies on its side of both.
	Judge        decimal.Decimal
	JudgeWhat    string
	TP, SL       decimal.Decimal
	Reward, Risk decimal.Decimal // USD at the take-profit and at the stop-loss
	Size         decimal.Decimal // what the legs are expected to cover: the entry's size, or what a market or IOC entry fills
	// Liq is the liquidation price the entry is estimated to leave (zero when none); StopPastLiq
	// says the stop-loss lies at or beyond it, so Risk is the loss at Liq instead.
	Liq          decimal.Decimal
	StopPastLiq  bool
	Wires        []api.OrderWire
	NeedsConfirm bool // whether the guard's ConfirmPolicy asks to confirm the bracket
}

// RewardRisk is reward over risk (2 means the take-profit gains twice what the stop loses);
// zero when a leg is missing.
func (c CheckedBracket) RewardRisk() decimal.Decimal {
	if !c.Risk.IsPositive() || !c.Reward.IsPositive() {
		return decimal.Zero
	}
	return c.Reward.DivRound(c.Risk, 2)
}

// LegsWords is the legs in words, at the instrument's price precision, for the bracket's
// one-line description and its journal entry: " tp 55,000.0 sl 48,000.0" (a leg not given is
// left out).
func (c CheckedBracket) LegsWords() string {
	pd := c.Entry.Instrument.PriceDecimals()
	s := ""
	if c.TP.IsPositive() {
		s += " tp " + FormatPrice(c.TP, pd)
	}
	if c.SL.IsPositive() {
		s += " sl " + FormatPrice(c.SL, pd)
	}
	return s
}

// CheckBracket checks an entry with its take-profit and stop-loss: the entry as CheckOrder does
// (a limit or market order that is not reduce-only, not against an opposite position), each leg
// on the tick and on its own side (a buy's take-profit above, its stop below; a sell's the other
// way round) of both the price the trader expects to get (Ref, which distances are measured
// from) and the price the exchange judges the legs against (Judge: the limit price, or the mark
// for a market entry, as the simulator's checkBracket does). A leg on the wrong side of Ref would
// gain where it should lose or the other way round; one on the wrong side of Judge is refused by
// the exchange.
func (s *Store) CheckBracket(in BracketIntent, g Guard) (CheckedBracket, []FieldError) {
	var out CheckedBracket
	entry, errs := s.CheckOrder(in.Entry, g)
	out.Entry = entry
	switch {
	case in.Entry.Type == Trigger:
		errs = append(errs, FieldError{Field: FieldType, Msg: "a take-profit or stop-loss attaches to a limit or market order, not to a trigger order"})
	case in.Entry.ReduceOnly:
		errs = append(errs, FieldError{Field: FieldOrder, Msg: "a bracket opens a position: clear reduce-only, or set the take-profit and stop-loss on the position"})
	case entry.Instrument.Spot:
		errs = append(errs, FieldError{Field: FieldType, Msg: "take-profit and stop-loss apply to perpetuals only"})
	}
	if entry.Instrument.Name == "" {
		return out, errs
	}
	if e := s.opposesPosition(entry); e != nil {
		errs = append(errs, *e)
	}
	out.bracketRefs(in.Entry.Type == Market)
	from := legRef{out.Ref, out.RefWhat, ""}
	sides := []legRef{from}
	if !out.Judge.Equal(out.Ref) {
		sides = append(sides, legRef{out.Judge, out.JudgeWhat, judgeWhy(in.Entry.Type == Market)})
	}
	long := entry.Wire.Side == api.SideBuy
	var err *FieldError
	if out.TP, err = legPrice(FieldTakeProfit, in.TakeProfit, from, sides, entry.Instrument, long); err != nil {
		errs = append(errs, *err)
	}
	if out.SL, err = legPrice(FieldStopLoss, in.StopLoss, from, sides, entry.Instrument, !long); err != nil {
		errs = append(errs, *err)
	}
	if len(errs) > 0 {
		return out, errs
	}
	if out.TP.IsZero() && out.SL.IsZero() {
		return out, []FieldError{{Field: FieldTakeProfit, Msg: "a bracket needs a take-profit, a stop-loss or both"}}
	}
	out.Reward = legPnL(out.TP, out.Ref, out.Size)
	out.Risk = legPnL(out.SL, out.Ref, out.Size)
	out.stopPastLiquidation(long)
	wires, e := api.Bracket(entry.Wire, bracketLegs(out, entry.Instrument, !long)...)
	if e != nil {
		return out, []FieldError{{Field: FieldOrder, Msg: e.Error()}}
	}
	out.Wires = wires
	out.Entry.Wire = wires[0]
	out.Entry.NeedsConfirm = g.Confirm.asksOrder(out.Entry)
	out.NeedsConfirm = g.Confirm.asksBracket(out.Entry)
	return out, nil
}

// stopPastLiquidation warns when the stop-loss lies at or beyond the liquidation price the entry
// is estimated to leave (the preview's, or of what a market entry fills): the position would be
// liquidated before the stop fires, so the stop protects nothing and the loss it promised is
// wrong. The risk becomes the loss at the liquidation price; the warning asks for a typed
// confirmation like any guard finding, and the confirmation and the form both show it.
func (c *CheckedBracket) stopPastLiquidation(long bool) {
	e := &c.Entry
	c.Liq = e.Preview.LiquidationEstimate
	if e.partial() {
		c.Liq = e.Preview.Walk.FillLiquidation
	}
	if !c.SL.IsPositive() || !c.Liq.IsPositive() || !beyondLiq(c.SL, c.Liq, long) {
		return
	}
	c.StopPastLiq = true
	c.Risk = legPnL(c.Liq, c.Ref, c.Size)
	pd := e.Instrument.PriceDecimals()
	e.Warnings = append(e.Warnings, fmt.Sprintf("stop-loss %s lies beyond the estimated liquidation price %s: the position would be liquidated first "+
		"(a loss of about %s USD before fees) and the stop would never fire; move the stop inside %s or use less leverage",
		FormatPrice(c.SL, pd), FormatPrice(c.Liq, pd), FormatPrice(c.Risk, 2), FormatPrice(c.Liq, pd)))
	e.NeedsTypedConfirm = true
}

// StopNeverFires reports whether a stop-loss at sl on pos lies at or beyond its liquidation price
// liq (as the exchange reports it): the position is liquidated before the stop can fire. False
// when there is no stop or no liquidation price.
func StopNeverFires(pos api.Position, sl, liq decimal.Decimal) bool {
	return sl.IsPositive() && liq.IsPositive() && !pos.Size.IsZero() && beyondLiq(sl, liq, pos.Size.IsPositive())
}

// beyondLiq reports whether a stop at sl on a long (or short) position would only be reached
// after its liquidation price liq: at or below it for a long, at or above it for a short.
func beyondLiq(sl, liq decimal.Decimal, long bool) bool {
	if long {
		return sl.LessThanOrEqual(liq)
	}
	return sl.GreaterThanOrEqual(liq)
}

// opposesPosition refuses a bracket whose entry would reduce or flip an open position on the
// other side. The exchange arms a bracket's legs, reduce-only orders that close a position on
// the entry's side, for what the entry filled: an entry that only reduces a short leaves no long
// for them to close, and the exchange cancels them the moment it fills (the simulator does so,
// with that reason in the order history); one that flips the short leaves legs sized for the whole
// entry on the smaller position it opens, and the reward and risk shown would be of the wrong
// size. Either way the trader is better told to set TP/SL on the position itself.
func (s *Store) opposesPosition(entry CheckedOrder) *FieldError {
	pos, ok := s.Position(entry.Instrument.Name)
	buy := entry.Wire.Side == api.SideBuy
	if !ok || pos.Size.IsPositive() == buy || !entry.Size.IsPositive() {
		return nil
	}
	inst := entry.Instrument
	sd := inst.SizeDecimals()
	have, other := "short", "long"
	if !buy {
		have, other = "long", "short"
	}
	held := pos.Size.Abs()
	side := SideText(entry.Wire.Side)
	what := fmt.Sprintf("this %s reduces your %s %s %s", side, FormatSize(held, sd), inst.Name, have)
	why := "the exchange would cancel its take-profit and stop-loss as soon as the entry fills"
	if entry.Size.GreaterThan(held) {
		what = fmt.Sprintf("this %s of %s closes your %s %s %s and opens a %s %s", side, FormatSize(entry.Size, sd),
			FormatSize(held, sd), inst.Name, have, FormatSize(entry.Size.Sub(held), sd), other)
		why = fmt.Sprintf("its take-profit and stop-loss would be sized for %s, not for the %s %s", FormatSize(entry.Size, sd),
			FormatSize(entry.Size.Sub(held), sd), other)
	}
	coin := ShortInstrumentName(inst.Name)
	return &FieldError{Field: FieldOrder, Msg: what + ": a bracket opens or adds to a position; set TP/SL on the position (t on it, or :tpsl " +
		coin + " tp .. sl ..) or close it first (" + why + ")"}
}

// bracketRefs sets the bracket's two reference prices and the size its legs cover. Ref is the
// average the entry is expected to fill at where the book walk knows it (what fills at once at
// the book's prices, what rests at the limit price), else the limit price, else, for a market
// entry, the mark. Judge is the limit price, or the mark for a market entry.
func (c *CheckedBracket) bracketRefs(market bool) {
	e := c.Entry
	c.Size = e.Size
	c.Judge, c.JudgeWhat = e.Price, "the entry price"
	if market {
		c.Judge, c.JudgeWhat = e.Mark, "the mark"
	}
	c.Ref, c.RefWhat = c.Judge, c.JudgeWhat
	w := e.Preview.Walk
	if !w.Known || !w.Fills.IsPositive() {
		return
	}
	c.Size = w.Fills.Add(w.Rests)
	cost := w.FillCost.Add(w.Rests.Mul(e.Price))
	c.Ref, c.RefWhat = cost.Div(c.Size), "the expected average fill"
}

// judgeWhy says why a leg must lie on its side of the price the exchange judges it against.
func judgeWhy(market bool) string {
	if market {
		return ": the exchange judges a market entry's take-profit and stop-loss against the mark and refuses them otherwise"
	}
	return ": the exchange judges the take-profit and stop-loss against the entry's limit price and refuses them otherwise"
}

// legPnL is what a leg at trigger px gains or loses, unsigned, on size from ref; zero when the leg
// is absent.
func legPnL(px, ref, size decimal.Decimal) decimal.Decimal {
	if px.IsZero() {
		return decimal.Zero
	}
	return px.Sub(ref).Abs().Mul(size)
}

// bracketLegs are the legs of a checked bracket, each with its own client order id and a worst
// price TpslSlippage past its trigger on the side its order trades (buy: above).
func bracketLegs(c CheckedBracket, inst Instrument, buy bool) []api.TpslLeg {
	var legs []api.TpslLeg
	for _, l := range []struct {
		kind string
		px   decimal.Decimal
	}{{api.TpslTakeProfit, c.TP}, {api.TpslStopLoss, c.SL}} {
		if l.px.IsPositive() {
			legs = append(legs, TpslLegAt(l.kind, l.px, inst, buy))
		}
	}
	return legs
}

// TpslLegAt is a take-profit or stop-loss at trigger px whose market order, trading on side buy,
// fills up to TpslSlippage past it, rounded to the tick away from the trigger.
func TpslLegAt(kind string, px decimal.Decimal, inst Instrument, buy bool) api.TpslLeg {
	bound := FloorToStep(px.Mul(one.Sub(TpslSlippage)), inst.TickSize)
	if buy {
		bound = CeilToStep(px.Mul(one.Add(TpslSlippage)), inst.TickSize)
	}
	return api.TpslLeg{Tpsl: kind, Trigger: px.String(), Price: bound.String(), Cloid: NewCloid()}
}

// legRef is a price a leg is measured from or judged against: its value, its name ("the mark")
// and, for a price the exchange judges with, why the side matters.
type legRef struct {
	px        decimal.Decimal
	name, why string
}

// legPrice reads one leg: empty (zero, no error), a price, or "N%" or "Nt" from from; above
// says on which side of every one of sides it must lie. The result is on the instrument's tick.
func legPrice(field, raw string, from legRef, sides []legRef, inst Instrument, above bool) (decimal.Decimal, *FieldError) {
	s := strings.ToLower(strings.TrimSpace(raw))
	if s == "" {
		return decimal.Zero, nil
	}
	name := map[string]string{FieldTakeProfit: "take-profit", FieldStopLoss: "stop-loss"}[field]
	if !from.px.IsPositive() {
		return decimal.Zero, &FieldError{Field: field, Msg: "no price to measure the " + name + " from yet: " + from.name + " is not known"}
	}
	px, err := legValue(field, name, s, from.px, inst, above)
	if err != nil {
		return decimal.Zero, err
	}
	dir := "below"
	if above {
		dir = "above"
	}
	pd := inst.PriceDecimals()
	said := name + " " + FormatPrice(px, pd)
	if strings.HasSuffix(s, LegPercent) || strings.HasSuffix(s, LegTicks) { // a distance: say what it was measured from
		said += fmt.Sprintf(" (%s from %s %s)", s, from.name, FormatPrice(from.px, pd))
	}
	for _, r := range sides {
		if !r.px.IsPositive() {
			continue
		}
		if above != px.GreaterThan(r.px) || px.Equal(r.px) {
			return decimal.Zero, &FieldError{Field: field, Msg: fmt.Sprintf("%s must be %s %s %s%s", said, dir, r.name, FormatPrice(r.px, pd), r.why)}
		}
	}
	return px, nil
}

// legValue turns a leg's text into a price: a distance is measured from ref and rounded to the
// tick; a price must be on the tick already (the rounded price is offered).
func legValue(field, name, s string, ref decimal.Decimal, inst Instrument, above bool) (decimal.Decimal, *FieldError) {
	sign := one
	if !above {
		sign = one.Neg()
	}
	switch {
	case strings.HasSuffix(s, LegPercent):
		v, err := ParsePositive(field, name+" distance", strings.TrimSuffix(s, LegPercent))
		if err != nil {
			fe := err.(FieldError)
			return decimal.Zero, &fe
		}
		return RoundToStep(ref.Add(ref.Mul(v).Div(hundred).Mul(sign)), inst.TickSize), nil
	case strings.HasSuffix(s, LegTicks):
		v, err := ParsePositive(field, name+" ticks", strings.TrimSuffix(s, LegTicks))
		if err != nil || !v.IsInteger() {
			return decimal.Zero, &FieldError{Field: field, Msg: fmt.Sprintf("%s %s: ticks are a whole number, e.g. 40t", name, text.Quote(s))}
		}
		return RoundToStep(ref.Add(v.Mul(inst.TickSize).Mul(sign)), inst.TickSize), nil
	}
	v, err := ParsePositive(field, name+" price", s)
	if err != nil {
		fe := err.(FieldError)
		return decimal.Zero, &fe
	}
	if r := RoundToStep(v, inst.TickSize); !r.Equal(v) {
		return decimal.Zero, &FieldError{Field: field, Msg: fmt.Sprintf("%s %s is not a multiple of the tick size %s on %s; use %s",
			name, v, inst.TickSize, inst.Name, r), Suggest: r.String()}
	}
	return v, nil
}

// PositionTpsl is a take-profit and stop-loss on a whole position (grouping position), checked:
// the orders to sign, the triggers, the prices they were measured from and judged against, and
// what the position would gain or lose at each.
type PositionTpsl struct {
	Instrument Instrument
	Position   api.Position
	TP, SL     decimal.Decimal
	// Mark is the mark the legs' sides were judged against (the exchange's rule); distances are
	// measured from the position's entry price (Position.EntryPrice).
	Mark decimal.Decimal
	// TPPnL and SLPnL are the position's PnL, signed, if it closed at each trigger (fees left
	// out); zero when the leg is absent.
	TPPnL, SLPnL decimal.Decimal
	// Liq is the position's liquidation price as the exchange reports it (zero when unknown);
	// StopPastLiq says the stop lies at or beyond it, so SLPnL is the PnL at Liq instead.
	Liq         decimal.Decimal
	StopPastLiq bool
	// Warnings are the guard's findings (a stop beyond the liquidation price); each asks for a
	// typed confirmation.
	Warnings []string
	Wires    []api.OrderWire
}

// CheckPositionTpsl checks a take-profit and/or stop-loss for the position on symbol, each a
// price, or "N%" or "Nt" from the position's entry price (what a trader means by a "2% stop",
// and what the README and the help promise): the exchange keeps them while the position lives,
// closes the whole position when one fires, and replaces an earlier one of the same kind. A
// long's take-profit must lie above the mark and its stop below (a short's the other way round):
// a leg already on the wrong side of the mark would fire at once, and the exchange refuses it. A
// stop above a long's entry (a stop that locks in profit) is allowed.
func (s *Store) CheckPositionTpsl(symbol, tp, sl string) (PositionTpsl, []FieldError) {
	var out PositionTpsl
	pos, ok := s.Position(symbol)
	if !ok || pos.Size.IsZero() {
		return out, []FieldError{{Field: FieldInstrument, Msg: "no open position on " + text.Brief(symbol)}}
	}
	inst, ok := s.Instrument(pos.Instrument)
	if !ok {
		return out, []FieldError{{Field: FieldInstrument, Msg: "instrument " + text.Brief(pos.Instrument) + " is not loaded yet"}}
	}
	t, _ := s.Ticker(pos.Instrument)
	long := pos.Size.IsPositive()
	out.Instrument, out.Position, out.Mark = inst, pos, t.MarkPrice
	if !out.Mark.IsPositive() {
		return out, []FieldError{{Field: FieldInstrument, Msg: "no mark price for " + inst.Name + " yet, so the take-profit and stop-loss cannot be checked against it; wait for market data"}}
	}
	from := legRef{pos.EntryPrice, "the entry price", ""}
	sides := []legRef{{out.Mark, "the mark", ", or it would fire at once (the exchange refuses it)"}}
	var errs []FieldError
	var err *FieldError
	if out.TP, err = legPrice(FieldTakeProfit, tp, from, sides, inst, long); err != nil {
		errs = append(errs, *err)
	}
	if out.SL, err = legPrice(FieldStopLoss, sl, from, sides, inst, !long); err != nil {
		errs = append(errs, *err)
	}
	if len(errs) > 0 {
		return out, errs
	}
	if out.TP.IsZero() && out.SL.IsZero() {
		return out, []FieldError{{Field: FieldTakeProfit, Msg: "enter a take-profit, a stop-loss or both"}}
	}
	out.TPPnL, out.SLPnL = closePnL(pos, out.TP), closePnL(pos, out.SL)
	out.Liq = s.Account().PerpPositions[pos.Instrument].LiquidationPrice
	if out.SL.IsPositive() && out.Liq.IsPositive() && beyondLiq(out.SL, out.Liq, long) {
		pd := inst.PriceDecimals()
		out.StopPastLiq, out.SLPnL = true, closePnL(pos, out.Liq)
		out.Warnings = append(out.Warnings, fmt.Sprintf("stop-loss %s lies beyond the position's liquidation price %s: the position would be liquidated first "+
			"(%s USD before fees) and the stop would never fire; move the stop inside %s or add margin",
			FormatPrice(out.SL, pd), FormatPrice(out.Liq, pd), FormatSigned(out.SLPnL, 2), FormatPrice(out.Liq, pd)))
	}
	side := api.SideSell
	if !long {
		side = api.SideBuy
	}
	for _, l := range bracketLegs(CheckedBracket{TP: out.TP, SL: out.SL}, inst, !long) {
		out.Wires = append(out.Wires, api.TpslOrder(inst.ID, side, pos.Size.Abs().String(), api.GroupingPosition, l))
	}
	return out, nil
}

// closePnL is what pos gains (positive) or loses closing whole at px, fees left out; zero when px
// is zero (no leg).
func closePnL(pos api.Position, px decimal.Decimal) decimal.Decimal {
	if px.IsZero() {
		return decimal.Zero
	}
	return px.Sub(pos.EntryPrice).Mul(pos.Size)
}

// AttachedTpsl is the trigger price of the take-profit and of the stop-loss waiting to close
// pos: open reduce-only tp and sl orders on its instrument on the side that closes it, a
// position's own (grouping position) before a bracket's; zero when there is none.
func AttachedTpsl(orders []api.OrderRecord, pos api.Position) (tp, sl decimal.Decimal) {
	closing := api.SideSell
	if pos.Size.IsNegative() {
		closing = api.SideBuy
	}
	for _, pass := range []bool{true, false} { // grouping position first
		for _, o := range orders {
			if o.Instrument != pos.Instrument || o.Side != closing || !o.ReduceOnly || !o.TriggerPx.Valid ||
				o.State != api.StateOpen || (o.Grouping == api.GroupingPosition) != pass {
				continue
			}
			switch {
			case o.Tpsl == api.TpslTakeProfit && tp.IsZero():
				tp = o.TriggerPx.Decimal
			case o.Tpsl == api.TpslStopLoss && sl.IsZero():
				sl = o.TriggerPx.Decimal
			}
		}
	}
	return tp, sl
}
