package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
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
	return []key.Binding{k.NextPane, k.PrevPane, focus, k.CommandLine, k.Refresh, k.KillSwitch, k.Messages, k.Help, k.Quit}
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
	case m.dialog != nil:
		keys = m.dialogKeys()
	case m.lev != nil:
		keys = []key.Binding{m.keys.Confirm, m.keys.Dismiss}
	case m.showMessages:
		keys = []key.Binding{m.keys.Dismiss}
		if common.Scrolls(m.messagesView) {
			keys = append(keys, common.ScrollKeys(m.keys))
		}
	case m.showHelp:
		keys = []key.Binding{m.keys.Dismiss}
		if common.Scrolls(m.helpView) {
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
	m.footer = common.FitStyled(m.help.ShortHelpView(dedupKeys(keys, nil)), m.width)
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

// helpTokens are the keys a binding's help names ("S-↑/K S-↓/J": S-↑, K, S-↓, J).
func helpTokens(b key.Binding) []string {
	var out []string
	for _, f := range strings.Fields(b.Help().Key) {
		if f == "/" { // the key / itself
			out = append(out, f)
			continue
		}
		out = append(out, strings.FieldsFunc(f, func(r rune) bool { return r == '/' })...)
	}
	return out
}

// dedupKeys drops the bindings whose keys an earlier one already names (seen, when not nil,
// carries them across groups): a pair's line "S-↑/K S-↓/J move my order a tick" covers its
// second half's, a field's "Esc back" covers "Esc leave field", so no help names a key twice.
func dedupKeys(bs []key.Binding, seen map[string]bool) []key.Binding {
	if seen == nil {
		seen = map[string]bool{}
	}
	out := make([]key.Binding, 0, len(bs))
	for _, b := range bs {
		toks := helpTokens(b)
		if !b.Enabled() || len(toks) == 0 {
			continue
		}
		covered := true
		for _, t := range toks {
			covered = covered && seen[t]
		}
		if covered {
			continue
		}
		for _, t := range toks {
			seen[t] = true
		}
		out = append(out, b)
	}
	return out
}

// dialogKeys are the keys of the open confirmation: Enter, or the word to type first; Esc; and
// the scroll keys when its lines do not all fit.
func (m *Model) dialogKeys() []key.Binding {
	confirmKey := m.keys.Confirm
	if w := m.dialog.Action().Typed; w != "" {
		confirmKey.SetHelp("type "+w+" + "+confirmKey.Help().Key, "confirm")
	}
	keys := []key.Binding{confirmKey, m.keys.Dismiss}
	if m.dialog.Scrolls() {
		keys = append(keys, common.ScrollKeys(m.keys))
	}
	return keys
}

// renderHelp draws the `?` overlay: the global keys and the focused pane's keys, their groups
// laid out side by side as far as the width allows and in rows below that, scrolling when the
// screen is too short for all of them.
func (m *Model) renderHelp() {
	groups := append([][]key.Binding{m.globalHelp()}, m.paneHelp()...)
	head := []string{m.st.Accent.On("Keys — " + m.slots[m.focus].pane.Title()), ""}
	m.help.Width = 0
	body := packBlocks(m.help, groups, max(m.width-4, 10))
	body = append(body, "")
	for i, l := range cmdline.Grammar(m.keys, max(m.width-4, 20)) {
		if i == 0 {
			l = m.st.Accent.On(l)
		}
		body = append(body, l)
	}
	k := m.keys
	foot := []string{"", m.st.Muted.On(common.KeyName(k.NextPane) + " moves between panes; in a form, between fields (" + common.KeyName(k.Dismiss) +
		" leaves it). " + common.KeyName(k.Help) + " or " + common.KeyName(k.Dismiss) + " closes.")}
	if m.c.ReadOnly != "" {
		foot = append(foot, m.st.Warn.On("Read-only: "+m.c.ReadOnly))
	}
	m.helpView = common.Box(m.st, m.keys, head, body, foot, m.width, m.height-3, &m.helpScroll)
}

// paneHelp is the focused pane's groups of keys for the help overlay, each key named once in its
// group (a group's views each have a block: ↓ moves down a list in one and into a form in another;
// the global keys are a group of their own: Tab is a field key in a form).
func (m *Model) paneHelp() [][]key.Binding {
	var groups [][]key.Binding
	for _, g := range m.slots[m.focus].pane.FullHelp() {
		if g = dedupKeys(g, nil); len(g) > 0 {
			groups = append(groups, g)
		}
	}
	return groups
}

// packBlocks renders each group of keys as a block and lays the blocks out left to right, three
// cells apart, starting a new row of blocks when the next would pass width w.
func packBlocks(h help.Model, groups [][]key.Binding, w int) []string {
	const gap = 3
	var out, row []string
	rowW := 0
	for _, g := range groups {
		block := strings.Split(h.FullHelpView([][]key.Binding{g}), "\n")
		bw := 0
		for _, l := range block {
			bw = max(bw, ansi.StringWidth(l))
		}
		if rowW > 0 && rowW+gap+bw > w {
			out = append(append(out, row...), "")
			row, rowW = nil, 0
		}
		for len(row) < len(block) {
			row = append(row, "")
		}
		for i := range row {
			l := ""
			if i < len(block) {
				l = block[i]
			}
			if rowW > 0 {
				row[i] = common.FitStyled(row[i], rowW) + strings.Repeat(" ", gap)
			}
			row[i] += l
		}
		if rowW > 0 {
			rowW += gap
		}
		rowW += bw
	}
	return append(out, row...)
}
