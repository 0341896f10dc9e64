package confirm

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Dialog asks the trader to confirm an action: Enter (or typing a word, when the fat-finger
// guard asks for it) confirms once, Esc backs out. It holds every key while open.
type Dialog struct {
	st    *common.Styles
	keys  *common.KeyMap
	act   *action.Action
	typed textinput.Model
	done  bool // confirmed or dismissed: a second Enter does nothing
	view  string
	width int
}

// ResultMsg is the dialog's answer.
type ResultMsg struct {
	Act       *action.Action
	Confirmed bool
}

// New is the confirmation of a: its title and lines, then Enter (or the word it asks for).
func New(st *common.Styles, keys *common.KeyMap, a *action.Action, width int) *Dialog {
	d := &Dialog{st: st, keys: keys, act: a, width: width}
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
func (d *Dialog) Capturing() bool { return d.act.Typed != "" }

// Update handles a key; it returns the dialog's answer as a command once.
func (d *Dialog) Update(msg tea.Msg) tea.Cmd {
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

func (d *Dialog) answer(yes bool) tea.Cmd {
	a := d.act
	return func() tea.Msg { return ResultMsg{Act: a, Confirmed: yes} }
}

func (d *Dialog) render() {
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

// Action is the action the dialog confirms.
func (d *Dialog) Action() *action.Action { return d.act }

// Answered reports whether the dialog was confirmed or dismissed (it then ignores every key).
func (d *Dialog) Answered() bool { return d.done }

// SetWidth fits the dialog to a new screen width.
func (d *Dialog) SetWidth(w int) {
	d.width = w
	d.render()
}

// View is the dialog box (rendered when it changed, not per frame).
func (d *Dialog) View() string { return d.view }
