package vaults

import (
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/ui/common"
)

// View draws the vaults, the typed line and its problem in at most w x h cells.
func (v *View) View(w, h int) string {
	st := v.st
	title := "VAULTS"
	if v.profile != "" {
		title += " · profile " + v.profile
	}
	head := []string{st.Bold.On(title), ""}
	var body []string
	rows := v.Rows()
	if len(rows) == 0 {
		body = append(body, st.Muted.On("no vault shares: "+common.KeyName(v.keys.Transfer)+" deposits into a vault by its address"))
	} else {
		body = append(body, st.Header.On(common.Pad("Vault", 44)+common.Fit("Shares", 16, true)+common.Fit("of total", 16, true)+common.Fit("Worth USD", 14, true)))
		for i, r := range rows {
			line := common.Pad(text.Clean(r.Vault), 44) + common.Fit(r.WithdrawableShares.String(), 16, true) +
				common.Fit(r.TotalShares.String(), 16, true) + common.Fit(common.FmtNum(r.Amount, 2), 14, true)
			if i == v.cursor {
				line = st.Selected.On(line)
			}
			body = append(body, line)
		}
	}
	foot := []string{""}
	switch v.typing {
	case "deposit":
		foot = append(foot, "Deposit: the vault's address and a USD amount (0xVAULT 100), "+common.KeyName(v.keys.TextSubmit)+" to review", v.input.View())
	case "redeem":
		foot = append(foot, "Redeem: shares of the selected vault, "+common.KeyName(v.keys.TextSubmit)+" to review", v.input.View())
	default:
		foot = append(foot, common.KeyName(v.keys.Transfer)+" deposit · "+common.KeyName(v.keys.Withdraw)+" redeem · "+common.KeyName(v.keys.Dismiss)+" close")
	}
	if v.problem != "" {
		foot = append(foot, st.Danger.On(v.problem))
	}
	scroll := 0
	return common.Box(st, v.keys, head, body, foot, w, h, &scroll)
}
