package action

import (
	"context"
	"fmt"
	"strings"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/send"
	"github.com/tradedesk/tradedesk/ui/common"
)

// NewBracket builds the confirmation of a checked bracket: the entry as NewOrder shows it, then
// its take-profit and stop-loss, what each would gain or lose and the reward/risk. The entry and
// its legs go in one placeOrder. The order form and the command line both send brackets this way.
func NewBracket(cb state.CheckedBracket, st *common.Styles) *Action {
	a := NewOrder(KindPlace, cb.Entry, st)
	a.Title = "Place bracket order"
	a.Confirm = cb.NeedsConfirm
	a.Bracket = cb
	a.What += cb.LegsWords()
	a.Lines[0] = st.Bold.On(strings.ToUpper(a.What))
	pd := cb.Entry.Instrument.PriceDecimals()
	legs := []string{"", bracketRefLine(cb)}
	if cb.TP.IsPositive() {
		legs = append(legs, "Take-profit  "+state.FormatPrice(cb.TP, pd)+" (market)   +"+common.FmtNum(cb.Reward, 2)+" USD")
	}
	switch {
	case cb.SL.IsPositive() && cb.StopPastLiq:
		legs = append(legs, "Stop-loss    "+state.FormatPrice(cb.SL, pd)+" (market)   never fires: liquidated first at "+
			state.FormatPrice(cb.Liq, pd)+", -"+common.FmtNum(cb.Risk, 2)+" USD")
	case cb.SL.IsPositive():
		legs = append(legs, "Stop-loss    "+state.FormatPrice(cb.SL, pd)+" (market)   -"+common.FmtNum(cb.Risk, 2)+" USD")
	}
	if rr := cb.RewardRisk(); rr.IsPositive() {
		legs = append(legs, "Reward/risk  "+rr.StringFixed(2))
	}
	legs = append(legs, "             armed when the entry fills; one cancels the other")
	at := len(a.Lines)
	for i, l := range a.Lines {
		if strings.HasPrefix(l, "Client id") {
			at = i
		}
	}
	a.Lines = append(a.Lines[:at], append(legs, a.Lines[at:]...)...)
	a.Run = func(ctx context.Context, e Executor, ask send.Ask) (Outcome, error) {
		c, err := send.PassedBracket(cb, e.Guard()) // the legs take the entry's child client ids
		if err != nil {
			return Outcome{}, err
		}
		return placeBracket(ctx, e, c, ask)
	}
	return a
}

// placeBracket sends a bracket (or a position's take-profit and stop-loss) through the executor.
func placeBracket(ctx context.Context, e Executor, c send.CheckedBracket, ask send.Ask) (Outcome, error) {
	br, err := e.PlaceBracket(ctx, c, ask)
	return Outcome{Result: br.Result, Legs: br.Legs}, err
}

// bracketRefLine says the price the legs, their gain and loss are measured from and, when the
// exchange judges their sides against another price (a market entry: the mark), that one too.
func bracketRefLine(cb state.CheckedBracket) string {
	in := cb.Entry.Instrument
	pd := in.PriceDecimals()
	rd := pd
	if !state.OnStep(cb.Ref, in.TickSize) { // an average fill: one digit finer, as the book walk says it
		rd++
	}
	l := "Measured from " + state.FormatPrice(cb.Ref, rd) + " (" + strings.TrimPrefix(cb.RefWhat, "the ") + ")"
	if cb.Judge.IsPositive() && !cb.Judge.Equal(cb.Ref) {
		l += "; judged against " + cb.JudgeWhat + " " + state.FormatPrice(cb.Judge, pd)
	}
	return l
}

