// Package redact keeps private keys out of what tradedesk writes: a writer that hides the known
// secrets (the key and passphrase from the environment) wherever they appear, and, on the error
// stream, anything shaped like a private key (text.HideKeys: a run of 32 or more hex digits that
// is not an address), which is what a key pasted into the wrong flag or config setting looks like
// when an error message repeats it, whole or cut short.
package redact

import (
	"io"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
)

// Hidden replaces a secret in the output.
const Hidden = text.Hidden

// Writer hides secrets in everything written through it.
type Writer struct {
	w       io.Writer
	secrets []string // lower case, without 0x
	keyLike bool
}

// NewWriter wraps w. secrets are hidden wherever they appear, in any case and with or without 0x
// (empty strings and secrets under 8 characters are ignored: they would hide ordinary words).
// With keyLike, every run shaped like a key is hidden too (text.HideKeys; a transaction hash has
// the same shape, so only the error stream hides these).
func NewWriter(w io.Writer, keyLike bool, secrets ...string) *Writer {
	out := &Writer{w: w, keyLike: keyLike}
	for _, s := range secrets {
		s = asciiLower(strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(s), "0x"), "0X"))
		if len(s) >= 8 {
			out.secrets = append(out.secrets, s)
		}
	}
	return out
}

// Write implements io.Writer. It reports len(p) written when the redacted text was written
// whole. A secret split across two Write calls is not seen: callers write whole lines.
func (r *Writer) Write(p []byte) (int, error) {
	s := r.String(string(p))
	if _, err := io.WriteString(r.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// String returns s with the secrets hidden.
func (r *Writer) String(s string) string {
	for _, sec := range r.secrets {
		if len(sec) >= window {
			s = hideWindows(s, sec)
		} else {
			s = replaceFold(s, sec)
		}
	}
	if r.keyLike {
		s = text.HideKeys(s)
	}
	return s
}

// window is the shortest part of a long secret that is hidden: a key cut short in a message
// ("4c0883a69102937d…") is still most of the key.
const window = 16

// hideWindows hides every run of s that is a part of sec (lower case) at least window long, in
// any case, with a 0x before it if there is one.
func hideWindows(s, sec string) string {
	lower := asciiLower(s)
	var b strings.Builder
	last := 0
	for i := 0; i+window <= len(lower); {
		k := strings.Index(sec, lower[i:i+window])
		if k < 0 {
			i++
			continue
		}
		end, ke := i+window, k+window
		for end < len(lower) && ke < len(sec) && lower[end] == sec[ke] {
			end++
			ke++
		}
		start := i
		if start-2 >= last && lower[start-2:start] == "0x" {
			start -= 2
		}
		b.WriteString(s[last:start])
		b.WriteString(Hidden)
		last, i = end, end
	}
	b.WriteString(s[last:])
	return b.String()
}

// replaceFold replaces every case-insensitive occurrence of sec (lower case), with a 0x before it
// if there is one, by Hidden.
func replaceFold(s, sec string) string {
	lower := asciiLower(s)
	if !strings.Contains(lower, sec) {
		return s
	}
	var b strings.Builder
	i := 0
	for {
		j := strings.Index(lower[i:], sec)
		if j < 0 {
			break
		}
		start := i + j
		if start >= 2 && lower[start-2:start] == "0x" {
			start -= 2
		}
		b.WriteString(s[i:start])
		b.WriteString(Hidden)
		i = i + j + len(sec)
	}
	b.WriteString(s[i:])
	return b.String()
}

// asciiLower lowers A-Z only, so byte offsets stay those of s (strings.ToLower changes the length
// of invalid UTF-8).
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
