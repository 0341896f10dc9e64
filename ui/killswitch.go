package ui

import (
	"context"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/kit"
)

// The kill switch is one key that works from anywhere in the console, even while typing in a form:
// it asks to cancel every open order on every instrument, and Enter confirms. Cancels are safe to
// repeat: when a cancel fails or its answer is lost, the console asks the exchange what is still
// open and says that in plain words, so cancelling an order that is already gone reads as
// harmless rather than as an error.

// killSwitch asks to cancel every open order (confirmed); in read-only mode it says why it
// cancels nothing.
func (m *Model) killSwitch() tea.Cmd {
	if m.c.ReadOnly != "" {
		m.setNotice(kit.LevelWarn, "kill switch: nothing cancelled: this console is read-only ("+m.c.ReadOnly+")")
		return nil
	}
	n := len(m.store.Orders())
	lines := []string{
		m.st.Bold.On(fmt.Sprintf("Cancel EVERY open order on every instrument (%d shown), trigger orders included.", n)),
		"Positions stay open: close them from the positions pane.",
		"Cancelling is safe to repeat.",
	}
	if f := m.store.Freshness(state.KindOrders); f.Stale || !f.Loaded() {
		lines = append(lines, m.st.Warn.On("! The open orders shown may be out of date: every order the exchange holds is cancelled."))
	}
	return m.onAction(cancelAllAction("KILL SWITCH", fmt.Sprintf("kill switch: cancel all %d open order(s)", n), lines))
}

// cancelAction cancels one open order, without asking (a cancel is safe to repeat).
func cancelAction(o api.OrderRecord) *action {
	c := api.CancelOid{Oid: o.OrderID, InstrumentID: o.InstrumentID}
	return &action{
		kind: actCancel, title: "Cancel order", cancel: c,
		what: fmt.Sprintf("cancel %s %s %s @ %s (order %d)", state.SideText(o.Side), o.Unfilled, o.Instrument, o.LimitPrice, o.OrderID),
		run: func(ctx context.Context, t api.Trader) (api.TxResponse, error) {
			return accepted(t.CancelByOid(ctx, []api.CancelOid{c}))
		},
		read: resultText, refresh: tradeKinds, followUp: checkCancel,
	}
}

// cancelInstrumentAction cancels every open order on one instrument (n of them shown), confirmed.
func cancelInstrumentAction(id api.InstrumentID, name string, n int) *action {
	return &action{
		kind: actCancelInstrument, confirm: true, instrument: id,
		title: "Cancel all orders on " + name,
		what:  fmt.Sprintf("cancel %d open order(s) on %s", n, name),
		lines: []string{fmt.Sprintf("Cancel all %d open order(s) on %s?", n, name)},
		run: func(ctx context.Context, t api.Trader) (api.TxResponse, error) {
			return accepted(t.CancelByInstrument(ctx, id))
		},
		read: resultText, refresh: tradeKinds, followUp: checkCancel,
	}
}

// cancelAllAction cancels every open order on the account, confirmed.
func cancelAllAction(title, what string, lines []string) *action {
	return &action{
		kind: actCancelAll, confirm: true, title: title, what: what, lines: lines,
		run: func(ctx context.Context, t api.Trader) (api.TxResponse, error) {
			return accepted(t.CancelAll(ctx))
		},
		read: resultText, refresh: tradeKinds, followUp: checkCancel,
	}
}

// cancelFailure is why a cancel did not clearly succeed ("" when it did).
func cancelFailure(d actionDoneMsg) string {
	if d.err != nil {
		return kit.PlainError(d.err)
	}
	if d.act.kind == actCancel {
		if out := state.CancelOutcome(d.resp); out.Failed() {
			return out.Reason
		}
	}
	return ""
}

// checkCancel follows up a cancel that failed or whose answer was lost: it asks the exchange what
// is still open and says so (see cancelCheckText). It returns no command for a clear success.
func checkCancel(ex api.Exchange, d actionDoneMsg, timeout time.Duration) (tea.Cmd, string) {
	why := cancelFailure(d)
	if why == "" {
		return nil, ""
	}
	return cancelCheck(ex, d, why, timeout), d.act.what + ": " + why + ": checking what is still open…"
}

// cancelCheckedMsg is what a cancel's check found, in words.
type cancelCheckedMsg struct {
	act   *action
	text  string
	level kit.NoticeLevel
}

func (c cancelCheckedMsg) settled() (*action, string, kit.NoticeLevel) { return c.act, c.text, c.level }

// cancelCheck reads the account's open orders (and, for one order gone, its state in the first
// page of history) and returns the status line's words as a cancelCheckedMsg.
func cancelCheck(ex api.Exchange, d actionDoneMsg, why string, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 2*timeout)
		defer cancel()
		open, err := api.AllPages(ctx, func(ctx context.Context, p api.PageParams) (api.Page[api.OrderRecord], error) {
			return ex.OpenOrders(ctx, ex.Address(), p)
		}, 0, nil)
		gone := ""
		if err == nil && d.act.kind == actCancel && !holds(open, d.act.cancel.Oid) {
			gone = "no longer open"
			if pg, herr := ex.OrderHistory(ctx, ex.Address(), api.PageParams{Page: 1}); herr == nil {
				for _, o := range pg.Data {
					if o.OrderID == d.act.cancel.Oid {
						gone = "already " + o.State
						break
					}
				}
			}
		}
		text, level := cancelCheckText(d.act, why, open, gone, err)
		return cancelCheckedMsg{act: d.act, text: text, level: level}
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
func cancelCheckText(a *action, why string, open []api.OrderRecord, gone string, err error) (string, kit.NoticeLevel) {
	if err != nil {
		return fmt.Sprintf("%s: %s; could not check what is still open (%s): cancelling again is safe", a.what, why, kit.PlainError(err)), kit.LevelError
	}
	switch a.kind {
	case actCancel:
		if gone != "" {
			return fmt.Sprintf("order %d is %s at the exchange: nothing left to cancel", a.cancel.Oid, gone), kit.LevelInfo
		}
		return fmt.Sprintf("%s failed (%s): order %d is still open; cancelling again is safe", a.what, why, a.cancel.Oid), kit.LevelError
	case actCancelInstrument:
		n := 0
		for _, o := range open {
			if o.InstrumentID == a.instrument {
				n++
			}
		}
		if n == 0 {
			return a.what + ": no open orders left on the instrument", kit.LevelInfo
		}
		return fmt.Sprintf("%s failed (%s): %d order(s) still open on the instrument; cancelling again is safe", a.what, why, n), kit.LevelError
	}
	if len(open) == 0 {
		return a.what + ": no open orders left at the exchange", kit.LevelInfo
	}
	return fmt.Sprintf("%s failed (%s): %d order(s) still open; cancelling again is safe", a.what, why, len(open)), kit.LevelError
}
