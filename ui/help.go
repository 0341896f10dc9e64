package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/tradedesk/tradedesk/ui/common"
)

func newHelp(st *common.Styles) help.Model {
	h := help.New()
	if st.Theme.NoColor {
		h.Styles = help.Styles{
			ShortKey: lipgloss.NewStyle().Bold(true), FullKey: lipgloss.NewStyle().Bold(true),
			ShortDesc: lipgloss.NewStyle(), FullDesc: lipgloss.NewStyle(),
			ShortSeparator: lipgloss.NewStyle(), FullSeparator: lipgloss.NewStyle(), Ellipsis: lipgloss.NewStyle(),
		}
		return h
	}
	t := st.Theme
	h.Styles.ShortKey = lipgloss.NewStyle().Foreground(t.Accent)
	h.Styles.FullKey = lipgloss.NewStyle().Foreground(t.Accent)
	h.Styles.ShortDesc = lipgloss.NewStyle().Foreground(t.Muted)
	h.Styles.FullDesc = lipgloss.NewStyle().Foreground(t.Text)
	h.Styles.ShortSeparator = lipgloss.NewStyle().Foreground(t.Border)
	h.Styles.FullSeparator = lipgloss.NewStyle().Foreground(t.Border)
	return h
}

// globalHelp are the keys that work everywhere.
func (m *Model) globalHelp() []key.Binding {
	k := m.keys
	focus := k.FocusPane[0]
	focus.SetHelp("1-"+string(rune('0'+min(len(m.slots), 9))), "focus pane")
	return []key.Binding{k.NextPane, k.PrevPane, focus, k.Refresh, k.KillSwitch, k.Help, k.Quit}
}

// footerView is the focused pane's short help and the global keys; it is rebuilt after a key or
// a resize only.
func (m *Model) footerView() string {
	if !m.footerDirty {
		return m.footer
	}
	m.footerDirty = false
	m.help.Width = m.width
	var keys []key.Binding
	switch {
	case m.dialog != nil || m.lev != nil:
		keys = []key.Binding{m.keys.Confirm, m.keys.Dismiss}
	case m.showHelp:
		keys = []key.Binding{m.keys.Dismiss}
	default:
		k := m.keys
		keys = append(m.slots[m.focus].pane.ShortHelp(), k.NextPane, k.Help, k.Quit)
	}
	m.footer = common.FitStyled(m.help.ShortHelpView(keys), m.width)
	return m.footer
}

// renderHelp draws the `?` overlay: the global keys and the focused pane's keys.
func (m *Model) renderHelp() {
	m.help.Width = max(m.width-6, 20)
	groups := [][]key.Binding{m.globalHelp()}
	groups = append(groups, m.slots[m.focus].pane.FullHelp()...)
	var b strings.Builder
	b.WriteString(m.st.Accent.On("Keys — " + m.slots[m.focus].pane.Title()))
	b.WriteString("\n\n")
	b.WriteString(m.help.FullHelpView(groups))
	b.WriteString("\n\n")
	b.WriteString(m.st.Muted.On("Tab moves between panes; a focused field takes every key first. ? or Esc closes."))
	if m.c.ReadOnly != "" {
		b.WriteString("\n" + m.st.Warn.On("Read-only: "+m.c.ReadOnly))
	}
	m.helpView = m.st.Dialog.Render(b.String())
}
