package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/help"
	"github.com/tradedesk/tradedesk/ui/dialogs/confirm"
)

// globalHelp are the keys that work everywhere.
func (m *Model) globalHelp() []key.Binding {
	k := m.keys
	focus := k.FocusPane[0]
	last := k.FocusPane[min(len(m.slots), len(k.FocusPane))-1]
	focus.SetHelp(common.KeyName(focus)+"-"+common.KeyName(last), "focus pane")
	return []key.Binding{k.NextPane, k.PrevPane, focus, k.CommandLine, k.Refresh, k.KillSwitch, k.Messages, k.Help, k.Quit}
}

// footerView is the focused pane's short help and the global keys; it is rebuilt after a key or
// a resize only.
func (m *Model) footerView() string {
	if !m.footerDirty {
		return m.footer
	}
	m.footerDirty = false
	var keys []key.Binding
	switch {
	case m.confirmation() != nil:
		keys = m.dialogKeys(m.confirmation())
	case m.leverageDialog() != nil:
		keys = []key.Binding{m.keys.Confirm, m.keys.Dismiss}
	case m.msgs.Shown():
		keys = []key.Binding{m.keys.Dismiss}
		if common.Scrolls(m.messagesView) {
			keys = append(keys, common.ScrollKeys(m.keys))
		}
	case m.helpBox.Shown():
		keys = []key.Binding{m.keys.Dismiss}
		if common.Scrolls(m.helpBox.View()) {
			keys = append(keys, common.ScrollKeys(m.keys))
		}
	case m.capturing() && inForm(m.slots[m.focus].pane):
		// In a form only the form's keys work: Tab moves between its fields, Esc leaves it (the
		// form's own hints say so first).
		keys = m.slots[m.focus].pane.ShortHelp()
	case inForm(m.slots[m.focus].pane):
		// On a form's choice or button Tab still moves between the fields; ? and q work there.
		keys = append(m.slots[m.focus].pane.ShortHelp(), m.keys.Help, m.keys.Quit)
	case m.capturing():
		// Inside a text field only the field's keys work: q, ? and the pane's letters are typed.
		keys = append(m.slots[m.focus].pane.ShortHelp(), common.LeaveField(m.keys), m.keys.NextPane)
	default:
		k := m.keys
		keys = append(m.slots[m.focus].pane.ShortHelp(), k.NextPane, k.Help, k.Quit)
	}
	m.footer = m.helpBox.Footer(keys, m.width)
	return m.footer
}

// capturing reports whether the focused pane has a text field taking the keys.
func (m *Model) capturing() bool {
	c, ok := m.slots[m.focus].pane.(common.InputCapturer)
	return ok && c.Capturing()
}

// capturing reports whether p's text input takes every key first.
func capturing(p common.Pane) bool {
	c, ok := p.(common.InputCapturer)
	return ok && c.Capturing()
}

// freshPass reports whether msg is a key that acts globally in a form entered by its pane's
// number and not yet typed into (common.FreshForm): a pane number, help, messages, command line.
func freshPass(p common.Pane, msg tea.KeyMsg, k *common.KeyMap) bool {
	f, ok := p.(common.FreshForm)
	if !ok || !f.Fresh() {
		return false
	}
	if key.Matches(msg, k.Help, k.Messages, k.CommandLine) {
		return true
	}
	for _, b := range k.FocusPane {
		if key.Matches(msg, b) {
			return true
		}
	}
	return false
}

// inForm reports whether the trader is in p's form (it takes Tab to move between its fields).
func inForm(p common.Pane) bool {
	f, ok := p.(common.FormHolder)
	return ok && f.InForm()
}

// dialogKeys are the keys of the open confirmation: Enter, or the word to type first; Esc; and
// the scroll keys when its lines do not all fit.
func (m *Model) dialogKeys(d *confirm.Dialog) []key.Binding {
	confirmKey := m.keys.Confirm
	if w := d.Action().Typed; w != "" {
		confirmKey.SetHelp("type "+w+" + "+confirmKey.Help().Key, "confirm")
	}
	keys := []key.Binding{confirmKey, m.keys.Dismiss}
	if d.Scrolls() {
		keys = append(keys, common.ScrollKeys(m.keys))
	}
	return keys
}

// renderHelp draws the `?` overlay (help.Model) of the global keys and the focused pane's.
func (m *Model) renderHelp() { m.helpBox.Render(m.helpValues()) }

// helpValues are what the help overlay shows now.
func (m *Model) helpValues() help.Values {
	// The overlay also names the profiles key; the footer has no room for it.
	profiles := m.keys.Profiles
	profiles.SetHelp(profiles.Help().Key, "profiles")
	global := append(m.globalHelp(), profiles)
	return help.Values{Title: m.slots[m.focus].pane.Title(), Global: global, Pane: m.slots[m.focus].pane.FullHelp(),
		ReadOnly: m.c.ReadOnly, Width: m.width, Height: m.height}
}
