package action

import (
	"context"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Cancels are safe to repeat: when a cancel fails or its answer is lost, the console asks the
// exchange what is still open and says that in plain words.

// NewCancel cancels one open order of instrument in, without asking (a cancel is safe to repeat).
func NewCancel(o api.OrderRecord, in state.Instrument) *Action {
	c := api.CancelOid{Oid: o.OrderID, InstrumentID: o.InstrumentID}
	return &Action{
		Kind: KindCancel, Title: "Cancel order", Cancel: c,
		What: fmt.Sprintf("cancel %s (order %d)", state.RecordText(&o, in), o.OrderID),
		Run: func(ctx context.Context, t api.Trader) (api.TxResponse, error) {
			return t.CancelByOid(ctx, []api.CancelOid{c})
		},
		Read: resultText, Refresh: tradeKinds, FollowUp: checkCancel,
	}
}

// NewCancelOne cancels one open order the trader picked (the orders pane's x, the ladder's, the
// command line's cancel), after a confirmation that names it when the policy asks for one
// (state.ConfirmEvery); otherwise at once, and the status line names the order cancelled.
//
// A bracket's entry is asked about under every policy: cancelling it cancels its take-profit and
// stop-loss too, which the dialog says.
func NewCancelOne(o api.OrderRecord, in state.Instrument, p state.ConfirmPolicy) *Action {
	a := NewCancel(o, in)
	a.Confirm = p.AsksCancel()
	a.Lines = []string{"Cancel this order?", fmt.Sprintf("  %s · order %d", state.RecordText(&o, in), o.OrderID)}
	if bracketEntry(o) {
		a.Confirm = true
		a.Title = "Cancel bracket entry"
		a.What += " and its take-profit and stop-loss"
		a.Lines = append(a.Lines, "", "It is a bracket's entry: its take-profit and stop-loss are cancelled with it.")
	}
	return a
}

// AllOf is every one of n things, counted: "all 3 open orders", "the 1 open order".
func AllOf(n int, noun string) string {
	if n == 1 {
		return "the " + state.Count(n, noun)
	}
	return "all " + state.Count(n, noun)
}

// NewCancelEverything cancels every open order on every instrument (sc: the ones shown and the
// stops among them), confirmed.
func NewCancelEverything(sc state.CancelScope) *Action {
	return NewCancelAll("Cancel ALL open orders", "cancel "+AllOf(sc.Orders, "open order"),
		ScopeLines("Cancel "+AllOf(sc.Orders, "open order")+" on every instrument", sc))
}

// NewCancelInstrument cancels every open order on one instrument (sc: the ones shown and the
// stops among them), confirmed.
func NewCancelInstrument(id api.InstrumentID, name string, sc state.CancelScope) *Action {
	return &Action{
		Kind: KindCancelInstrument, Confirm: true, Instrument: id,
		Title: "Cancel all orders on " + name,
		What:  "cancel " + state.Count(sc.Orders, "open order") + " on " + name,
		Lines: ScopeLines("Cancel "+AllOf(sc.Orders, "open order")+" on "+name, sc),
		Run: func(ctx context.Context, t api.Trader) (api.TxResponse, error) {
			return t.CancelByInstrument(ctx, id)
		},
		Read: resultText, Refresh: tradeKinds, FollowUp: checkCancel,
	}
}

// ScopeLines is a cancel's question with what it takes besides plain orders: "Cancel all 3 open
// orders on BTC-PERP, including the stop-loss and take-profit on your 0.1 BTC long?", and that
// the position stays open without them.
func ScopeLines(question string, sc state.CancelScope) []string {
	inc := sc.Including()
	if inc == "" {
		return []string{question + "?"}
	}
	return []string{question + ", " + inc + "?", "", "! " + sc.Unguarded()}
}

// NewCancelAll cancels every open order on the account, confirmed.
func NewCancelAll(title, what string, lines []string) *Action {
	return &Action{
		Kind: KindCancelAll, Confirm: true, Title: title, What: what, Lines: lines,
		Run: func(ctx context.Context, t api.Trader) (api.TxResponse, error) {
			return t.CancelAll(ctx)
		},
		Read: resultText, Refresh: tradeKinds, FollowUp: checkCancel,
	}
}

// cancelFailure is why a cancel did not clearly succeed ("" when it did).
func cancelFailure(d DoneMsg) string {
	if d.Err != nil {
		return common.PlainError(d.Err)
	}
	if d.Act.Kind == KindCancel {
		if out := state.CancelOutcome(d.Resp); out.Failed() {
			return out.Reason
		}
	}
	return ""
}

// checkCancel follows up a cancel that failed or whose answer was lost: it asks the exchange what
// is still open and says so (see cancelCheckText). It returns no command for a clear success.
func checkCancel(ex api.Exchange, d DoneMsg, timeout time.Duration) (tea.Cmd, string) {
	why := cancelFailure(d)
	if why == "" {
		return nil, ""
	}
	return cancelCheck(ex, d, why, timeout), d.Act.What + ": " + why + ": checking what is still open…"
}

// cancelCheckedMsg is what a cancel's check found, in words.
type cancelCheckedMsg struct {
	act   *Action
	text  string
	level common.NoticeLevel
}

func (c cancelCheckedMsg) Settled() (*Action, string, common.NoticeLevel) {
	return c.act, c.text, c.level
}

// cancelCheck reads the account's open orders (and, for one order gone, its state in the first
// page of history) and returns the status line's words as a cancelCheckedMsg.
func cancelCheck(ex api.Exchange, d DoneMsg, why string, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 2*timeout)
		defer cancel()
		open, err := api.AllPages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
			return ex.OpenOrders(ctx, ex.Address(), p)
		}, 0, nil)
		gone := ""
		if err == nil && d.Act.Kind == KindCancel && !holds(open, d.Act.Cancel.Oid) {
			gone = "no longer open"
			if pg, herr := ex.OrderHistory(ctx, ex.Address(), api.PageParams{Page: 1}); herr == nil {
				for _, o := range pg.Data {
					if o.OrderID == d.Act.Cancel.Oid {
						gone = "already " + o.State
						break
					}
				}
			}
		}
		text, level := cancelCheckText(d.Act, why, open, gone, err)
		return cancelCheckedMsg{act: d.Act, text: text, level: level}
	}
}

