// Package vaults is the Vaults view (issue #42): the account's shares in each vault as its
// account summary's vault_balances gives them (shares held, the vault's total, their worth), a
// deposit into a vault (t: the vault's address and a USD amount of derivative collateral) and a
// redeem from the selected one (w: shares, all of them offered), each through the console's
// confirmation and executor as a transfer is.
package vaults

import (
	"context"
	"sort"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Trader is what sends the vault actions (*api.Client is one).
type Trader interface {
	DepositToVault(ctx context.Context, vault, amount string) (api.TxResponse, error)
	RedeemFromVault(ctx context.Context, vault, shares string) (api.TxResponse, error)
}

// View is the Vaults view over the panes: it takes every key while open.
type View struct {
	st      *common.Styles
	keys    *common.KeyMap
	account func() api.AccountSummary
	profile string // the profile it belongs to ("": none), named in its title and confirmations
	cursor  int
	input   textinput.Model
	typing  string // "deposit" or "redeem" while a line is typed
	problem string
}

// New is the Vaults view of the account account returns (its store's summary, kept current by
// the account's polls and stream).
func New(st *common.Styles, keys *common.KeyMap, account func() api.AccountSummary, profile string) *View {
	in := textinput.New()
	in.Prompt = "> "
	in.CharLimit = 80
	return &View{st: st, keys: keys, account: account, profile: profile, input: in}
}

// Row is one vault the account holds shares of.
type Row struct {
	Vault string
	api.VaultBalance
}

// Rows are the account's vaults, by address.
func (v *View) Rows() []Row {
	var out []Row
	for addr, b := range v.account().VaultBalances {
		out = append(out, Row{Vault: addr, VaultBalance: b})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Vault < out[j].Vault })
	return out
}

// Update implements the console's sheet: the view reads the store when drawn.
func (v *View) Update(tea.Msg) tea.Cmd { return nil }

// Key handles a key; closed says the view is done (closed, or a deposit or redeem asked for).
func (v *View) Key(msg tea.KeyMsg) (tea.Cmd, bool) {
	if v.typing != "" {
		cmd := v.typedKey(msg)
		return cmd, cmd != nil // a checked line closes the view: its confirmation takes over
	}
	rows := v.Rows()
	switch {
	case key.Matches(msg, v.keys.Dismiss, v.keys.Quit):
		return nil, true
	case key.Matches(msg, v.keys.Up):
		v.cursor = max(v.cursor-1, 0)
	case key.Matches(msg, v.keys.Down):
		v.cursor = min(v.cursor+1, max(len(rows)-1, 0))
	case key.Matches(msg, v.keys.Transfer):
		v.start("deposit", "")
	case key.Matches(msg, v.keys.Withdraw):
		if len(rows) == 0 {
			v.problem = "no vault shares to redeem"
			return nil, false
		}
		v.start("redeem", rows[min(v.cursor, len(rows)-1)].WithdrawableShares.String())
	}
	return nil, false
}

func (v *View) start(what, value string) {
	v.typing, v.problem = what, ""
	v.input.SetValue(value)
	v.input.CursorEnd()
	v.input.Focus()
}

// typedKey edits the typed line; Enter checks it and asks for the action's confirmation.
func (v *View) typedKey(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, v.keys.Dismiss):
		v.typing, v.problem = "", ""
		v.input.Blur()
		return nil
	case key.Matches(msg, v.keys.TextSubmit):
		a, err := v.build()
		if err != nil {
			v.problem = err.Error()
			return nil
		}
		v.typing, v.problem = "", ""
		v.input.Blur()
		return action.Request(a)
	}
	v.input, _ = v.input.Update(msg)
	return nil
}