// bracketWords reads what became of a bracket (or a position's take-profit and stop): each
// order's own outcome; any rejection is a failure and says which order and why. A bracket's leg
// the exchange cancelled at once (its entry filled and left it nothing to close) is a failure
// too: the entry stands unprotected, and the trader must hear it here, not find it in history.
// An entry the executor could not place, or had to look up, reads as an order's (orderWords).
func bracketWords(d DoneMsg) (string, common.NoticeLevel) {
	r, wires := d.Out.Result, bracketWires(d.Act)
	if r.Resp == nil || len(d.Out.Legs) == 0 && d.Act.Kind != KindPositionTpsl {
		return orderWords(d)
	}
	os := []state.Outcome{r.Outcome}
	for _, l := range d.Out.Legs {
		os = append(os, l.Outcome)
	}
	var bad, gone []string
	for i, o := range os {
		switch {
		case o.Kind == state.OutcomeRejected:
			bad = append(bad, fmt.Sprintf("order %d of %d rejected: %s", i+1, len(os), o.Reason))
		case o.Kind == state.OutcomeUnfilled && i < len(wires) && wires[i].Tpsl != "" && wires[i].Grouping == api.GroupingNormal:
			gone = append(gone, legWord(wires[i].Tpsl))
		}
	}
	switch {
	case len(bad) > 0:
		return d.Act.What + ": " + strings.Join(bad, "; "), common.LevelError
	case os[0].Kind == state.OutcomeSent:
		return "sent: " + d.Act.What + txText(r.Resp.TxHash), common.LevelInfo
	case len(gone) > 0:
		return fmt.Sprintf("placed, but the exchange cancelled its %s at once: the entry is not protected; set TP/SL on the position (t on it): %s",
			strings.Join(gone, " and "), d.Act.What), common.LevelError
	}
	return fmt.Sprintf("placed (%d orders, first %d): %s", len(os), os[0].Oid, d.Act.What), common.LevelInfo
}

// bracketWires are the orders of a bracket or a position's take-profit and stop, in order.
func bracketWires(a *Action) []api.OrderWire {
	if a.Kind == KindPositionTpsl {
		return a.Tpsl.Wires
	}
	return a.Bracket.Wires
}

// legWord names a leg by its tpsl value.
func legWord(tpsl string) string {
	if tpsl == api.TpslTakeProfit {
		return "take-profit"
	}
	return "stop-loss"
}

// NewPositionTpsl builds the confirmation of a take-profit and/or stop on a whole position
// (grouping position): they close the whole position when one fires, live while it does, and
// replace the earlier ones of their kind.
func NewPositionTpsl(pt state.PositionTpsl, st *common.Styles) *Action {
	pd := pt.Instrument.PriceDecimals()
	what := "position " + pt.Instrument.Name
	lines := []string{"", "Instrument   " + pt.Instrument.Name,
		"Position     " + common.FmtSigned(pt.Position.Size, pt.Instrument.SizeDecimals()) + " @ " + state.FormatPrice(pt.Position.EntryPrice, pd) +
			" (distances measured from this entry price)",
		"Mark         " + state.FormatPrice(pt.Mark, pd)}
	if pt.TP.IsPositive() {
		what += " tp " + state.FormatPrice(pt.TP, pd)
		lines = append(lines, "Take-profit  "+state.FormatPrice(pt.TP, pd)+" (market)   "+common.FmtSigned(pt.TPPnL, 2)+" USD")
	}
	if pt.SL.IsPositive() {
		what += " sl " + state.FormatPrice(pt.SL, pd)
		l := "Stop-loss    " + state.FormatPrice(pt.SL, pd) + " (market)   " + common.FmtSigned(pt.SLPnL, 2) + " USD"
		if pt.StopPastLiq {
			l = "Stop-loss    " + state.FormatPrice(pt.SL, pd) + " (market)   never fires: liquidated first at " +
				state.FormatPrice(pt.Liq, pd) + ", " + common.FmtSigned(pt.SLPnL, 2) + " USD"
		}
		lines = append(lines, l)
	}
	lines = append(lines, "", "Each closes the whole position when it fires (PnL from the entry, fees left out) and replaces an earlier one of its kind on this position.")
	for _, w := range pt.Warnings {
		lines = append(lines, st.Warn.On("! "+w))
	}
	lines[0] = st.Bold.On(strings.ToUpper(what))
	typed := ""
	if len(pt.Warnings) > 0 { // a guard finding asks for a typed yes, as an order's does
		typed = "yes"
	}
	return &Action{Kind: KindPositionTpsl, Title: "Position take-profit / stop-loss", Lines: lines, What: what, Confirm: true, Typed: typed,
		Lane: LaneOrder, Refresh: tradeKinds,
		Run: func(ctx context.Context, e Executor, ask send.Ask) (Outcome, error) {
			c, err := send.PassedPositionTpsl(pt, e.Guard())
			if err != nil {
				return Outcome{}, err
			}
			return placeBracket(ctx, e, c, ask)
		},
		Order: state.CheckedOrder{Wire: pt.Wires[0], Instrument: pt.Instrument, Size: pt.Position.Size.Abs()}, Tpsl: pt}
}
