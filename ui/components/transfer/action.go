package transfer

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/funds"
	"github.com/tradedesk/tradedesk/state/send"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

// The signed action a reviewed form sends, and its settling.

// review asks the pipeline to confirm and send the movement when the form passes every check.
func (p *Pane) review() tea.Cmd {
	p.tried = true
	p.check()
	if why := p.refusal(); why != "" {
		return common.Notice(common.LevelWarn, why)
	}
	if len(p.errs) > 0 {
		return common.Notice(common.LevelWarn, "not ready: "+p.errs[0].Msg)
	}
	if p.sending {
		return common.Notice(common.LevelWarn, action.BusyText[action.LaneFunds])
	}
	p.pending, p.sending = NewAction(p.checked), false
	return action.Request(p.pending)
}

// NewAction moves collateral (a transfer, a move between the account's sides, a
// withdrawal), confirmed with the whole movement, sent through the executor's journal (Do). A lost
// answer the transfer history does not settle is said, with the advice to check the balances
// before sending it again.
func NewAction(c funds.Checked) *action.Action {
	what := c.Op.String() + " of " + c.AmountText() + " " + c.Collateral.Symbol
	kind := send.ActTransfer
	if c.Op.Withdraws() {
		kind = send.ActWithdraw
	}
	return &action.Action{
		Kind: action.KindTransfer, Confirm: true, What: what,
		Title: "Confirm " + c.Op.String(), Lines: c.Confirm(),
		Lane: action.LaneFunds, Refresh: []state.Kind{state.KindAccount, state.KindTransfers},
		Direct: func(ctx context.Context, t api.Trader) (api.TxResponse, error) {
			return c.Send(ctx, t)
		},
		DoKind: kind,
		Read: func(d action.DoneMsg) (string, bool) {
			switch {
			case api.IsAmbiguous(d.Err):
				return what + ": no answer (" + common.PlainError(d.Err) + "): check the balances before sending it again", true
			case d.Err != nil:
				return what + " failed: " + common.PlainError(d.Err), true
			case d.Resp.TxHash != "":
				return what + " done: tx " + d.Resp.TxHash, false
			}
			return what + " done", false
		},
	}
}

// done shows the movement's result and clears the amount after a success.
func (p *Pane) done(msg action.SettledMsg) {
	p.pending, p.sending = nil, false
	p.dirty = true
	p.result, p.failed = msg.Text, msg.Failed
	if !msg.Failed {
		p.amount.SetValue("")
		p.tried = false
	}
	p.focusField()
	p.check()
}
