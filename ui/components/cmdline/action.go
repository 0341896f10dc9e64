package cmdline

import (
	"context"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
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
	a.Who = journal.WhoCommandLine
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
		return action.NewOrder(action.KindClose, p.Order, st)
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

// BookMsg is the book a command-line order waited for (NeedBookMsg), fetched by FetchBook.
type BookMsg struct {
	Need NeedBookMsg
	At   time.Time
	Book api.OrderBook
	Err  error
}

// FetchBook fetches the book need names, depth levels a side, within timeout: the store keeps
// only the current instrument's book live, and an order on another instrument is previewed on
// its own book. at stamps when it was asked.
func FetchBook(ex api.Exchange, need NeedBookMsg, depth int, timeout time.Duration, at time.Time) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		b, err := ex.OrderBook(ctx, need.Symbol, depth)
		return BookMsg{Need: need, At: at, Book: b, Err: err}
	}
}

// Snapshot is the fetched book as the store's snapshot of that instrument's book, or false when
// there is none to apply (a failed fetch, or a book of another instrument).
func (b BookMsg) Snapshot() (state.BookUpdateMsg, bool) {
	if b.Err != nil || (b.Book.Symbol != "" && !strings.EqualFold(b.Book.Symbol, b.Need.Symbol)) {
		return state.BookUpdateMsg{}, false
	}
	return state.BookUpdateMsg{At: b.At, Symbol: b.Need.Symbol, Snapshot: true, Time: b.Book.Time.Time,
		Bids: b.Book.Bids, Asks: b.Book.Asks}, true
}
