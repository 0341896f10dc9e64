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

// addressRun is the length of an address's hex run, which is shown: addresses are public and a
// trader must be able to read them.
const addressRun = 40

// HideKeys replaces every run of KeyRun or more hex digits (with the 0x before it, if any) by
// Hidden, except runs of exactly 40 digits (addresses). It is for echoes of what the user typed
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
		if n := j - i; n >= KeyRun && n != addressRun {
			start := i
			if start >= 2 && s[start-2] == '0' && (s[start-1] == 'x' || s[start-1] == 'X') {
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

// briefMax is the longest value Brief repeats whole: too short to hold a useful part of a key.
const briefMax = 12

// Brief is how a message about a malformed value (an address, a cloid, an amount, a URL) names
// it: cleaned, and when longer than 12 characters only its first and last 4, so that a key
// pasted into the wrong place is never repeated ("0x4c…2318").
func Brief(s string) string {
	s = Clean(s)
	if utf8.RuneCountInString(s) <= briefMax {
		return s
	}
	r := []rune(s)
	return string(r[:4]) + "…" + string(r[len(r)-4:])
}

// Quote is Brief in double quotes, for messages: value "0x4c…2318" is not an address.
func Quote(s string) string { return `"` + Brief(s) + `"` }
