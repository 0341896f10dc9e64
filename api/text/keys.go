package text

import (
	"strings"
	"unicode/utf8"
)

// Hidden replaces a secret, or what looks like one, in the output.
const Hidden = "[secret hidden]"

// KeyRun is the shortest run of hex digits HideKeys hides: a private key is 64 digits, and a
// message that cut one short would still give away most of it.
const KeyRun = 32

// addressRun is the length of an address's hex run: 0x and 40 digits are shown, as addresses
// are public and a trader must be able to read them.
const addressRun = 40

// HideKeys replaces every run of KeyRun or more hex digits (with the 0x before it, if any) by
// Hidden, except 0x and exactly 40 digits: an address. It is for echoes of what the user typed
// and for errors: a key pasted into the wrong flag or field never comes back, whole or in part.
// Transaction hashes have a key's shape and are hidden too; do not use it on records.
func HideKeys(s string) string {
	var b strings.Builder
	last, i := 0, 0
	for i < len(s) {
		if !isHex(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isHex(s[j]) {
			j++
		}
		// The 0 of an 0x already hidden with the run before it is not a prefix here.
		prefixed := i-2 >= last && i >= 2 && s[i-2] == '0' && (s[i-1] == 'x' || s[i-1] == 'X')
		if n := j - i; n >= KeyRun && (n != addressRun || !prefixed) {
			start := i
			if prefixed {
				start -= 2
			}
			b.WriteString(s[last:start])
			b.WriteString(Hidden)
			last = j
		}
		i = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// briefMax is the longest value Brief repeats whole, and briefHex the shortest run of hex
// digits that makes it shorten one: far from the 16 digits that would start to give a key away.
const (
	briefMax = 40
	briefHex = 12
)

// Brief is how a message about a malformed value (an address, a cloid, an amount, a URL, a
// name) names it: cleaned, whole when it is short and holds no long run of hex digits, else
// only its first and last 4 characters ("0x4c…2318"), so that a key pasted into the wrong place
// is never repeated.
func Brief(s string) string {
	s = Clean(s)
	if utf8.RuneCountInString(s) <= briefMax && longestHexRun(s) < briefHex {
		return s
	}
	r := []rune(s)
	if len(r) <= 8 {
		return s
	}
	return string(r[:4]) + "…" + string(r[len(r)-4:])
}

// Quote is Brief in double quotes, for messages: value "0x4c…2318" is not an address.
func Quote(s string) string { return `"` + Brief(s) + `"` }

func longestHexRun(s string) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if isHex(s[i]) {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
