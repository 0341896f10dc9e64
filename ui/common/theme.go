package common

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

// Paint is a style reduced to the escape codes around its text, so a cell is coloured by string
// concatenation instead of a lipgloss Render call (which measures and wraps on every call).
type Paint struct{ pre, post string }

// NewPaint reduces s to the escape codes it puts around a text.
func NewPaint(s lipgloss.Style) Paint {
	const mark = "\x00"
	out := s.Render(mark)
	i := strings.Index(out, mark)
	if i < 0 {
		return Paint{}
	}
	return Paint{pre: out[:i], post: out[i+len(mark):]}
}

// On wraps text in the paint's codes.
func (p Paint) On(text string) string {
	if p.pre == "" {
		return text
	}
	return p.pre + text + p.post
}

// Styles are every style and paint of the console, built once from a Theme.
type Styles struct {
	Theme Theme

	Text, Muted, Accent, Bold        Paint
	Buy, Sell, Up, Down              Paint
	Warn, Danger, Good               Paint
	Selected, SelectedBlur           Paint
	FlashUp, FlashDown               Paint
	Border, BorderFocus              Paint
	Title, TitleFocus, Header        Paint
	Demo, ReadOnly, Live, Mainnet    Paint
	FieldLabel, FieldFocus, FieldErr Paint
	Button, ButtonFocus              Paint
	// DialogBorder draws the frame of dialogs and the help overlay.
	DialogBorder Paint

	Dialog lipgloss.Style
	Help   lipgloss.Style
}

// Fg is a style in colour c of theme t (none under NO_COLOR).
func Fg(t Theme, c lipgloss.TerminalColor) lipgloss.Style {
	s := lipgloss.NewStyle()
	if !t.NoColor && c != nil {
		s = s.Foreground(c)
	}
	return s
}

func fgbg(t Theme, f, b lipgloss.TerminalColor) lipgloss.Style {
	s := Fg(t, f)
	if !t.NoColor && b != nil {
		s = s.Background(b)
	}
	return s
}

// NewStyles builds every style of the console from the theme.
func NewStyles(t Theme) *Styles {
	s := &Styles{Theme: t}
	s.Text = NewPaint(Fg(t, t.Text))
	s.Muted = NewPaint(Fg(t, t.Muted).Faint(t.NoColor))
	s.Accent = NewPaint(Fg(t, t.Accent).Bold(true))
	s.Bold = NewPaint(lipgloss.NewStyle().Bold(true))
	s.Buy = NewPaint(Fg(t, t.Buy))
	s.Sell = NewPaint(Fg(t, t.Sell))
	s.Up = NewPaint(Fg(t, t.Up))
	s.Down = NewPaint(Fg(t, t.Down))
	s.Warn = NewPaint(Fg(t, t.Warn).Bold(true))
	s.Danger = NewPaint(Fg(t, t.Danger).Bold(true))
	s.Good = NewPaint(Fg(t, t.Good))
	sel := fgbg(t, t.SelectedFg, t.SelectedBg)
	if t.NoColor {
		sel = sel.Reverse(true)
	}
	s.Selected = NewPaint(sel)
	s.SelectedBlur = NewPaint(lipgloss.NewStyle().Underline(true))
	s.FlashUp = NewPaint(fgbg(t, t.BannerFg, t.FlashUp).Bold(true))
	s.FlashDown = NewPaint(fgbg(t, t.BannerFg, t.FlashDown).Bold(true))
	s.Border = NewPaint(Fg(t, t.Border))
	s.BorderFocus = NewPaint(Fg(t, t.BorderFocus).Bold(true))
	s.Title = NewPaint(Fg(t, t.Muted))
	s.TitleFocus = NewPaint(fgbg(t, t.BannerFg, t.BorderFocus).Bold(true).Reverse(t.NoColor))
	s.Header = NewPaint(Fg(t, t.Muted).Bold(true))
	s.Demo = NewPaint(fgbg(t, t.BannerFg, t.DemoBg).Bold(true).Reverse(t.NoColor))
	s.ReadOnly = NewPaint(fgbg(t, t.BannerFg, t.ReadOnlyBg).Bold(true).Reverse(t.NoColor))
	s.Live = NewPaint(fgbg(t, t.BannerFg, t.LiveBg).Bold(true).Reverse(t.NoColor))
	s.Mainnet = NewPaint(fgbg(t, t.BannerFg, t.MainnetBg).Bold(true).Blink(t.NoColor).Reverse(t.NoColor))
	s.FieldLabel = NewPaint(Fg(t, t.Muted))
	s.FieldFocus = NewPaint(Fg(t, t.Accent).Bold(true))
	s.FieldErr = NewPaint(Fg(t, t.Danger))
	s.Button = NewPaint(Fg(t, t.Text).Reverse(true))
	s.ButtonFocus = NewPaint(fgbg(t, t.BannerFg, t.Accent).Bold(true).Reverse(t.NoColor))
	s.DialogBorder = NewPaint(Fg(t, t.Accent))
	s.Dialog = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	if !t.NoColor {
		s.Dialog = s.Dialog.BorderForeground(t.Accent)
	}
	s.Help = lipgloss.NewStyle().Padding(0, 1)
	return s
}
