package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/feed"
)

// This file is the plumbing of the panes that run their own requests (fills, order history,
// chart, instrument details, brokers), alone or inside a pane group (common.Group). Each registers
// a feed.Task in its constructor (paneTask) and starts it on startPanesMsg; the feed runs it beside
// the root's polls, and its replies reach the store through the root's onFeed like theirs.

// paneMsg is a message of those panes; the root model hands every one to onPaneMsg.
type paneMsg interface{ isPaneMsg() }

// startPanesMsg starts the panes' own polls; Init sends it once.
type startPanesMsg struct{}

// refreshKindsMsg asks the root to poll kinds it owns now (the account after a transfer).
type refreshKindsMsg struct{ kinds []state.Kind }

func (startPanesMsg) isPaneMsg()   {}
func (refreshKindsMsg) isPaneMsg() {}

// startPanes is Init's command that starts the panes' own polls.
func startPanes() tea.Msg { return startPanesMsg{} }

// onPaneMsg refreshes on request, and hands anything else (exports, pane-to-pane requests) to
// every pane.
func (m *Model) onPaneMsg(msg paneMsg) tea.Cmd {
	if msg, ok := msg.(refreshKindsMsg); ok {
		return m.refreshNow(msg.kinds...)
	}
	return m.broadcast(msg)
}

// paneTimeout bounds a pane's own request; paneMaxBackoff caps its wait after failures.
const (
	paneTimeout    = 10 * time.Second
	paneMaxBackoff = 2 * time.Minute
)

// paneTask registers a pane's own requests of kind with the feed: periodic builds the request for
// what the pane shows now (nil: nothing to poll now), every the wait before the next.
func paneTask(c *common.Common, kind state.Kind, every func() time.Duration, periodic func() feed.Request) *feed.Task {
	return c.Feed.Add(feed.Spec{Kind: kind, Every: every, Request: periodic, Timeout: paneTimeout, MaxBackoff: paneMaxBackoff})
}
