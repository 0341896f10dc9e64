package action

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui/common"
)

// LookupDoneMsg is the result of looking an order up by its client id after its answer was lost.
type LookupDoneMsg struct {
	Act   *Action
	Found *api.OrderRecord
	Err   error
}

// lookupAttempts is how many times a lookup is tried before the trader is asked to check by
// hand. Faults that lost the answer often hit the lookup too: a few tries resolve nearly all of
// them.
const lookupAttempts = 4

// LookupWait is the pause after a lookup's first failed try, doubled after each one.
var LookupWait = 250 * time.Millisecond

// retried runs try up to lookupAttempts times, pausing LookupWait (doubled each time) between
// failures, and returns its first success or its last error; what names the lookup in the log.
func retried[T any](what string, try func() (T, error)) (T, error) {
	var (
		out T
		err error
	)
	wait := LookupWait
	for n := range lookupAttempts {
		if n > 0 {
			time.Sleep(wait)
			wait *= 2
		}
		if out, err = try(); err == nil {
			return out, nil
		}
		slog.Warn("lookup failed", "what", what, "try", n+1, "err", err)
	}
	return out, err
}

// lookupCloid finds an order by client id in open orders, then in recent order history, trying
// again after a failure. It never sends the order again: whether the lost request was acted on is
// what it finds out.
func lookupCloid(ex api.Exchange, a *Action, timeout time.Duration) tea.Cmd {
	cloid := a.Order.Wire.Cloid
	return func() tea.Msg {
		found, err := retried("order "+cloid, func() (*api.OrderRecord, error) { return findCloid(ex, cloid, timeout) })
		if err != nil {
			return LookupDoneMsg{Act: a, Err: err}
		}
		return LookupDoneMsg{Act: a, Found: found}
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
func lookupLostOrder(ex api.Exchange, d DoneMsg, timeout time.Duration) (tea.Cmd, string) {
	if !api.IsAmbiguous(d.Err) {
		return nil, ""
	}
	cloid := d.Act.Order.Wire.Cloid
	slog.Warn("order answer lost", "what", d.Act.What, "cloid", cloid, "err", d.Err)
	return lookupCloid(ex, d.Act, timeout), "no answer for " + d.Act.What + ": looking up client id " + cloid + " before anything is sent again…"
}

// Settled says what the lookup found.
func (msg LookupDoneMsg) Settled() (*Action, string, common.NoticeLevel) {
	cloid := msg.Act.Order.Wire.Cloid
	slog.Info("order lookup", "cloid", cloid, "found", msg.Found != nil, "err", msg.Err)
	switch {
	case msg.Err != nil:
		return msg.Act, fmt.Sprintf("answer lost and the lookup failed %d times (%s): check open orders and history for client id %s before sending again", lookupAttempts, common.PlainError(msg.Err), cloid), common.LevelError
	case msg.Found != nil:
		return msg.Act, fmt.Sprintf("answer lost, but the exchange has it: order %d (%s) is %s", msg.Found.OrderID, msg.Act.What, msg.Found.State), common.LevelWarn
	}
	return msg.Act, "answer lost and client id " + cloid + " is not at the exchange: " + msg.Act.What + " was NOT placed; review and send it again if you still want it", common.LevelWarn
}
