package ui

import (
	"context"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
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
		m.setNotice(levelWarn, "kill switch: nothing cancelled: this console is read-only ("+m.c.ReadOnly+")")
		return nil
	}
	n := len(m.store.Orders())
	lines := []string{
		m.st.Bold.on(fmt.Sprintf("Cancel EVERY open order on every instrument (%d shown), trigger orders included.", n)),
		"Positions stay open: close them from the positions pane.",
		"Cancelling is safe to repeat.",
	}
	if f := m.store.Freshness(state.KindOrders); f.Stale || !f.Loaded() {
		lines = append(lines, m.st.Warn.on("! The open orders shown may be out of date: every order the exchange holds is cancelled."))
	}
	return m.onAction(&action{
		kind: actCancelAll, confirm: true, title: "KILL SWITCH", lines: lines,
		what: fmt.Sprintf("kill switch: cancel all %d open order(s)", n),
	})
}

// isCancel reports whether an action cancels orders.
func isCancel(k actionKind) bool {
	return k == actCancel || k == actCancelInstrument || k == actCancelAll
}

// cancelFailure is why a cancel did not clearly succeed ("" when it did).
func cancelFailure(d actionDoneMsg) string {
	if d.err != nil {
		return plainError(d.err)
	}
	if d.act.kind == actCancel {
		if sts, err := d.resp.CancelStatuses(); err == nil && len(sts) > 0 && !sts[0].OK {
			return sts[0].Error
		}
	}
	return ""
}

// checkCancel follows up a cancel that failed or whose answer was lost: it asks the exchange what
// is still open and says so (see cancelCheckText). It returns nil for any other result, which the
// caller shows as usual.
func (m *Model) checkCancel(d actionDoneMsg) tea.Cmd {
	if !isCancel(d.act.kind) {
		return nil
	}
	why := cancelFailure(d)
	if why == "" {
		return nil
	}
	m.setNotice(levelWarn, d.act.what+": "+why+": checking what is still open…")
	return tea.Batch(cancelCheck(m.ex, d, why, m.iv.Timeout), m.refreshNow(m.accountKinds()...))
}

// cancelCheck reads the account's open orders (and, for one order gone, its state in the first
// page of history) and returns the status line's words as a noticeMsg.
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
		return noticeMsg{Text: text, Level: level}
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
func cancelCheckText(a *action, why string, open []api.OrderRecord, gone string, err error) (string, noticeLevel) {
	if err != nil {
		return fmt.Sprintf("%s: %s; could not check what is still open (%s): cancelling again is safe", a.what, why, plainError(err)), levelError
	}
	switch a.kind {
	case actCancel:
		if gone != "" {
			return fmt.Sprintf("order %d is %s at the exchange: nothing left to cancel", a.cancel.Oid, gone), levelInfo
		}
		return fmt.Sprintf("%s failed (%s): order %d is still open; cancelling again is safe", a.what, why, a.cancel.Oid), levelError
	case actCancelInstrument:
		n := 0
		for _, o := range open {
			if o.InstrumentID == a.instrument {
				n++
			}
		}
		if n == 0 {
			return a.what + ": no open orders left on the instrument", levelInfo
		}
		return fmt.Sprintf("%s failed (%s): %d order(s) still open on the instrument; cancelling again is safe", a.what, why, n), levelError
	}
	if len(open) == 0 {
		return a.what + ": no open orders left at the exchange", levelInfo
	}
	return fmt.Sprintf("%s failed (%s): %d order(s) still open; cancelling again is safe", a.what, why, len(open)), levelError
}
