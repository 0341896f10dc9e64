package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// This file is the plumbing of the panes that run their own requests (fills, order history,
// chart, instrument details, brokers), alone or inside a pane group (common.Group). Each registers
// a feed.Task in its constructor (common.PaneTask) and starts it on common.StartPanesMsg; the feed runs it beside
// the root's polls, and its replies reach the store through the root's onFeed like theirs.

// paneMsg is a message of those panes; the root model hands every one to onPaneMsg.
type paneMsg interface{ isPaneMsg() }

// refreshKindsMsg asks the root to poll kinds it owns now (the account after a transfer).
type refreshKindsMsg struct{ kinds []state.Kind }

func (refreshKindsMsg) isPaneMsg() {}

// startPanes is Init's command that starts the panes' own polls.
func startPanes() tea.Msg { return common.StartPanesMsg{} }

// onPaneMsg refreshes on request, and hands anything else (exports, pane-to-pane requests) to
// every pane.
func (m *Model) onPaneMsg(msg paneMsg) tea.Cmd {
	if msg, ok := msg.(refreshKindsMsg); ok {
		return m.refreshNow(msg.kinds...)
	}
	return m.broadcast(msg)
}
