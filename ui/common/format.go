package common

import (
	"fmt"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
)

// FmtNum formats d with places decimals and thousands separators ("1,234.50").
func FmtNum(d decimal.Decimal, places int32) string { return state.FormatPrice(d, places) }

// FmtSigned is FmtNum with an explicit sign ("+1.20", "-0.40"; zero has none).
func FmtSigned(d decimal.Decimal, places int32) string { return state.FormatSigned(d, places) }

// FmtPct formats a value already in percent with two decimals and a sign ("+1.25%").
func FmtPct(pct decimal.Decimal) string { return state.FormatSignedPercent(pct, 2) }

// FmtCompact formats large amounts with a suffix ("12.3M"), for volume and open interest.
func FmtCompact(d decimal.Decimal) string { return state.FormatCompact(d) }

// FmtAge formats a duration the way a trader reads it: "4s", "2m10s", "3h".
func FmtAge(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// ShortAddr shortens an address to 0x1234…abcd.
func ShortAddr(a string) string {
	if len(a) <= 12 {
		return a
	}
	return a[:6] + "…" + a[len(a)-4:]
}

// TextWidth is the cell width of plain text (no escape codes), fast for ASCII.
func TextWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return runewidth.StringWidth(s)
		}
	}
	return len(s)
}

// Fit pads or truncates plain text to exactly w cells; right aligns to the right.
func Fit(s string, w int, right bool) string {
	if w <= 0 {
		return ""
	}
	n := TextWidth(s)
	if n > w {
		if w == 1 {
			return "…"
		}
		return runewidth.Truncate(s, w, "…")
	}
	if n == w {
		return s
	}
	Pad := strings.Repeat(" ", w-n)
	if right {
		return Pad + s
	}
	return s + Pad
}

// Pad is fit aligned left.
func Pad(s string, w int) string { return Fit(s, w, false) }

// FitStyled pads or truncates text that may hold escape codes to exactly w cells.
func FitStyled(s string, w int) string {
	n := ansi.StringWidth(s)
	switch {
	case n == w:
		return s
	case n < w:
		return s + strings.Repeat(" ", w-n)
	}
	return ansi.Truncate(s, w, "…")
}

// FreshLine is a pane's status line for kind: what failed and how old the data is, or "" when
// it is fresh.
func FreshLine(st *Styles, store *state.Store, k state.Kind, w int) string {
	f := store.Freshness(k)
	switch {
	case f.Err != nil && !f.Loaded():
		return st.Danger.On(Pad("failed: "+PlainError(f.Err)+" (retrying)", w))
	case f.Err != nil:
		return st.Warn.On(Pad("stale "+FmtAge(f.Age)+": "+PlainError(f.Err)+" (retrying)", w))
	case f.Stale && f.Loaded():
		return st.Warn.On(Pad("stale: updated "+FmtAge(f.Age)+" ago", w))
	}
	return ""
}

// FitLines makes exactly h lines of exactly w cells from lines (plain or styled).
func FitLines(lines []string, w, h int) string {
	out := make([]string, h)
	blank := strings.Repeat(" ", max(w, 0))
	for i := range out {
		if i < len(lines) {
			out[i] = FitStyled(lines[i], w)
		} else {
			out[i] = blank
		}
	}
	return strings.Join(out, "\n")
}

// NoAccount is what a view of the account's data says when the console watches no account: how
// to start with one and, when what is given, what it would then show ("to see fills").
func NoAccount(what string) string {
	s := "no account: start with --address, --keystore or a key"
	if what != "" {
		s += " to see " + what
	}
	return s
}

// ScrolledLines is lines from offset on, fitted to w×h (FitLines): a pane of text longer than its
// height, scrolled down offset lines.
func ScrolledLines(lines []string, offset, w, h int) string {
	if offset < len(lines) {
		lines = lines[offset:]
	}
	return FitLines(lines, w, h)
}

// ScrollDown is offset moved by lines down, in a pane of lines lines shown h at a time: no
// further than the offset that puts the last line at the bottom.
func ScrollDown(offset, by, lines, h int) int { return min(offset+by, max(lines-h, 0)) }

// EmptyFor is a list's empty-state text for kind: loading, the failure, or text once loaded.
func EmptyFor(store *state.Store, k state.Kind, text string) string {
	f := store.Freshness(k)
	switch {
	case f.Err != nil && !f.Loaded():
		return k.String() + " request failed: " + PlainError(f.Err) + " (retrying)"
	case !f.Loaded():
		return "loading " + k.String() + "…"
	}
	return text
}

// PlainError keeps an error to one line a trader can read, with nothing in it a terminal would
// act on (errors carry server text) and nothing shaped like a key (errors may repeat what was
// typed into a field).
func PlainError(err error) string {
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	s = text.HideKeys(s)
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return text.Clean(s)
}

// LabelWidth is the width of a form's or a summary's labels, so the values line up.
const LabelWidth = 14

// FmtStamp is a record's time in a pane: "03-02 09:15:04" (UTC), "-" when there is none.
func FmtStamp(t api.Time) string {
	if s := state.TimeText(t.Time, state.TimeShort); s != "" {
		return s
	}
	return "-"
}

// OrderType is an order's type, trigger, what it belongs to, time in force and flags in a few
// letters: "limit", "tp @51,000.0 IOC RO PO", "sl @3,300.00 bracket RO" (a bracket's entry or
// leg), "tp @3,600.00 pos RO" (a position's own); the words are state's, shared with headless, the
// trigger at in's tick. A market order's IOC goes unsaid: a market order is IOC.
func OrderType(o *api.OrderRecord, in state.Instrument) string {
	parts := []string{state.RecordTypeShort(o, in)}
	switch o.Grouping {
	case api.GroupingNormal:
		parts = append(parts, "bracket")
	case api.GroupingPosition:
		parts = append(parts, "pos")
	}
	if o.Tif != "" && o.Tif != api.TifGTC && !(o.IsMarket && o.Tif == api.TifIOC) {
		parts = append(parts, o.Tif)
	}
	return strings.Join(append(parts, state.FlagAbbrevs(o.ReduceOnly, o.PostOnly)...), " ")
}

// RingBell rings the terminal bell on stderr (the screen is drawn on stdout).
func RingBell() { _, _ = os.Stderr.WriteString("\a") }
