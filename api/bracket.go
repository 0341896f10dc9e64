package api

import "fmt"

// TpslLeg is one take-profit or stop-loss of a bracket, as it is signed: Trigger is the trigger
// price; Price is the worst price the market order it fires may fill at (the SDKs send a market
// trigger with a bound); Cloid its own client order id.
type TpslLeg struct {
	Tpsl    string // TpslTakeProfit or TpslStopLoss
	Trigger string
	Price   string
	Cloid   string
}

// TpslOrder is the order of one leg that closes size on instrument id, on side (the side that
// closes: SideSell for a long), in the form the official SDKs sign: reduce-only, IOC market
// trigger, grouping as given (GroupingNormal for an entry's child, GroupingPosition for a
// position's).
func TpslOrder(id InstrumentID, side, size, grouping string, leg TpslLeg) OrderWire {
	return OrderWire{InstrumentID: id, Side: side, PositionSide: PositionSideBoth, Price: leg.Price, Size: size,
		Tif: TifIOC, ReduceOnly: true, Cloid: leg.Cloid, TriggerPx: leg.Trigger, IsMarket: true, Tpsl: leg.Tpsl,
		Grouping: grouping}
}

// Bracket is the orders of one placeOrder that opens entry with its take-profit and stop-loss
// attached: the entry with grouping "normal", then one child per leg (take-profit first), each
// reduce-only on the other side for the entry's size. The exchange arms the children when the
// entry fills, cancels them if it is cancelled unfilled, and cancels one when the other fills.
func Bracket(entry OrderWire, legs ...TpslLeg) ([]OrderWire, error) {
	if len(legs) == 0 || len(legs) > 2 {
		return nil, fmt.Errorf("a bracket takes one take-profit, one stop-loss or both, not %d legs", len(legs))
	}
	if len(legs) == 2 && legs[0].Tpsl == legs[1].Tpsl {
		return nil, fmt.Errorf("a bracket takes at most one take-profit and one stop-loss")
	}
	if entry.TriggerPx != "" || entry.ReduceOnly || entry.Tpsl != "" {
		return nil, fmt.Errorf("a bracket's entry is a plain order: no trigger, not reduce-only")
	}
	entry.Grouping = GroupingNormal
	out := []OrderWire{entry}
	side := SideSell
	if entry.Side == SideSell {
		side = SideBuy
	}
	for _, l := range orderedLegs(legs) {
		o := TpslOrder(entry.InstrumentID, side, entry.Size, GroupingNormal, l)
		o.PositionSide = entry.PositionSide
		if err := ValidateOrder(&o); err != nil {
			return nil, fmt.Errorf("%s: %w", l.Tpsl, err)
		}
		out = append(out, o)
	}
	return out, nil
}

// orderedLegs puts a take-profit before a stop-loss, so the same bracket is always signed the same.
func orderedLegs(legs []TpslLeg) []TpslLeg {
	if len(legs) == 2 && legs[0].Tpsl == TpslStopLoss {
		return []TpslLeg{legs[1], legs[0]}
	}
	return legs
}
