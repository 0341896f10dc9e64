package ui

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui/kit"
)

// lookupDoneMsg is the result of looking an order up by its client id after its answer was lost.
type lookupDoneMsg struct {
	act   *action
	found *api.OrderRecord
	err   error
}

// lookupAttempts is how many times a lookup is tried before the trader is asked to check by
// hand; lookupWait is the pause after the first failed try, doubled after each one. Faults that
// lost the answer often hit the lookup too: a few tries resolve nearly all of them.
const lookupAttempts = 4

var lookupWait = 250 * time.Millisecond

// lookupCloid finds an order by client id in open orders, then in recent order history, trying
// again after a failure. It never sends the order again: whether the lost request was acted on is
// what it finds out.
func lookupCloid(ex api.Exchange, a *action, timeout time.Duration) tea.Cmd {
	cloid := a.order.Wire.Cloid
	return func() tea.Msg {
		var err error
		wait := lookupWait
		for try := range lookupAttempts {
			if try > 0 {
				time.Sleep(wait)
				wait *= 2
			}
			var found *api.OrderRecord
			if found, err = findCloid(ex, cloid, timeout); err == nil {
				return lookupDoneMsg{act: a, found: found}
			}
			slog.Warn("order lookup failed", "cloid", cloid, "try", try+1, "err", err)
		}
		return lookupDoneMsg{act: a, err: err}
	}
}

// findCloid looks cloid up once with api.FindCloid, the lookup every front end shares. It
// returns nil when the exchange has no such order.
func findCloid(ex api.Exchange, cloid string, timeout time.Duration) (*api.OrderRecord, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*timeout)
	defer cancel()
	return api.FindCloid(ctx, ex, ex.Address(), cloid)
}

// lookupLostOrder follows up an order whose answer was lost: it is looked up by its client id,
// never sent again blindly, and the order form stays locked until the lookup says what happened.
func lookupLostOrder(ex api.Exchange, d actionDoneMsg, timeout time.Duration) (tea.Cmd, string) {
	if !api.IsAmbiguous(d.err) {
		return nil, ""
	}
	cloid := d.act.order.Wire.Cloid
	slog.Warn("order answer lost", "what", d.act.what, "cloid", cloid, "err", d.err)
	return lookupCloid(ex, d.act, timeout), "no answer for " + d.act.what + ": looking up client id " + cloid + " before anything is sent again…"
}

// settled says what the lookup found.
func (msg lookupDoneMsg) settled() (*action, string, kit.NoticeLevel) {
	cloid := msg.act.order.Wire.Cloid
	slog.Info("order lookup", "cloid", cloid, "found", msg.found != nil, "err", msg.err)
	switch {
	case msg.err != nil:
		return msg.act, fmt.Sprintf("answer lost and the lookup failed %d times (%s): check open orders and history for client id %s before sending again", lookupAttempts, kit.PlainError(msg.err), cloid), kit.LevelError
	case msg.found != nil:
		return msg.act, fmt.Sprintf("answer lost, but the exchange has it: order %d (%s) is %s", msg.found.OrderID, msg.act.what, msg.found.State), kit.LevelWarn
	}
	return msg.act, "answer lost and client id " + cloid + " is not at the exchange: " + msg.act.what + " was NOT placed; review and send it again if you still want it", kit.LevelWarn
}
