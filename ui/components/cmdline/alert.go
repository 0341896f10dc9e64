package cmdline

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/alert"
	"github.com/tradedesk/tradedesk/ui/common"
)

// AlertMsg asks the root to add the alert rule Rule (`:alert btc > 100000`).
type AlertMsg struct{ Rule string }

// AlertsMsg asks the root to show the Alerts view (`:alerts`).
type AlertsMsg struct{}

// alertLine reads a line that is an alert command: "alert RULE" (rule) or "alerts" (list).
func alertLine(line string) (rule string, list, ok bool) {
	word, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	switch strings.ToLower(word) {
	case "alerts":
		return "", true, strings.TrimSpace(rest) == ""
	case "alert":
		return strings.TrimSpace(rest), false, true
	}
	return "", false, false
}

// checkAlert is check's reading of an alert line: what Enter does, or why it would refuse.
func (m *Model) checkAlert(line string) bool {
	rule, list, ok := alertLine(line)
	if !ok {
		return false
	}
	if list {
		m.live = "✓ " + m.enterKey() + " shows the alerts"
		return true
	}
	r, err := alert.Parse(rule)
	if err != nil {
		m.live = "… " + text.Clean(text.HideKeys(err.Error()))
		return true
	}
	m.live = "✓ " + m.enterKey() + " sets alert " + text.Clean(r.Canon())
	return true
}

// enterAlert is enter's handling of an alert line.
func (m *Model) enterAlert(line string) (tea.Cmd, bool) {
	rule, list, ok := alertLine(line)
	switch {
	case !ok:
		return nil, false
	case list:
		return func() tea.Msg { return AlertsMsg{} }, true
	}
	if _, err := alert.Parse(rule); err != nil {
		return m.refuse(err), true
	}
	return func() tea.Msg { return AlertMsg{Rule: rule} }, true
}

func (m *Model) enterKey() string { return common.KeyName(m.keys.TextSubmit) }

// The alert commands' grammar, shown while one is typed.
func init() {
	verbUsage["alert"] = "alert RULE: btc > 100000 · btc last < 90000 · btc move > 2% in 5m · eth liq < 5% · margin > 80% · " +
		"btc funding > 0.01% · funding payment > 5 · fills · cancel · trigger · stream down > 30s [once] [rearm 0.5%] [cooldown 2m]"
	verbUsage["alerts"] = "alerts: the Alerts view (list, delete, edit)"
}
