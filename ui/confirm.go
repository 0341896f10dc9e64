package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

// confirmDialog asks the trader to confirm an action: Enter (or typing a word, when the fat-finger
// guard asks for it) confirms once, Esc backs out. It holds every key while open.
type confirmDialog struct {
	st    *common.Styles
	keys  *common.KeyMap
	act   *action.Action
	typed textinput.Model
	done  bool // confirmed or dismissed: a second Enter does nothing
	view  string
	width int
}

// dialogResultMsg is the dialog's answer.
type dialogResultMsg struct {
	act       *action.Action
	confirmed bool
}

func newConfirmDialog(st *common.Styles, keys *common.KeyMap, a *action.Action, width int) *confirmDialog {
	d := &confirmDialog{st: st, keys: keys, act: a, width: width}
	if a.Typed != "" {
		d.typed = textinput.New()
		d.typed.Prompt = "> "
		d.typed.CharLimit = 16
		d.typed.Cursor.SetMode(cursor.CursorStatic)
		d.typed.Focus()
	}
	d.render()
	return d
}

// Capturing reports whether the dialog has a text input (it always takes every key anyway).
func (d *confirmDialog) Capturing() bool { return d.act.Typed != "" }

// Update handles a key; it returns the dialog's answer as a command once.
func (d *confirmDialog) Update(msg tea.Msg) tea.Cmd {
	k, ok := msg.(tea.KeyMsg)
	if !ok || d.done {
		return nil
	}
	switch {
	case key.Matches(k, d.keys.Dismiss):
		d.done = true
		return d.answer(false)
	case key.Matches(k, d.keys.Confirm):
		if d.act.Typed != "" && !strings.EqualFold(strings.TrimSpace(d.typed.Value()), d.act.Typed) {
			d.render()
			return nil
		}
		d.done = true
		return d.answer(true)
	}
	if d.act.Typed != "" {
		d.typed, _ = d.typed.Update(k)
		d.render()
	}
	return nil
}

func (d *confirmDialog) answer(yes bool) tea.Cmd {
	a := d.act
	return func() tea.Msg { return dialogResultMsg{act: a, confirmed: yes} }
}

func (d *confirmDialog) render() {
	st := d.st
	lines := []string{st.Accent.On(d.act.Title), ""}
	lines = append(lines, d.act.Lines...)
	lines = append(lines, "")
	if d.act.Typed != "" {
		lines = append(lines, st.Warn.On("Type "+d.act.Typed+" and press Enter to send, Esc to go back:"), d.typed.View())
	} else {
		lines = append(lines, st.Bold.On("Enter")+" to confirm · "+st.Bold.On("Esc")+" to go back")
	}
	d.view = st.Dialog.MaxWidth(max(d.width-2, 20)).Render(strings.Join(lines, "\n"))
}

// View is the dialog box (rendered when it changed, not per frame).
func (d *confirmDialog) View() string { return d.view }
