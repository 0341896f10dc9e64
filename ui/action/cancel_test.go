package action

import (
	"errors"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/ui/common"
)

// TestCancelCheckText: a cancel that failed or lost its answer is harmless when nothing it meant to
// cancel is left (info), and an error saying cancelling again is safe when orders are still open
// (what the executor found: the order's record, Result.Open). Each case guards a branch.
func TestCancelCheckText(t *testing.T) {
	one := NewCancel(api.OrderRecord{OrderID: 7, InstrumentID: 1, Instrument: "BTC-PERP", Side: api.SideBuy}, state.Instrument{})
	inst := NewCancelInstrument(1, "BTC-PERP", state.CancelScope{Orders: 2})
	all := NewCancelAll("Cancel ALL open orders", "cancel all 3 open orders", nil)
	lost := errors.New("timeout")
	for _, c := range []struct {
		name  string
		a     *Action
		r     exec.Result
		want  string
		level common.NoticeLevel
	}{
		{"one order gone", one, exec.Result{Kind: exec.CancelFailed, Reason: "already gone", Found: &api.OrderRecord{OrderID: 7, State: api.StateFilled}},
			"order 7 is already filled at the exchange: nothing left to cancel", common.LevelInfo},
		{"one order lost, found cancelled", one, exec.Result{Kind: exec.Cancelled, AnswerLost: true, Err: lost, Found: &api.OrderRecord{OrderID: 7, State: api.StateCancelled}},
			"order 7 is already cancelled at the exchange: nothing left to cancel", common.LevelInfo},
		{"one order still open", one, exec.Result{Kind: exec.CancelFailed, Reason: "x", Found: &api.OrderRecord{OrderID: 7, State: api.StateOpen}},
			"order 7 is still open; cancelling again is safe", common.LevelError},
		{"instrument clear", inst, exec.Result{Kind: exec.Cancelled, AnswerLost: true, Err: lost}, "no open orders left on the instrument", common.LevelInfo},
		{"instrument still open", inst, exec.Result{Kind: exec.CancelFailed, AnswerLost: true, Err: lost, Open: 1}, "1 order still open on the instrument", common.LevelError},
		{"all clear", all, exec.Result{Kind: exec.Cancelled, AnswerLost: true, Err: lost}, "no open orders left at the exchange", common.LevelInfo},
		{"all still open", all, exec.Result{Kind: exec.CancelFailed, AnswerLost: true, Err: lost, Open: 2}, "2 orders still open; cancelling again is safe", common.LevelError},
		{"refused, all clear", all, exec.Result{Kind: exec.CancelFailed, Err: lost}, "no open orders left at the exchange", common.LevelInfo},
		{"refused, not checked", all, exec.Result{Kind: exec.CancelFailed, Err: lost, Open: -1}, "could not check what is still open: cancelling again is safe", common.LevelError},
		{"check failed", all, exec.Result{Kind: exec.Unknown, AnswerLost: true, Err: lost, Open: -1}, "could not check what is still open: cancelling again is safe", common.LevelError},
		{"counted", all, exec.Result{Kind: exec.Cancelled, Resp: &api.TxResponse{}, Outcome: state.Outcome{Kind: state.OutcomeCancelledCount, Count: 3}}, "cancelled 3 orders", common.LevelInfo},
	} {
		text, level := Words(DoneMsg{Act: c.a, Out: Outcome{Result: c.r}})
		if !strings.Contains(text, c.want) || level != c.level {
			t.Errorf("%s: %q (level %d), want %q (level %d)", c.name, text, level, c.want, c.level)
		}
	}
}

// TestLostOrderLookupWords: what the executor's lookup found decides the words, and "not placed"
// is said only when the order was not at the exchange once its request expired.
func TestLostOrderLookupWords(t *testing.T) {
	a := &Action{Kind: KindPlace, What: "buy 0.01 BTC-PERP @ 96000"}
	a.Order.Wire.Cloid = "0x00000000000000000000000000000001"
	cloid := a.Order.Wire.Cloid
	for _, c := range []struct {
		r     exec.Result
		want  string
		level common.NoticeLevel
	}{
		{exec.Result{Kind: exec.Placed, Cloid: cloid, AnswerLost: true, Found: &api.OrderRecord{OrderID: 5, State: api.StateOpen}}, "the exchange has it: order 5", common.LevelWarn},
		{exec.Result{Kind: exec.NotPlaced, Cloid: cloid, AnswerLost: true}, "was NOT placed", common.LevelWarn},
		{exec.Result{Kind: exec.Unknown, Cloid: cloid, AnswerLost: true, Reason: "503"}, "the lookup did not settle it (503): check open orders and history for client id " + cloid, common.LevelError},
		{exec.Result{Kind: exec.Refused, Cloid: cloid, Reason: "needs confirmation"}, "not sent: needs confirmation", common.LevelError},
	} {
		text, level := Words(DoneMsg{Act: a, Out: Outcome{Result: c.r}})
		if !strings.Contains(text, c.want) || level != c.level {
			t.Errorf("%+v: %q (level %d), want %q", c.r, text, level, c.want)
		}
	}
}

// TestCancelWordsCountOrders (#13 QA 6): the mass cancels count their orders in words, "the 1 open
// order", "all 3 open orders", never "order(s)". Guards the plural for one.
func TestCancelWordsCountOrders(t *testing.T) {
	if a := NewCancelEverything(state.CancelScope{Orders: 1}); a.What != "cancel the 1 open order" || a.Lines[0] != "Cancel the 1 open order on every instrument?" {
		t.Errorf("one order: %q / %q", a.What, a.Lines[0])
	}
	if a := NewCancelInstrument(2, "ETH-PERP", state.CancelScope{Orders: 3}); a.What != "cancel 3 open orders on ETH-PERP" || a.Lines[0] != "Cancel all 3 open orders on ETH-PERP?" {
		t.Errorf("three orders: %q / %q", a.What, a.Lines[0])
	}
}

// TestCancellingABracketEntrySaysItsLegsGo (QA 13c #2): one x on a bracket's entry cancels its
// take-profit and stop-loss too, so it is asked about under every policy and the dialog says so; a
// plain limit order and a bracket's leg go at once under the default. Guards the entry check
// dropped, and the legs (trigger orders of the same grouping) taken for entries.
func TestCancellingABracketEntrySaysItsLegsGo(t *testing.T) {
	entry := api.OrderRecord{OrderID: 1, Instrument: "SOL-PERP", Side: api.SideBuy, Grouping: api.GroupingNormal}
	leg := api.OrderRecord{OrderID: 2, Instrument: "SOL-PERP", Side: api.SideSell, Grouping: api.GroupingNormal,
		Tpsl: api.TpslTakeProfit, TriggerPx: api.OptDecimal{Valid: true}}
	plain := api.OrderRecord{OrderID: 3, Instrument: "SOL-PERP", Side: api.SideBuy}
	a := NewCancelOne(entry, state.Instrument{}, state.ConfirmRisky)
	if !a.Confirm || !strings.Contains(strings.Join(a.Lines, " "), "take-profit and stop-loss are cancelled with it") {
		t.Errorf("a bracket entry's cancel: confirm %v, lines %q", a.Confirm, a.Lines)
	}
	for _, o := range []api.OrderRecord{leg, plain} {
		if a := NewCancelOne(o, state.Instrument{}, state.ConfirmRisky); a.Confirm {
			t.Errorf("order %d (tpsl %q) asks under the default policy", o.OrderID, o.Tpsl)
		}
	}
}
