package cmdline

import (
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/record"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/dialogs/leverage"
)

// Action is the signed action of a checked command: the very constructor the order form, the
// positions pane, the orders pane and the leverage dialog use, so a command is confirmed, sent,
// looked up when its answer is lost and read back exactly as theirs are; policy is the guard's
// (a cancel of one order asks as the orders pane's x does). The journal names the command line
// as who asked.
func Action(p state.CommandPlan, st *common.Styles, policy state.ConfirmPolicy) *action.Action {
	a := planAction(p, st, policy)
	a.Who = record.WhoCommandLine
	return a
}

func planAction(p state.CommandPlan, st *common.Styles, policy state.ConfirmPolicy) *action.Action {
	switch p.Command.Verb {
	case state.VerbBuy, state.VerbSell:
		if len(p.Bracket.Wires) > 0 {
			return action.NewBracket(p.Bracket, st)
		}
		return action.NewOrder(action.KindPlace, p.Order, st)
	case state.VerbClose:
		return action.NewClose(p.Close, st)
	case state.VerbReverse:
		return action.NewReverse(p.Reverse, st)
	case state.VerbFlatten:
		return action.NewFlatten(p.Flatten, st)
	case state.VerbBreakeven:
		return action.NewPositionTpsl(p.PositionTpsl, st)
	case state.VerbCancel:
		switch {
		case p.Command.All && p.Command.Instrument == "":
			return action.NewCancelEverything(p.Scope)
		case p.Command.All:
			return action.NewCancelInstrument(p.Instrument.ID, p.Instrument.Name, p.Scope)
		}
		return action.NewCancelOne(p.Cancel[0], p.Instrument, policy)
	case state.VerbTpsl:
		return action.NewPositionTpsl(p.PositionTpsl, st)
	}
	return leverageAction(p.Leverage, st)
}

// enterSays is what the enter key (TextSubmit) does with a: it reviews an action that asks to be
// confirmed, and sends one that does not.
func (m *Model) enterSays(a *action.Action) string {
	enter := common.KeyName(m.keys.TextSubmit)
	if a.Confirm {
		return enter + " to review"
	}
	return enter + " sends it"
}

// leverageAction is the leverage dialog's action, confirmed with the dialog's figures: in the
// dialog the trader saw them before Enter; on the command line the confirmation shows them.
func leverageAction(c state.LeverageChange, st *common.Styles) *action.Action {
	a := leverage.NewAction(c)
	a.Confirm = true
	a.Lines = []string{
		st.Bold.On("LEVERAGE " + c.Instrument.Name + " " + c.Current.String() + "x -> " + c.New.String() + "x"),
		"",
		"In force     " + c.Current.String() + "x",
		"Tier maximum " + c.Max.String() + "x",
		"",
		st.Good.On(c.Effect()),
	}
	return a
}
