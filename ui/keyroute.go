package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/ui/common"
)

// routeKey sends a key to the first that takes it: the top modal (Ctrl+C closes it), else the
// kill switch, else a focused text input, else the global bindings, else the focused pane.
func (m *Model) routeKey(msg tea.KeyMsg) tea.Cmd {
	if top := m.modals.Top(); top != nil {
		return m.modalKey(top, msg)
	}
	if msg.Type == tea.KeyCtrlC {
		return tea.Quit
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
	if cmd, ok := m.sendLiveKey(pane, msg); ok {
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

// sendLiveKey is the send_live key of a shadow console (live.Sender.Key): on the open orders
// pane and the Algos view; elsewhere it is not taken.
func (m *Model) sendLiveKey(pane common.Pane, msg tea.KeyMsg) (tea.Cmd, bool) {
	if m.status.mode != ModeShadow || !key.Matches(msg, m.keys.SendLive) {
		return nil, false
	}
	s, ok := m.liveSender().Key(pane)
	if !ok {
		return nil, false
	}
	return m.sendLive(s), true
}

// modalKey gives the key to the top modal; Ctrl+C closes it (a reflex to back out must not quit
// with an order on screen), or quits when it leaves Ctrl+C alone.
func (m *Model) modalKey(top common.Modal, msg tea.KeyMsg) tea.Cmd {
	if msg.Type != tea.KeyCtrlC {
		return top.Key(msg)
	}
	if cmd, ok := top.Close(); ok {
		m.footerDirty = true
		return cmd
	}
	return tea.Quit
}

// lineKey is the open command line's key; the kill switch works there too.
func (m *Model) lineKey(msg tea.KeyMsg) tea.Cmd {
	if key.Matches(msg, m.keys.KillSwitch) {
		m.cmdline.Close()
		return m.killSwitch()
	}
	m.footerDirty = true
	return m.cmdline.Update(msg, m.c.Instrument(), m.c.Guard)
}

// messagesKey scrolls or closes the messages view.
func (m *Model) messagesKey(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Messages, k.Dismiss, k.Quit):
		m.msgs.Close()
		m.footerDirty = true
	case key.Matches(msg, k.Up):
		m.msgs.Scroll(-1)
		m.renderMessages()
	case key.Matches(msg, k.Down):
		m.msgs.Scroll(1)
		m.renderMessages()
	}
	return nil
}

// helpKey scrolls or closes the help overlay.
func (m *Model) helpKey(msg tea.KeyMsg) tea.Cmd {
	if m.helpBox.Key(msg) {
		m.footerDirty = true
	}
	return nil
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
		m.modals.Push(m.modal.line)
	case key.Matches(msg, k.Messages):
		m.msgs.Open()
		m.modals.Push(m.modal.messages)
		m.footerDirty = true
		m.renderMessages()
	case key.Matches(msg, k.Help):
		m.modals.Push(m.modal.help)
		m.footerDirty = true
		m.helpBox.Open(m.helpValues())
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
