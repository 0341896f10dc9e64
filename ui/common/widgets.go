package common

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// Utilization thresholds (percent) at which margin bars turn amber and red. Maintenance
// utilization at 100% is liquidation.
var (
	UtilWarn   = decimal.NewFromInt(60)
	UtilDanger = decimal.NewFromInt(85)
)

// UtilPaint is the paint of a utilization in percent: good, warn from UtilWarn, danger from
// UtilDanger.
func UtilPaint(st *Styles, pct decimal.Decimal) Paint {
	switch {
	case pct.GreaterThanOrEqual(UtilDanger):
		return st.Danger
	case pct.GreaterThanOrEqual(UtilWarn):
		return st.Warn
	}
	return st.Good
}

// SidePaint is the paint of an order side.
func SidePaint(st *Styles, side string) Paint {
	if side == api.SideBuy {
		return st.Buy
	}
	return st.Sell
}

// AmountText writes an amount with its own decimals (at least 2, at most the collateral's).
func AmountText(d decimal.Decimal, decimals int32) string {
	if decimals <= 0 {
		decimals = 8
	}
	return FmtNum(d, min(max(-d.Exponent(), 2), decimals))
}

// Wrapped word-wraps plain text to width w after indent, painting each line.
func Wrapped(pt Paint, text, indent string, w int) []string {
	var out []string
	for _, l := range strings.Split(ansi.Wrap(text, max(w-len(indent), 10), " "), "\n") {
		out = append(out, indent+pt.On(l))
	}
	return out
}

// NewField is a form's text input: no prompt, a placeholder, a length limit, a steady cursor.
func NewField(placeholder string, limit int) textinput.Model {
	ti := textinput.New()
	ti.Prompt = ""
	ti.Placeholder = placeholder
	ti.CharLimit = limit
	ti.Cursor.SetMode(cursor.CursorStatic)
	return ti
}

// ReadOnlyNotice explains why a trading key does nothing.
func ReadOnlyNotice(reason, what string) tea.Cmd {
	return Notice(LevelWarn, "read-only: cannot "+what+" ("+reason+")")
}

// JoinFieldErrors is a form's problems on one line, each with the value it suggests.
func JoinFieldErrors(errs []state.FieldError) string {
	parts := make([]string, 0, len(errs))
	for _, e := range errs {
		s := e.Field + ": " + e.Msg
		if e.Suggest != "" && !strings.Contains(e.Msg, e.Suggest) {
			s += " (try " + e.Suggest + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// FocusPaneMsg asks the root model to focus the slot that holds Pane (directly or inside a
// group), showing it.
type FocusPaneMsg struct{ Pane Pane }

// SignPaint is the paint of a signed amount: up when positive, down when negative.
func SignPaint(st *Styles, d decimal.Decimal) Paint {
	switch d.Sign() {
	case 1:
		return st.Up
	case -1:
		return st.Down
	}
	return st.Text
}

// scrollMark follows the scroll keys on a box's line saying its lines do not all fit.
const scrollMark = " scroll · lines "

// Scrolls reports whether view, drawn by Box, has lines that do not all fit (its scroll keys
// then scroll them).
func Scrolls(view string) bool { return strings.Contains(view, scrollMark) }

// Box draws a dialog of at most w x h cells: the head lines, then the body lines (wrapped to the
// box's inner width and, when they do not all fit, scrolled from *scroll with a line saying how
// to see the rest: the keys of k that scroll, see Scrolls), then the foot lines, which are always
// shown: a prompt is never cut off. *scroll is clamped to the lines there are.
func Box(st *Styles, k *KeyMap, head, body, foot []string, w, h int, scroll *int) string {
	iw := max(w-4, 10)
	want := 0
	for _, group := range [][]string{head, body, foot} {
		for _, l := range group {
			want = max(want, ansi.StringWidth(l))
		}
	}
	iw = min(iw, want)
	head, body, foot = wrapAll(head, iw), wrapAll(body, iw), wrapAll(foot, iw)
	room := max(h-2-len(head)-len(foot), 1)
	if len(body) > room {
		show := max(room-1, 0)
		*scroll = min(max(*scroll, 0), len(body)-show)
		more := fmt.Sprintf("%s%s%d-%d of %d", ScrollKeys(k).Help().Key, scrollMark, *scroll+1, *scroll+show, len(body))
		body = append(append([]string{}, body[*scroll:*scroll+show]...), st.Muted.On(Fit(more, iw, false)))
	} else {
		*scroll = 0
	}
	bar := strings.Repeat("─", iw+2)
	lines := make([]string, 0, len(head)+len(body)+len(foot)+2)
	lines = append(lines, st.DialogBorder.On("╭"+bar+"╮"))
	side := st.DialogBorder.On("│")
	for _, group := range [][]string{head, body, foot} {
		for _, l := range group {
			lines = append(lines, side+" "+FitStyled(l, iw)+" "+side)
		}
	}
	lines = append(lines, st.DialogBorder.On("╰"+bar+"╯"))
	return strings.Join(lines, "\n")
}

// wrapAll word-wraps every line (plain or styled) to w cells, breaking words longer than w.
func wrapAll(lines []string, w int) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if ansi.StringWidth(l) <= w {
			out = append(out, l)
			continue
		}
		out = append(out, strings.Split(ansi.Wrap(l, w, " "), "\n")...)
	}
	return out
}
