// Package help is the console's `?` overlay and its footer of keys: the global keys and the
// focused pane's, their groups laid out side by side as far as the width allows and in rows below
// that, the command line's grammar, scrolling when the screen is too short. It is fed values
// (Values) the root builds; it reads nothing else.
package help

import (
	"strings"

	bhelp "github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// Values are what the overlay shows.
type Values struct {
	// Title is the focused pane's title, in the overlay's head.
	Title string
	// Global are the keys that work from every pane.
	Global []key.Binding
	// Pane are the focused pane's groups of keys (common.Pane's FullHelp).
	Pane [][]key.Binding
	// ReadOnly is why the console cannot trade ("": it can).
	ReadOnly string
	// Width and Height are the screen's size.
	Width, Height int
}

// Model is the help overlay and the footer's key line.
type Model struct {
	st     *common.Styles
	keys   *common.KeyMap
	short  bhelp.Model
	values Values
	view   string
	scroll int
	shown  bool
}

// New is the help in the styles and keys of the console.
func New(st *common.Styles, keys *common.KeyMap) *Model {
	return &Model{st: st, keys: keys, short: newBubbles(st)}
}

func newBubbles(st *common.Styles) bhelp.Model {
	h := bhelp.New()
	if st.Theme.NoColor {
		h.Styles = bhelp.Styles{
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

// Footer is the footer's line of keys at width w, each key named once.
func (h *Model) Footer(keys []key.Binding, w int) string {
	h.short.Width = w
	return common.FitStyled(h.short.ShortHelpView(Dedup(keys, nil)), w)
}

// Open shows the overlay of v from its top.
func (h *Model) Open(v Values) {
	h.scroll, h.shown = 0, true
	h.Render(v)
}

// Shown reports whether the overlay is open.
func (h *Model) Shown() bool { return h.shown }

// Close closes the overlay.
func (h *Model) Close() { h.shown = false }

// Render draws the overlay of v at its scroll.
func (h *Model) Render(v Values) {
	h.values = v
	st, k := h.st, h.keys
	groups := append([][]key.Binding{v.Global}, Groups(v.Pane)...)
	head := []string{st.Accent.On("Keys — " + v.Title), ""}
	h.short.Width = 0
	body := packBlocks(h.short, groups, max(v.Width-4, 10))
	body = append(body, "")
	for i, l := range cmdline.Grammar(k, max(v.Width-4, 20)) {
		if i == 0 {
			l = st.Accent.On(l)
		}
		body = append(body, l)
	}
	foot := []string{"", st.Muted.On(common.KeyName(k.NextPane) + " moves between panes; in a form, between fields (" + common.KeyName(k.Dismiss) +
		" leaves it). " + common.KeyName(k.Help) + " or " + common.KeyName(k.Dismiss) + " closes.")}
	if v.ReadOnly != "" {
		foot = append(foot, st.Warn.On("Read-only: "+v.ReadOnly))
	}
	h.view = common.Box(st, k, head, body, foot, v.Width, v.Height-3, &h.scroll)
}

// Key scrolls the overlay on the scroll keys, or closes it on help, dismiss or quit; it reports
// whether it closed.
func (h *Model) Key(msg tea.KeyMsg) (closed bool) {
	k := h.keys
	switch {
	case key.Matches(msg, k.Help, k.Dismiss, k.Quit):
		h.shown = false
		return true
	case key.Matches(msg, k.Up):
		h.scroll--
		h.Render(h.values)
	case key.Matches(msg, k.Down):
		h.scroll++
		h.Render(h.values)
	}
	return false
}

// View is the overlay as last drawn.
func (h *Model) View() string { return h.view }

// Groups are a pane's groups of keys for the overlay, each key named once in its group (a
// group's views each have a block: ↓ moves down a list in one and into a form in another; the
// global keys are a group of their own: Tab is a field key in a form).
func Groups(full [][]key.Binding) [][]key.Binding {
	var groups [][]key.Binding
	for _, g := range full {
		if g = Dedup(g, nil); len(g) > 0 {
			groups = append(groups, g)
		}
	}
	return groups
}

// Tokens are the keys a binding's help names ("S-↑/K S-↓/J": S-↑, K, S-↓, J).
func Tokens(b key.Binding) []string {
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

// Dedup drops the bindings whose keys an earlier one already names (seen, when not nil, carries
// them across groups): a pair's line "S-↑/K S-↓/J move my order a tick" covers its second half's,
// a field's "Esc back" covers "Esc leave field", so no help names a key twice.
func Dedup(bs []key.Binding, seen map[string]bool) []key.Binding {
	if seen == nil {
		seen = map[string]bool{}
	}
	out := make([]key.Binding, 0, len(bs))
	for _, b := range bs {
		toks := Tokens(b)
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

// packBlocks renders each group of keys as a block and lays the blocks out left to right, three
// cells apart, starting a new row of blocks when the next would pass width w.
func packBlocks(h bhelp.Model, groups [][]key.Binding, w int) []string {
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
