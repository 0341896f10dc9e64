package common

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state/feed"
)

// Tea is the Bubble Tea command of a feed command: the feed (state/feed) knows no Bubble Tea, so
// its commands and batches cross here. A feed.BatchMsg becomes a tea.BatchMsg of adapted
// commands, so the program runs each at once as tea.Batch does.
func Tea(c feed.Cmd) tea.Cmd {
	if c == nil {
		return nil
	}
	return func() tea.Msg { return teaMsg(c()) }
}

// teaMsg passes a command's message through, turning a feed batch into Bubble Tea's.
func teaMsg(m feed.Message) tea.Msg {
	b, ok := m.(feed.BatchMsg)
	if !ok {
		return m
	}
	out := make(tea.BatchMsg, len(b))
	for i, c := range b {
		out[i] = Tea(c)
	}
	return out
}
