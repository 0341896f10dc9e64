package brokers

import (
	"context"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/send"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/transfer"
)

// newBrokerAction is a broker fee approval (rate a fraction such as "0.001") or, with rate "0",
// its withdrawal: confirmed with the broker's full address, sent through the pipeline, and the
// approvals read again once it settles.
func newBrokerAction(broker, rate string, st *common.Styles) *action.Action {
	title, what := "Approve broker", "approve broker "+common.ShortAddr(broker)+" up to "+state.FeeRateText(rate)
	lines := []string{
		st.Bold.On("APPROVE A BROKER"), "",
		"Broker       ", "  " + broker, "",
		"Max fee rate " + state.FeeRateText(rate) + " of each order it places for you",
		st.Warn.On("! the broker may add fees up to this rate to orders it places on this account"),
	}
	if rate == "0" {
		title, what = "Revoke broker approval", "revoke broker "+common.ShortAddr(broker)
		lines = []string{st.Bold.On("REVOKE A BROKER'S APPROVAL"), "", "Broker       ", "  " + broker, "",
			"The broker can no longer charge fees on this account's orders."}
	}
	return &action.Action{Kind: action.KindControl, Title: title, Lines: lines, What: what, Confirm: true,
		Direct: func(ctx context.Context, t api.Trader) (api.TxResponse, error) {
			ctl, ok := t.(api.Control)
			if !ok {
				return api.TxResponse{}, errNoControl
			}
			return ctl.ApproveBrokerFee(ctx, broker, rate)
		},
		DoKind: send.ActBroker, Read: action.ControlRead, Refresh: []state.Kind{state.KindBrokers},
	}
}

type controlErr string

func (e controlErr) Error() string { return string(e) }

var errNoControl = controlErr("this exchange client cannot approve brokers")

// brokerKey handles the Brokers view's keys: a opens an empty approval line (broker address and
// rate; a broker approved already gets the new rate),
// x asks to revoke the selected approval. It reports whether it took the key.
func (p *Pane) brokerKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := p.Keys
	switch {
	case key.Matches(msg, k.BrokerApprove):
		if p.ReadOnly != "" || p.ex.IsAgent() {
			return p.cannot("approve a broker"), true
		}
		p.editing = true
		p.input.SetValue("")
		p.input.Focus()
		p.note = ""
		return nil, true
	case key.Matches(msg, k.BrokerRevoke):
		b, ok := p.selected()
		if !ok && p.Tbl.Lost() {
			return common.Notice(common.LevelWarn, "no approval selected: the one you were on is gone; move to pick one"), true
		}
		if !ok {
			return nil, true
		}
		if p.ReadOnly != "" || p.ex.IsAgent() {
			return p.cannot("revoke a broker"), true
		}
		return action.Request(newBrokerAction(b.Broker, "0", p.Styles)), true
	}
	if cmd := transfer.OpenKey(k, msg); cmd != nil { // t and w work in every view of the Funds group
		return cmd, true
	}
	return nil, false
}

func (p *Pane) cannot(what string) tea.Cmd {
	if p.ReadOnly != "" {
		return common.ReadOnlyNotice(p.ReadOnly, what)
	}
	return common.Notice(common.LevelWarn, "cannot "+what+" with an agent key: it needs the account's own key")
}

func (p *Pane) selected() (api.BrokerApproval, bool) {
	i := p.Tbl.Selected()
	if i < 0 || i >= len(p.rows) {
		return api.BrokerApproval{}, false
	}
	return p.rows[i], true
}

// editKey handles a key while the approval line is open: Enter checks "0xBROKER RATE" and asks
// for confirmation, Esc closes it.
func (p *Pane) editKey(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, p.Keys.Dismiss):
		p.editing, p.note = false, ""
		p.input.Blur()
		return nil
	case key.Matches(msg, p.Keys.TextSubmit):
		broker, rate, err := parseApproval(p.input.Value())
		if err != "" {
			p.note = err
			return nil
		}
		p.editing, p.note = false, ""
		p.input.Blur()
		return action.Request(newBrokerAction(broker, rate, p.Styles))
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	return cmd
}

// parseApproval reads "0xBROKER RATE" (rate a fraction or a percent, at most 1%).
func parseApproval(s string) (broker, rate, problem string) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return "", "", "type the broker's address and its max fee rate, e.g. 0x… 0.1%"
	}
	b, err := api.ChecksumAddress(f[0])
	if err != nil {
		return "", "", "broker address: " + err.Error()
	}
	r, err := state.ParseFeeRate(f[1])
	if err != nil {
		return "", "", "max fee rate: " + err.Error()
	}
	return b, r, ""
}
