// Package text is the one sanitiser for text tradedesk did not write itself: instrument and
// collateral names, error messages, cloids, addresses and anything else a server or another
// program chose. Clean makes such text safe to draw or print; HideKeys and Brief keep a private
// key pasted into the wrong place from being echoed.
//
// It sits below api and imports nothing of tradedesk's, because every layer needs it: api builds
// error messages from server bodies, state cleans records as they enter the store, ui and
// ui/headless draw and print, and main writes stderr and logs. Imports point one way (main -> ui
// -> state -> api), so only a package under all of them can serve all of them.
package text

import (
	"strings"
	"unicode/utf8"
)

// Clean returns s with nothing a terminal would act on: C0 controls (ESC, BEL, ...), DEL, C1
// controls (U+0080-U+009F, CSI and OSC among them) and the bidirectional overrides that reorder
// what is shown are written as \u escapes; tab, newline and carriage return become one space,
// so the result is one line; invalid UTF-8 becomes U+FFFD. The escapes are valid inside a JSON
// string too. Text that needs none of this comes back as it is, without allocating. Measure
// widths on the result, never on s.
func Clean(s string) string {
	i := firstUnsafe(s, false)
	if i < 0 {
		return s
	}
	return rewrite(s, i, false)
}

// CleanLines is Clean for text of several lines that tradedesk writes itself around outside
// text (a table, a message on stderr): newline and tab are kept, everything else Clean escapes
// is escaped.
func CleanLines(s string) string {
	i := firstUnsafe(s, true)
	if i < 0 {
		return s
	}
	return rewrite(s, i, true)
}

// Safe reports whether Clean would return s unchanged.
func Safe(s string) bool { return firstUnsafe(s, false) < 0 }

// firstUnsafe returns the byte offset of the first character Clean (or CleanLines, with lines)
// would change, or -1.
func firstUnsafe(s string, lines bool) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				if !lines || (c != '\n' && c != '\t') {
					return i
				}
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r, n) {
			return i
		}
		i += n
	}
	return -1
}

// unsafeRune reports whether a non-ASCII rune (n bytes long) is to be escaped or replaced.
func unsafeRune(r rune, n int) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	}
	return false
}

const hexDigits = "0123456789abcdef"

// rewrite builds the cleaned text; s[:from] is known to be clean.
func rewrite(s string, from int, lines bool) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:from])
	for i := from; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c >= 0x20 && c != 0x7f, lines && (c == '\n' || c == '\t'):
				b.WriteByte(c)
			case c == '\t' || c == '\n' || c == '\r':
				b.WriteByte(' ')
			default:
				escape(&b, rune(c))
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteRune(utf8.RuneError)
		case r == 0x2028 || r == 0x2029:
			b.WriteByte(' ')
		case unsafeRune(r, n):
			escape(&b, r)
		default:
			b.WriteString(s[i-n : i])
		}
	}
	return b.String()
}

// escape writes r as \uXXXX.
func escape(b *strings.Builder, r rune) {
	b.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		b.WriteByte(hexDigits[(r>>shift)&0xf])
	}
}
