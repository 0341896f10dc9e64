package action

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/record"
	"github.com/tradedesk/tradedesk/state/send"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Lane is what an action may not overlap with: one order at a time (the order form is locked
// while it is out), one money movement at a time. Cancels take no lane: they are safe to repeat
// and must work while an order is out.
type Lane int

const (
	LaneNone  Lane = iota // cancels and the like: they overlap anything
	LaneOrder             // orders and their changes (leverage too): one at a time
	LaneFunds             // moving collateral
	LaneCount             // the number of lanes, for arrays indexed by Lane
)

// BusyText is the refusal when an action's lane is taken.
var BusyText = [LaneCount]string{
	LaneOrder: "an order is in flight: wait for its result before sending another",
	LaneFunds: "a movement of collateral is in flight: wait for its result before sending another",
}

// RequestMsg carries a pane's request for an action to the root model.
type RequestMsg struct{ Act *Action }

// Request hands a to the root model's pipeline.
func Request(a *Action) tea.Cmd { return func() tea.Msg { return RequestMsg{Act: a} } }

// DoneMsg is the answer to a sent action: what the executor found (Out) of one it sends, the
// exchange's answer (Resp) of one sent directly (Direct).
type DoneMsg struct {
	Act     *Action
	Out     Outcome
	Resp    api.TxResponse
	Err     error
	Latency time.Duration
}

// Outcome is what the executor found of an action: its Result (an amend's replacement's, or its
// cancel's when the move stopped), a bracket's legs, and why an amend placed nothing.
type Outcome struct {
	send.Result
	// Legs are a bracket's (or a position's second) orders after the first.
	Legs []send.Result
	// Stopped says why an amend placed nothing ("" when it placed its replacement); OldFilled
	// that the old order filled meanwhile.
	Stopped   string
	OldFilled bool
	// Cancelled says an amend's cancel of the old order went through.
	Cancelled bool
	// Flatten is what became of each order of a flatten, in its order; Lines are their result
	// lines, kept in the messages view before the action's words (their sum).
	Flatten []state.FlattenChild
	Lines   []string
}

// SentMsg tells every pane that an action was confirmed and is being sent.
type SentMsg struct{ Act *Action }

// SettledMsg tells every pane how an action ended (the pane that asked for it shows it).
type SettledMsg struct {
	Act    *Action
	Text   string
	Failed bool
}

// ExecBound bounds one action sent through the executor, its lost-answer lookups included: they
// end by themselves once the request's expiresAfter has passed (api: 60 s after signing).
var ExecBound = 3 * time.Minute

// Executor is the one executor an action runs on: *exec.Executor is it (its gate, the journal,
// the send, a lost answer resolved, fills settled). An action takes it as this interface, so the
// panes that build actions link neither the journal nor SQLite.
type Executor interface {
	Guard() state.Guard
	Place(ctx context.Context, c send.Checked, ask send.Ask) (send.Result, error)
	PlaceBatch(ctx context.Context, cs []send.Checked, ask send.Ask) (send.BatchResult, error)
	PlaceBracket(ctx context.Context, c send.CheckedBracket, ask send.Ask) (send.BracketResult, error)
	Modify(ctx context.Context, old api.OrderRecord, repl send.Checked, ask send.Ask) (send.ModifyResult, error)
	Cancel(ctx context.Context, c send.Cancel, ask send.Ask) (send.Result, error)
	CancelMany(ctx context.Context, c send.CancelMany, ask send.Ask) (send.Result, error)
	Do(ctx context.Context, kind string, ask send.Ask, call func(ctx context.Context) (api.TxResponse, error)) (send.Result, error)
}

// Send sends the action once, through the executor e (its gate, the journal, the send, a lost
// answer resolved, fills settled), with ask saying who asked and whether the trader typed the
// confirmation, and returns one DoneMsg. An order or a cancel is a.Run; any other action is
// a.Direct's one signed call against t, sent by the executor's Do. e nil (a nil interface: no
// executor) answers that nothing is signed without a journal.
func Send(t api.Trader, e Executor, a *Action, ask send.Ask) tea.Cmd {
	return func() tea.Msg {
		start := time.Now()
		if e == nil {
			return DoneMsg{Act: a, Err: errors.New("no journal is open, and nothing is signed without one"), Latency: time.Since(start)}
		}
		ctx, cancel := context.WithTimeout(context.Background(), ExecBound)
		defer cancel()
		if a.Run == nil {
			r, err := e.Do(ctx, a.DoKind, ask, func(ctx context.Context) (api.TxResponse, error) { return a.Direct(ctx, t) })
			d := doneOf(a, r, err)
			d.Latency = time.Since(start)
			return d
		}
		out, err := a.Run(ctx, e, ask)
		return DoneMsg{Act: a, Out: out, Err: err, Latency: time.Since(start)}
	}
}

// doneOf is the DoneMsg of an action Do sent, in the shape its Read takes: done, its
// transaction in Resp; not done, why in Err (the send's error kept, so a lost answer still reads
// as one).
func doneOf(a *Action, r send.Result, err error) DoneMsg {
	d := DoneMsg{Act: a, Out: Outcome{Result: r}, Err: err}
	if r.Resp != nil {
		d.Resp = *r.Resp
	}
	d.Resp.TxHash = r.TxHash
	switch {
	case err != nil || r.Kind == send.Done:
	case r.Err != nil:
		d.Err = r.Err
	default:
		d.Err = errors.New(r.Reason)
	}
	return d
}

// tradeKinds are the kinds an order or a cancel changes.
var tradeKinds = []state.Kind{state.KindOrders, state.KindPositions, state.KindAccount, state.KindBook}

// Kind is what a trading action does (its payload below, and how its answer is read).
type Kind int

// The kinds of action; each one's payload is the Action field of the same topic.
const (
	KindPlace Kind = iota
	KindClose
	KindCancel
	KindCancelInstrument
	KindCancelAll
	KindTransfer
	KindAmend
	KindControl      // leverage, broker approvals: their Read is ControlRead
	KindPositionTpsl // a position's take-profit and stop-loss (NewPositionTpsl)
)

// Action is one signed action a pane asks the root model to run through the pipeline
// (see Request): how it is confirmed, how it runs against api.Trader, and how its answer is read.
type Action struct {
	Kind    Kind
	Title   string   // the confirmation's title
	Lines   []string // the confirmation's body
	What    string   // one line for the status bar and the log ("buy 0.5 BTC-PERP @ 50,000")
	Confirm bool
	Typed   string // a word the trader must type to confirm ("" for Enter alone)

	Lane Lane
	// Who asked: record.WhoForm (the panes, the dialogs, the kill switch; "" is it too) or
	// record.WhoCommandLine.
	Who record.Who
	// Run sends the action through the executor; every order and cancel has one.
	Run func(ctx context.Context, e Executor, ask send.Ask) (Outcome, error)
	// Direct is the one signed call of an action that is not an order or a cancel (a transfer, a
	// withdrawal, leverage, a broker approval), against api.Trader; the executor's Do sends it
	// through its journal as kind DoKind (send.ActTransfer ...). Read says how it ended.
	Direct  func(ctx context.Context, t api.Trader) (api.TxResponse, error)
	DoKind  string
	Read    func(d DoneMsg) (text string, failed bool)
	Refresh []state.Kind // polled at once when it is settled

	// Recheck builds the action again from the store as it stands (the same intent), for the
	// second check on Enter (CheckAgain): the fresh action, or why it no longer passes. nil:
	// nothing to check again (a cancel, a transfer).
	Recheck func() (*Action, string)

	Order      state.CheckedOrder
	Bracket    state.CheckedBracket // a bracket's legs (NewBracket); no Wires otherwise
	Cancel     api.CancelOid
	Instrument api.InstrumentID
	Amend      api.OrderRecord      // the order an amend cancels (Order is its replacement)
	Tpsl       state.PositionTpsl   // a position's take-profit and stop-loss (NewPositionTpsl)
	Leverage   state.LeverageChange // a leverage change (its Instrument set: one is confirmed)
	// Then is a command offered on the command line once the action succeeded (a reverse's
	// TP/SL on the new side, state.ReversePlan.Offer); "" for none.
	Then string
}

// AgentMay reports whether an agent key may sign a: orders and cancels (api.AgentMay), never a
// movement of collateral, a leverage change or a broker approval.
func (a *Action) AgentMay() bool { return a.Kind != KindTransfer && a.Kind != KindControl }

// NewOrder builds the action of a checked order and its confirmation: the whole order, its
// preview and the fat-finger warnings. It asks to be confirmed when the guard's policy does
// (c.NeedsConfirm: a plain limit order is sent on Enter under the default policy). c was checked
// with the console's guard, which is the executor's (ui.New refuses to trade when they differ):
// the executor takes it as passed its gate (send.Passed).
func NewOrder(kind Kind, c state.CheckedOrder, st *common.Styles) *Action {
	w := c.Wire
	title := "Place order"
	if kind == KindClose {
		title = "Close position"
	}
	what := orderWhat(c)
	lines := []string{
		st.Bold.On(strings.ToUpper(what)),
		"",
		"Instrument   " + c.Instrument.Name,
		"Side         " + common.SidePaint(st, w.Side).On(strings.ToUpper(state.SideText(w.Side))),
		"Type         " + state.OrderTypeLong(w.Tpsl, w.IsMarket),
		"Price        " + priceText(c),
		"Size         " + wireNum(w.Size, c.Instrument.SizeDecimals()),
		"In force     " + strings.Join(append([]string{w.Tif}, state.FlagTexts(w.ReduceOnly, w.PostOnly)...), ", "),
	}
	rows := c.PreviewRows() // the rows the order form shows: the same figures, one computation
	if len(rows) > 0 {
		lines = append(lines, "")
	}
	for _, r := range rows {
		lines = append(lines, common.Pad(r.Label, 13)+r.Value)
	}
	lines = append(lines, "Client id    "+w.Cloid)
	if s := CrossesText(c); s != "" {
		lines = append(lines, st.Warn.On("! "+s))
	}
	for _, warn := range c.Warnings {
		lines = append(lines, st.Warn.On("! "+warn))
	}
	a := &Action{Kind: kind, Title: title, Lines: lines, What: what, Confirm: c.NeedsConfirm, Order: c,
		Lane: LaneOrder, Run: placeOrder(c), Refresh: tradeKinds}
	if c.NeedsTypedConfirm {
		a.Typed = "yes"
	}
	return a
}

// CrossesText says that a limit order priced through the book fills at once as a taker (it would
// otherwise read as one that rests); "" for any other order.
func CrossesText(c state.CheckedOrder) string {
	w := c.Wire
	if w.IsMarket || w.TriggerPx != "" || !c.Preview.Taker || c.Rests {
		return ""
	}
	return "limit " + state.SideText(w.Side) + " at " + wireNum(w.Price, c.Instrument.PriceDecimals()) +
		" crosses the book: it fills at once as a taker, like a market order, as far as its price"
}

func orderWhat(c state.CheckedOrder) string {
	w := c.Wire
	return fmt.Sprintf("%s %s %s %s", state.SideText(w.Side), wireNum(w.Size, c.Instrument.SizeDecimals()), c.Instrument.Name, priceText(c))
}

// priceText is an order's price in the one number style: at the instrument's tick, with
// thousands separators ("@ 97,000.1", "market (worst 3,446.8)").
func priceText(c state.CheckedOrder) string {
	w, dec := c.Wire, c.Instrument.PriceDecimals()
	var s string
	if w.IsMarket {
		s = "market (worst " + wireNum(w.Price, dec) + ")"
	} else {
		s = "@ " + wireNum(w.Price, dec)
	}
	if w.TriggerPx != "" {
		s += " trigger " + wireNum(w.TriggerPx, dec)
	}
	return s
}

// wireNum writes a number of an order's wire form at decimals places with separators; a value
// that is not a number (it never is, once checked) is written as it is.
func wireNum(v string, decimals int32) string {
	d, err := decimal.NewFromString(v)
	if err != nil {
		return v
	}
	return state.FormatPrice(d, decimals)
}

// placeOrder sends one order through the executor.
func placeOrder(c state.CheckedOrder) func(context.Context, Executor, send.Ask) (Outcome, error) {
	return func(ctx context.Context, e Executor, ask send.Ask) (Outcome, error) {
		checked, err := send.Passed(c, e.Guard())
		if err != nil {
			return Outcome{}, err
		}
		r, err := e.Place(ctx, checked, ask)
		return Outcome{Result: r}, err
	}
}

// ControlRead is the status line's words for an account-control action (leverage, a broker
// approval): done with its transaction, or failed and why.
func ControlRead(d DoneMsg) (string, bool) {
	if d.Err != nil {
		return d.Act.What + " failed: " + common.PlainError(d.Err), true
	}
	return d.Act.What + " done" + txText(d.Resp.TxHash), false
}
