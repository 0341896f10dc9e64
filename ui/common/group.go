package common

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
)

// Group shows one of several panes at a time under a row of tabs: [ and ] switch. The
// history-and-money panes come in three groups so the wide layout keeps room for the core panes;
// the depth pane is a group of the ladder and the tape where it is short.
type Group struct {
	st      *Styles
	title   string
	panes   []Pane
	active  int
	focused bool
	w, h    int
	bar     string
	barKey  string  // the titles the bar was drawn with
	keyBuf  []byte  // the titles now, made in place each View
	keys    *KeyMap // PrevView and NextView switch views
	// view is the bar and the view shown as last joined, from viewBar and viewOf: an unchanged
	// view is not joined again each frame (issue #34).
	view, viewBar, viewOf string
}

// NewGroup is a group called title of panes, the first shown.
func NewGroup(c *Common, title string, panes ...Pane) *Group {
	g := &Group{st: c.Styles, keys: c.Keys, title: title, panes: panes}
	g.renderBar()
	return g
}

// Title implements Pane: the group's name and the view shown.
func (g *Group) Title() string { return g.title + ": " + g.panes[g.active].Title() }

// Kinds implements KindsShower for the view shown.
func (g *Group) Kinds() []state.Kind {
	if k, ok := g.panes[g.active].(KindsShower); ok {
		return k.Kinds()
	}
	return nil
}

// InForm implements FormHolder for the view shown.
func (g *Group) InForm() bool {
	f, ok := g.panes[g.active].(FormHolder)
	return ok && f.InForm()
}

// Fresh implements FreshForm for the view shown.
func (g *Group) Fresh() bool {
	f, ok := g.panes[g.active].(FreshForm)
	return ok && f.Fresh()
}

// Capturing implements InputCapturer for the view shown.
func (g *Group) Capturing() bool {
	c, ok := g.panes[g.active].(InputCapturer)
	return ok && c.Capturing()
}

// SetSize implements Pane; the tab row takes one line.
func (g *Group) SetSize(w, h int) {
	g.w, g.h = w, h
	for _, p := range g.panes {
		p.SetSize(w, max(h-1, 1))
	}
	g.renderBar()
}

// SetFocused implements Pane.
func (g *Group) SetFocused(f bool) {
	g.focused = f
	for i, p := range g.panes {
		p.SetFocused(f && i == g.active)
	}
}

// Name is the group's own name (its title without the view shown).
func (g *Group) Name() string { return g.title }

// Panes are the group's views, in tab order.
func (g *Group) Panes() []Pane { return g.panes }

// Active is the view shown.
func (g *Group) Active() Pane { return g.panes[g.active] }

// Show makes p the view shown, if it is one of the group's; it reports whether it was.
func (g *Group) Show(p Pane) bool {
	for i, q := range g.panes {
		if q == p {
			g.SwitchTo(i)
			return true
		}
	}
	return false
}

// SwitchTo shows view i (counted round: -1 is the last).
func (g *Group) SwitchTo(i int) {
	n := len(g.panes)
	g.active = (i%n + n) % n
	g.SetFocused(g.focused)
	g.renderBar()
}

// Update implements Pane: keys go to the view shown ([ and ] switch views unless it is typing);
// other messages go to every view.
func (g *Group) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if !g.Capturing() && !g.InForm() {
			switch {
			case key.Matches(msg, g.keys.PrevView):
				g.SwitchTo(g.active - 1)
				return nil
			case key.Matches(msg, g.keys.NextView):
				g.SwitchTo(g.active + 1)
				return nil
			}
		}
		return g.panes[g.active].Update(msg)
	case tea.MouseMsg:
		return g.panes[g.active].Update(msg)
	}
	var cmds []tea.Cmd
	for _, p := range g.panes {
		cmds = append(cmds, p.Update(msg))
	}
	return tea.Batch(cmds...)
}

// Click implements Clicker: a click on the tab row switches views, below it goes to the view.
func (g *Group) Click(x, y int) tea.Cmd {
	if y == 0 {
		pos := 0
		for i, p := range g.panes {
			w := TextWidth(p.Title()) + 3
			if x >= pos && x < pos+w {
				g.SwitchTo(i)
				return nil
			}
			pos += w
		}
		return nil
	}
	if c, ok := g.panes[g.active].(Clicker); ok {
		return c.Click(x, y-1)
	}
	return nil
}

func (g *Group) renderBar() {
	var b strings.Builder
	for i, p := range g.panes {
		label := " " + p.Title() + " "
		if i == g.active {
			b.WriteString(g.st.TitleFocus.On(label))
		} else {
			b.WriteString(g.st.Title.On(label))
		}
		b.WriteString(" ")
	}
	b.WriteString(g.st.Muted.On(g.keys.PrevView.Help().Key + " switch"))
	g.bar = FitStyled(b.String(), g.w)
}

// View implements Pane. The tab row is drawn again when a view's title (its count) changed.
func (g *Group) View() string {
	g.keyBuf = g.keyBuf[:0]
	for _, p := range g.panes {
		g.keyBuf = append(g.keyBuf, p.Title()...)
		g.keyBuf = append(g.keyBuf, 0)
	}
	if string(g.keyBuf) != g.barKey {
		g.barKey = string(g.keyBuf)
		g.renderBar()
	}
	if g.h <= 1 {
		return g.bar
	}
	if v := g.panes[g.active].View(); v != g.viewOf || g.bar != g.viewBar || g.view == "" {
		g.view, g.viewBar, g.viewOf = g.bar+"\n"+v, g.bar, v
	}
	return g.view
}

// ShortHelp implements Pane; [ ] are not offered while the view shown takes every key (a form).
func (g *Group) ShortHelp() []key.Binding {
	if g.Capturing() || g.InForm() {
		return g.panes[g.active].ShortHelp()
	}
	return append([]key.Binding{g.keys.PrevView}, g.panes[g.active].ShortHelp()...)
}

// FullHelp implements Pane: every view's help.
func (g *Group) FullHelp() [][]key.Binding {
	out := [][]key.Binding{{g.keys.PrevView, g.keys.NextView}}
	for _, p := range g.panes {
		out = append(out, p.FullHelp()...)
	}
	return out
}