func holds(open []api.OrderRecord, oid api.OrderID) bool {
	for _, o := range open {
		if o.OrderID == oid {
			return true
		}
	}
	return false
}

// cancelCheckText says what a cancel left behind: nothing (harmless, info), or orders still open
// (an error, with the advice that cancelling again is safe). gone is the state of a single order
// no longer open ("already cancelled", "already filled", "no longer open").
func cancelCheckText(a *Action, why string, open []api.OrderRecord, gone string, err error) (string, common.NoticeLevel) {
	if err != nil {
		return fmt.Sprintf("%s: %s; could not check what is still open (%s): cancelling again is safe", a.What, why, common.PlainError(err)), common.LevelError
	}
	switch a.Kind {
	case KindCancel:
		if gone != "" {
			return fmt.Sprintf("order %d is %s at the exchange: nothing left to cancel", a.Cancel.Oid, gone), common.LevelInfo
		}
		return fmt.Sprintf("%s failed (%s): order %d is still open; cancelling again is safe", a.What, why, a.Cancel.Oid), common.LevelError
	case KindCancelInstrument:
		n := 0
		for _, o := range open {
			if o.InstrumentID == a.Instrument {
				n++
			}
		}
		if n == 0 {
			return a.What + ": no open orders left on the instrument", common.LevelInfo
		}
		return fmt.Sprintf("%s failed (%s): %s still open on the instrument; cancelling again is safe", a.What, why, state.Count(n, "order")), common.LevelError
	}
	if len(open) == 0 {
		return a.What + ": no open orders left at the exchange", common.LevelInfo
	}
	return fmt.Sprintf("%s failed (%s): %s still open; cancelling again is safe", a.What, why, state.Count(len(open), "order")), common.LevelError
}

// bracketEntry reports whether o is the entry of a bracket (grouping normal, resting itself, not
// one of the trigger legs): its take-profit and stop-loss children live only while it does.
func bracketEntry(o api.OrderRecord) bool {
	return o.Grouping == api.GroupingNormal && o.RestingLimit() && o.Tpsl == ""
}
