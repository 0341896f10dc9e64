package ui

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// Theme names every colour the console uses by its purpose, not its hue. The top level fills one in
// (dark, light, colour-blind safe); Build turns it into Styles once, and no style is built after that.
type Theme struct {
	Name string
	// NoColor drops every colour (NO_COLOR): emphasis is carried by bold, reverse and signs.
	NoColor bool

	Text, Muted, Accent lipgloss.TerminalColor
	Border, BorderFocus lipgloss.TerminalColor
	// Buy and Sell colour sides; Up and Down colour changes and PnL.
	Buy, Sell, Up, Down lipgloss.TerminalColor
	// Warn and Danger mark margin near liquidation, stale data and errors; Good marks healthy state.
	Warn, Danger, Good lipgloss.TerminalColor
	// SelectedFg/SelectedBg draw the cursor row of the focused pane.
	SelectedFg, SelectedBg lipgloss.TerminalColor
	// FlashUp/FlashDown are the brief backgrounds of a price that just moved.
	FlashUp, FlashDown lipgloss.TerminalColor
	// BannerFg with DemoBg, ReadOnlyBg, LiveBg and MainnetBg draw the mode badge.
	BannerFg, DemoBg, ReadOnlyBg, LiveBg, MainnetBg lipgloss.TerminalColor
}

// paint is a style reduced to the escape codes around its text, so a cell is coloured by string
// concatenation instead of a lipgloss Render call (which measures and wraps on every call).
type paint struct{ pre, post string }

func newPaint(s lipgloss.Style) paint {
	const mark = "\x00"
	out := s.Render(mark)
	i := strings.Index(out, mark)
	if i < 0 {
		return paint{}
	}
	return paint{pre: out[:i], post: out[i+len(mark):]}
}

// on wraps text in the paint's codes.
func (p paint) on(text string) string {
	if p.pre == "" {
		return text
	}
	return p.pre + text + p.post
}

// Styles are every style and paint of the console, built once from a Theme.
type Styles struct {
	Theme Theme

	Text, Muted, Accent, Bold        paint
	Buy, Sell, Up, Down              paint
	Warn, Danger, Good               paint
	Selected, SelectedBlur           paint
	FlashUp, FlashDown               paint
	Border, BorderFocus              paint
	Title, TitleFocus, Header        paint
	Demo, ReadOnly, Live, Mainnet    paint
	FieldLabel, FieldFocus, FieldErr paint
	Button, ButtonFocus              paint

	Dialog lipgloss.Style
	Help   lipgloss.Style
}

func fg(t Theme, c lipgloss.TerminalColor) lipgloss.Style {
	s := lipgloss.NewStyle()
	if !t.NoColor && c != nil {
		s = s.Foreground(c)
	}
	return s
}

func fgbg(t Theme, f, b lipgloss.TerminalColor) lipgloss.Style {
	s := fg(t, f)
	if !t.NoColor && b != nil {
		s = s.Background(b)
	}
	return s
}

// NewStyles builds every style of the console from the theme.
func NewStyles(t Theme) *Styles {
	s := &Styles{Theme: t}
	s.Text = newPaint(fg(t, t.Text))
	s.Muted = newPaint(fg(t, t.Muted).Faint(t.NoColor))
	s.Accent = newPaint(fg(t, t.Accent).Bold(true))
	s.Bold = newPaint(lipgloss.NewStyle().Bold(true))
	s.Buy = newPaint(fg(t, t.Buy))
	s.Sell = newPaint(fg(t, t.Sell))
	s.Up = newPaint(fg(t, t.Up))
	s.Down = newPaint(fg(t, t.Down))
	s.Warn = newPaint(fg(t, t.Warn).Bold(true))
	s.Danger = newPaint(fg(t, t.Danger).Bold(true))
	s.Good = newPaint(fg(t, t.Good))
	sel := fgbg(t, t.SelectedFg, t.SelectedBg)
	if t.NoColor {
		sel = sel.Reverse(true)
	}
	s.Selected = newPaint(sel)
	s.SelectedBlur = newPaint(lipgloss.NewStyle().Underline(true))
	s.FlashUp = newPaint(fgbg(t, t.BannerFg, t.FlashUp).Bold(true))
	s.FlashDown = newPaint(fgbg(t, t.BannerFg, t.FlashDown).Bold(true))
	s.Border = newPaint(fg(t, t.Border))
	s.BorderFocus = newPaint(fg(t, t.BorderFocus).Bold(true))
	s.Title = newPaint(fg(t, t.Muted))
	s.TitleFocus = newPaint(fgbg(t, t.BannerFg, t.BorderFocus).Bold(true).Reverse(t.NoColor))
	s.Header = newPaint(fg(t, t.Muted).Bold(true))
	s.Demo = newPaint(fgbg(t, t.BannerFg, t.DemoBg).Bold(true).Reverse(t.NoColor))
	s.ReadOnly = newPaint(fgbg(t, t.BannerFg, t.ReadOnlyBg).Bold(true).Reverse(t.NoColor))
	s.Live = newPaint(fgbg(t, t.BannerFg, t.LiveBg).Bold(true).Reverse(t.NoColor))
	s.Mainnet = newPaint(fgbg(t, t.BannerFg, t.MainnetBg).Bold(true).Blink(t.NoColor).Reverse(t.NoColor))
	s.FieldLabel = newPaint(fg(t, t.Muted))
	s.FieldFocus = newPaint(fg(t, t.Accent).Bold(true))
	s.FieldErr = newPaint(fg(t, t.Danger))
	s.Button = newPaint(fg(t, t.Text).Reverse(true))
	s.ButtonFocus = newPaint(fgbg(t, t.BannerFg, t.Accent).Bold(true).Reverse(t.NoColor))
	s.Dialog = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	if !t.NoColor {
		s.Dialog = s.Dialog.BorderForeground(t.Accent)
	}
	s.Help = lipgloss.NewStyle().Padding(0, 1)
	return s
}
