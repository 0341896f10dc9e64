package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/ui/common"
)

// This file is the plumbing of the panes that run their own requests (fills, order history,
// chart, instrument details, brokers), alone or inside a pane group (common.Group). Each registers
// a feed.Task in its constructor (common.PaneTask) and starts it on common.StartPanesMsg; the feed runs it beside
// the root's polls, and its replies reach the store through the root's onFeed like theirs.

// startPanes is Init's command that starts the panes' own polls.
func startPanes() tea.Msg { return common.StartPanesMsg{} }
