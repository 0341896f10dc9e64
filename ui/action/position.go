package action

import (
	"context"
	"fmt"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/send"
	"github.com/tradedesk/tradedesk/ui/common"
)

// The position keys' actions (issue #35), built on NewOrder and the executor like every order.

// NewClose is a close's order (state.Store.PlanClose) with the PnL it realises and its fee: in
// the confirmation and in the words of its result.
func NewClose(p state.ClosePlan, st *common.Styles) *Action {
	a := NewOrder(KindClose, p.Order, st)
	pnl := "realises " + state.FormatSigned(p.PnL, 2) + " USD, fee " + state.FormatUSDFee(p.Fee) + " USD"
	a.What += " (" + pnl + ")"
	a.Lines = append(a.Lines[:2:2], append([]string{"Realises     " + state.FormatSigned(p.PnL, 2) + " USD before the fee (est.)",
		"Left         " + common.FmtNum(p.Remaining, p.Order.Instrument.SizeDecimals()), ""}, a.Lines[2:]...)...)
	return a
}

// NewReverse is a reverse (state.Store.PlanReverse): one market order of twice the size, always
// confirmed, saying what it realises, the margin and liquidation after and that the position's
// TP/SL are cancelled once it filled (they would close the old side).
func NewReverse(p state.ReversePlan, st *common.Styles) *Action {
	a := NewOrder(KindPlace, p.Order, st)
	a.Title, a.Confirm = "Reverse position", true
	a.What, a.Then = p.Words(), p.Offer()
	head := []string{"", st.Bold.On(p.Words())}
	if t := p.TpslWords(); t != "" { // on its own line too: the line above may be cut
		head = append(head, "TP/SL        "+t)
	}
	a.Lines = append(a.Lines[:1:1], append(head, a.Lines[1:]...)...)
	co, tpsl := p.Order, p.Tpsl
	a.Run = func(ctx context.Context, e Executor, ask send.Ask) (Outcome, error) {
		c, err := send.Passed(co, e.Guard())
		if err != nil {
			return Outcome{}, err
		}
		r, err := e.Place(ctx, c, ask)
		if err != nil || !r.Outcome.Filled.IsPositive() {
			return Outcome{Result: r}, err
		}
		for _, o := range tpsl { // an order the exchange cancelled with the old side is gone: its cancel says so
			_, _ = e.Cancel(ctx, send.Cancel{InstrumentID: o.InstrumentID, Oid: o.OrderID},
				send.Ask{Who: ask.Who, What: fmt.Sprintf("cancel the reversed position's TP/SL %d", o.OrderID), Parent: co.Wire.Cloid})
		}
		return Outcome{Result: r}, nil
	}
	return a
}

// NewFlatten is flatten all (state.Store.PlanFlatten): every order it sends and every position it
// skips listed, confirmed by typing "flatten", signed as one placeOrder (exec.Executor.PlaceBatch).
func NewFlatten(p state.FlattenPlan, st *common.Styles) *Action {
	lines := append([]string{st.Bold.On(fmt.Sprintf("CLOSE %d POSITIONS AT MARKET", len(p.Closes))), ""}, p.Lines()...)
	wires := make([]api.OrderWire, len(p.Closes))
	cos := make([]state.CheckedOrder, len(p.Closes))
	for i, c := range p.Closes {
		wires[i], cos[i] = c.Order.Wire, c.Order
	}
	what := fmt.Sprintf("flatten %d positions (realises %s USD, fee %s USD)", len(p.Closes), state.FormatSigned(p.PnL, 2), state.FormatUSDFee(p.Fee))
	return &Action{Kind: KindClose, Title: "Flatten all positions", Lines: lines, What: what, Confirm: true, Typed: "flatten",
		Lane: LaneOrder, Refresh: tradeKinds, Bracket: state.CheckedBracket{Wires: wires},
		Run: func(ctx context.Context, e Executor, ask send.Ask) (Outcome, error) {
			cs := make([]send.Checked, len(cos))
			for i, co := range cos {
				c, err := send.Passed(co, e.Guard())
				if err != nil {
					return Outcome{}, err
				}
				cs[i] = c
			}
			ask.Confirmed = true // the typed "flatten" is the confirmation
			if p.CancelFirst {
				r, err := e.CancelMany(ctx, send.CancelMany{All: true}, send.Ask{Who: ask.Who, What: "cancel every open order before flatten", Confirmed: true})
				if err != nil {
					return Outcome{Result: r}, err
				}
				if r.Kind != send.Cancelled {
					return Outcome{Result: r}, fmt.Errorf("the cancel of every open order first ended %s (%s): no position closed", r.Kind, r.Reason)
				}
			}
			res, err := e.PlaceBatch(ctx, cs, ask)
			if err != nil || len(res.Orders) == 0 {
				return Outcome{Result: res.Result}, err
			}
			out := Outcome{Result: res.Orders[0], Legs: res.Orders[1:], Flatten: send.FlattenChildren(p, res)}
			for _, c := range out.Flatten {
				out.Lines = append(out.Lines, "flatten: "+c.Line())
			}
			return out, nil
		}, Read: flattenWords}
}

// flattenWords is a flatten's result line: its orders summed ("flatten: 5 sent, 4 filled, 1
// refused: SOL-PERP why"), failed unless every one filled; or why nothing was sent.
func flattenWords(d DoneMsg) (string, bool) {
	r := d.Out.Result
	switch {
	case d.Err != nil:
		return "flatten not sent: " + common.PlainError(d.Err), true
	case len(d.Out.Flatten) == 0 && r.Kind == send.Refused:
		return "flatten refused, nothing sent: " + r.Reason, true
	case len(d.Out.Flatten) == 0:
		why := r.Reason
		if r.Err != nil {
			why = common.PlainError(r.Err)
		}
		return "flatten failed: " + r.Kind.String() + " " + why, true
	}
	failed := false
	for _, c := range d.Out.Flatten {
		failed = failed || !c.Filled
	}
	return "flatten: " + state.FlattenSummary(d.Out.Flatten), failed
}
