package ui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// The `:` command line (ui/components/cmdline): the root opens it, gives it every key while it is
// open, draws it in place of the status and footer lines, and sends what it asks through the
// pipeline (pipeline.go) like any pane's request.

// DefaultCommandHistory is the command line's history file in the user's state directory
// ($XDG_STATE_HOME/tradedesk/command_history, default ~/.local/state/...).
func DefaultCommandHistory() string { return cmdline.DefaultHistoryPath() }

// commandKey gives a key to the open command line: a command on the current instrument, checked
// with the console's fat-finger guard.
func (m *Model) commandKey(msg tea.KeyMsg) tea.Cmd {
	m.footerDirty = true
	return m.cmdline.Update(msg, m.c.Instrument(), m.c.Guard)
}
