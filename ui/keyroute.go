package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/ui/common"
)

// routeKey sends a key to the first that takes it: Ctrl+C's backing out, an open dialog, the
// command line, the messages or help view, the kill switch, a focused text input, the global
// bindings, then the focused pane.
func (m *Model) routeKey(msg tea.KeyMsg) tea.Cmd {
	if msg.Type == tea.KeyCtrlC {
		return m.ctrlC()
	}
	if cmd, ok := m.modalKey(msg); ok {
		return cmd
	}
	pane := m.slots[m.focus].pane
	if key.Matches(msg, m.keys.KillSwitch) { // before a text input: it works while typing
		return m.killSwitch()
	}
	if takesKey(pane, msg, m.keys) {
		return pane.Update(msg)
	}
	if cmd, ok := m.globalKey(msg); ok {
		return cmd
	}
	for i := range min(len(m.slots), len(m.keys.FocusPane)) {
		if key.Matches(msg, m.keys.FocusPane[i]) {
			m.setFocus(i)
			return nil
		}
	}
	return pane.Update(msg)
}

// ctrlC closes what is open on top (a reflex to back out must not quit with an order on
// screen); with nothing open it quits.
func (m *Model) ctrlC() tea.Cmd {
	switch {
	case m.dialog != nil:
		return m.dialog.Close()
	case m.lev != nil:
		m.lev = nil
	case m.cmdline.Active():
		m.cmdline.Close()
	case m.showHelp || m.showMessages:
		m.showHelp, m.showMessages = false, false
	default:
		return tea.Quit
	}
	m.footerDirty = true
	return nil
}

// modalKey gives the key to what is open on top of the panes, if anything is: it takes every key.
func (m *Model) modalKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	switch {
	case m.dialog != nil:
		m.footerDirty = true
		return m.dialog.Update(msg), true
	case m.lev != nil:
		return m.lev.Update(msg), true
	case m.cmdline.Active():
		if key.Matches(msg, m.keys.KillSwitch) { // it works anywhere, the command line too
			m.cmdline.Close()
			return m.killSwitch(), true
		}
		m.footerDirty = true
		return m.cmdline.Update(msg, m.c.Instrument(), m.c.Guard), true
	case m.alerts.Active():
		return m.alerts.Key(msg), true
	case m.showMessages:
		m.messagesKey(msg)
		return nil, true
	case m.showHelp:
		m.helpKey(msg)
		return nil, true
	}
	return nil, false
}

// messagesKey scrolls or closes the messages view.
func (m *Model) messagesKey(msg tea.KeyMsg) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Messages, k.Dismiss, k.Quit):
		m.showMessages = false
		m.footerDirty = true
	case key.Matches(msg, k.Up):
		m.msgs.Scroll(-1)
		m.renderMessages()
	case key.Matches(msg, k.Down):
		m.msgs.Scroll(1)
		m.renderMessages()
	}
}

// helpKey scrolls or closes the help overlay.
func (m *Model) helpKey(msg tea.KeyMsg) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Help, k.Dismiss, k.Quit):
		m.showHelp = false
		m.footerDirty = true
	case key.Matches(msg, k.Up):
		m.helpScroll--
		m.renderHelp()
	case key.Matches(msg, k.Down):
		m.helpScroll++
		m.renderHelp()
	}
}

// takesKey says whether the focused pane takes the key before the global bindings: a text input
// takes what it types; in a form, Tab moves between its fields (on a choice or button too); in a
// lone field, Tab leaves it.
func takesKey(pane common.Pane, msg tea.KeyMsg, k *common.KeyMap) bool {
	tab := key.Matches(msg, k.NextPane, k.PrevPane)
	if capturing(pane) && !freshPass(pane, msg, k) && (inForm(pane) || !tab) {
		return true
	}
	return inForm(pane) && tab
}

// globalKey runs the bindings that work from every pane.
func (m *Model) globalKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	k := m.keys
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit(msg), true
	case key.Matches(msg, k.CommandLine):
		m.cmdline.Open()
	case key.Matches(msg, k.Messages):
		m.showMessages = true
		m.msgs.Scroll(0)
		m.footerDirty = true
		m.renderMessages()
	case key.Matches(msg, k.Help):
		m.showHelp = true
		m.helpScroll = 0
		m.footerDirty = true
		m.renderHelp()
	case key.Matches(msg, k.NextPane):
		m.setFocus((m.focus + 1) % len(m.slots))
	case key.Matches(msg, k.PrevPane):
		m.setFocus((m.focus - 1 + len(m.slots)) % len(m.slots))
	case key.Matches(msg, k.Refresh):
		m.setNotice(common.LevelInfo, "refreshing")
		return common.Tea(m.feed.RefreshAll()), true // the panes' own lists too (fills, history), not only the root's polls
	default:
		return nil, false
	}
	return nil, true
}

// quit quits, unless an action is still out and this is the first press: leaving then would
// leave its outcome unseen.
func (m *Model) quit(msg tea.KeyMsg) tea.Cmd {
	if m.pipe.open > 0 && !m.quitArmed {
		m.quitArmed = true
		m.setNotice(common.LevelWarn, "an action is still out: wait for its result, or press "+msg.String()+" again to quit anyway")
		return nil
	}
	return tea.Quit
}
