package action

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// FillsWait bounds how long a placed order's fills are waited for after its answer; FillsEvery is
// how often they are asked for meanwhile.
var (
	FillsWait  = 3 * time.Second
	FillsEvery = 150 * time.Millisecond
)

// FillsDoneMsg is what a placed order's fills say it did: its outcome with the fills' size,
// average and fees (Fee is valid when its fills were found).
type FillsDoneMsg struct {
	Act     *Action
	Outcome state.Outcome
	Fee     api.OptDecimal
}

// orderFollowUp follows a placed order up: a lost answer is looked up by cloid; an answer that
// names an order that may have traded is followed by its fills, so the status line says what
// filled, at what average, for what fees, and what became of the rest.
func orderFollowUp(ex api.Exchange, d DoneMsg, timeout time.Duration) (tea.Cmd, string) {
	if d.Err != nil {
		return lookupLostOrder(ex, d, timeout)
	}
	o := state.OrderOutcome(d.Resp, d.Act.Order.Size)
	if o.Kind == state.OutcomeSent {
		// An answer of unknown shape is not success: find out by cloid what became of the order.
		return lookupCloid(ex, d.Act, timeout), "the answer to " + d.Act.What + " could not be read: looking up client id " + d.Act.Order.Wire.Cloid + "…"
	}
	if o.Oid == 0 || o.Kind == state.OutcomeRejected || o.Kind == state.OutcomePlaced && o.Resting {
		return nil, ""
	}
	return lookupFills(ex, d.Act, o), ""
}

// lookupFills asks for the order's fills until they add up to what the answer says filled (or
// any appear, when it does not say), within FillsWait.
func lookupFills(ex api.Exchange, a *Action, o state.Outcome) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), FillsWait)
		defer cancel()
		for {
			fs, err := api.OrderFills(ctx, ex, ex.Address(), o.Oid)
			if t := state.SumFills(fs); err == nil && len(t) > 0 && t[0].Size.GreaterThanOrEqual(o.Filled) {
				o.Kind, o.Filled, o.AvgPrice = state.OutcomeFilled, t[0].Size, api.OptDecimal{Decimal: t[0].AvgPrice, Valid: true}
				return FillsDoneMsg{Act: a, Outcome: o, Fee: api.OptDecimal{Decimal: t[0].Fee, Valid: true}}
			}
			select {
			case <-ctx.Done():
				return FillsDoneMsg{Act: a, Outcome: o}
			case <-time.After(FillsEvery):
			}
		}
	}
}

// Settled implements FollowUpMsg.
func (msg FillsDoneMsg) Settled() (*Action, string, common.NoticeLevel) {
	text, failed := orderOutcomeText(msg.Outcome, msg.Act)
	if msg.Fee.Valid {
		text += ", fee " + state.FormatUSDFee(msg.Fee.Decimal) + " USD"
	}
	if failed {
		return msg.Act, text, common.LevelError
	}
	return msg.Act, text, common.LevelInfo
}
