package transfer

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state/funds"
	"github.com/tradedesk/tradedesk/ui/common"
)

// OpenMsg asks the transfer form to show itself with Op chosen, on the amount.
type OpenMsg struct{ Op funds.Op }

// OpenKey is what the transfer and withdraw keys open wherever the Funds group shows: t a move
// to the derivative side, w a withdrawal from the spot side (as `tradedesk withdraw` without
// --from: the idle balance, not the margin behind open positions); nil for another key.
func OpenKey(k *common.KeyMap, msg tea.KeyMsg) tea.Cmd {
	var op funds.Op
	switch {
	case key.Matches(msg, k.Transfer):
		op = funds.ToDerivative
	case key.Matches(msg, k.Withdraw):
		op = funds.SpotWithdraw
	default:
		return nil
	}
	return func() tea.Msg { return OpenMsg{Op: op} }
}

// AgentRefusal is why an agent key moves no collateral: every movement (a transfer, a move
// between the account's sides, a withdrawal) needs the account's own key.
const AgentRefusal = "cannot move collateral with an agent key: it only places and cancels orders; start with the account's own key (--keystore FILE) to move funds"

// refusal is why this console can send no movement ("" when it can): read-only, or an agent key.
// t and w say it at once rather than open a form whose Enter could only refuse.
func (p *Pane) refusal() string {
	switch {
	case p.ReadOnly != "":
		return "read-only: cannot move collateral (" + p.ReadOnly + ")"
	case p.ex.IsAgent():
		return AgentRefusal
	}
	return ""
}
