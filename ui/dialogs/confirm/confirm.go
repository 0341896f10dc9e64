package confirm

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
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
	// height is the most lines the dialog may take; scroll is the first body line shown when
	// the lines do not all fit (the prompt stays in view either way).
	height, scroll int
	// hint says why Enter did nothing (the typed word does not match).
	hint string
	// note says why the dialog is shown again (the second check on Enter found a change).
	note string
	// At is when the dialog opened, by the console's clock: the second check on Enter measures
	// its age from it.
	At time.Time
}

// ResultMsg is the dialog's answer.
type ResultMsg struct {
	Act       *action.Action
	Confirmed bool
	Opened    time.Time // the dialog's At: the second check on Enter measures its age from it
}

// New is the confirmation of a: its title and lines, then Enter (or the word it asks for).
func New(st *common.Styles, keys *common.KeyMap, a *action.Action, width int) *Dialog {
	d := &Dialog{st: st, keys: keys, act: a, width: width, height: 1000}
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

// Again shows the dialog of a refreshed action with why it is asked again (the second check on
// Enter): the note goes above the prompt, so it is on screen however the body scrolls.
func (d *Dialog) Again(why string) {
	d.note = why
	d.render()
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
			d.hint = "not sent: type " + d.act.Typed + " first, then " + common.KeyName(d.keys.Confirm)
			d.render()
			return nil
		}
		d.done = true
		return d.answer(true)
	case key.Matches(k, d.keys.Up):
		d.scroll--
		d.render()
		return nil
	case key.Matches(k, d.keys.Down):
		d.scroll++
		d.render()
		return nil
	}
	if d.act.Typed != "" {
		d.hint = ""
		d.typed, _ = d.typed.Update(k)
		d.render()
	}
	return nil
}

// Close dismisses the dialog as Esc does (Ctrl+C in a dialog closes it instead of quitting).
func (d *Dialog) Close() tea.Cmd {
	if d.done {
		return nil
	}
	d.done = true
	return d.answer(false)
}

func (d *Dialog) answer(yes bool) tea.Cmd {
	a, at := d.act, d.At
	return func() tea.Msg { return ResultMsg{Act: a, Confirmed: yes, Opened: at} }
}

func (d *Dialog) render() {
	st := d.st
	head := []string{st.Accent.On(d.act.Title), ""}
	body := d.act.Lines
	w := max(d.width-4, 10)
	foot := []string{""}
	if d.note != "" {
		for _, l := range hang("↻ "+d.note, w, 2) {
			foot = append(foot, st.Warn.On(l))
		}
	}
	if d.act.Typed != "" {
		foot = append(foot, st.Warn.On("Type "+d.act.Typed+" and press "+common.KeyName(d.keys.Confirm)+" to send, "+common.KeyName(d.keys.Dismiss)+" to go back:"), d.typed.View())
	} else {
		foot = append(foot, st.Bold.On(common.KeyName(d.keys.Confirm))+" to confirm · "+st.Bold.On(common.KeyName(d.keys.Dismiss))+" to go back")
	}
	if d.hint != "" {
		foot = append(foot, st.Danger.On(d.hint))
	}
	scroll := d.scroll // clamped to this layout's lines only if it is the one shown
	d.view = common.Box(st, d.keys, head, hangAll(st, body, w), foot, d.width, d.height, &scroll)
	if warns, rest := splitWarnings(body); len(warns) > 0 && d.Scrolls() {
		// The warnings are why the trader is asked (often to type a word): when the body
		// scrolls they stay in view under the title, with the prompt, and the details scroll.
		head = append(append(head, hangAll(st, warns, w)...), "")
		d.view = common.Box(st, d.keys, head, hangAll(st, rest, w), foot, d.width, d.height, &d.scroll)
		return
	}
	d.scroll = scroll
}

// labelW is the width of a detail row's label ("Stop-loss    "): the value starts after it.
const labelW = 13

// hangAll breaks the lines wider than w between words and goes on under their text, as a list
// reads: a "! " warning two cells in (painted Warn on every line), a plain "Label        value"
// row under its value. Other lines are left for the box to wrap.
func hangAll(st *common.Styles, lines []string, w int) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		plain := ansi.Strip(l)
		switch {
		case ansi.StringWidth(l) <= w:
			out = append(out, l)
		case strings.HasPrefix(plain, "! "):
			for _, h := range hang(plain, w, 2) {
				out = append(out, st.Warn.On(h))
			}
		case plain == l && len(l) > labelW && l[0] != ' ' && l[labelW-2:labelW] == "  " && l[labelW] != ' ':
			out = append(out, hang(l, w, labelW)...)
		default:
			out = append(out, l)
		}
	}
	return out
}

// hang wraps plain text s to w cells between words, the lines after the first indent cells in.
func hang(s string, w, indent int) []string {
	first, _, _ := strings.Cut(ansi.Wrap(s, w, " "), "\n")
	if !strings.HasPrefix(s, first) || w-indent < 10 {
		return []string{s} // the box wraps it as before
	}
	pad := strings.Repeat(" ", indent)
	out := []string{first}
	for _, l := range strings.Split(ansi.Wrap(strings.TrimLeft(s[len(first):], " "), w-indent, " "), "\n") {
		out = append(out, pad+l)
	}
	return out
}

// splitWarnings parts an action's lines into its warnings (the lines that start "! ") and the
// rest, each in their order.
func splitWarnings(lines []string) (warns, rest []string) {
	for _, l := range lines {
		if strings.HasPrefix(ansi.Strip(l), "! ") {
			warns = append(warns, l)
		} else {
			rest = append(rest, l)
		}
	}
	return warns, rest
}

// Scrolls reports whether the dialog's lines do not all fit (the scroll keys then scroll them).
func (d *Dialog) Scrolls() bool { return common.Scrolls(d.view) }

// Action is the action the dialog confirms.
func (d *Dialog) Action() *action.Action { return d.act }

// Answered reports whether the dialog was confirmed or dismissed (it then ignores every key).
func (d *Dialog) Answered() bool { return d.done }

// SetSize fits the dialog to the room it has: w cells wide, h lines high.
func (d *Dialog) SetSize(w, h int) {
	d.width, d.height = w, h
	d.render()
}

// View is the dialog box (rendered when it changed, not per frame).
func (d *Dialog) View() string { return d.view }
