package redact

import (
	"bytes"
	"strings"
	"testing"
)

const key = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

func TestWriterHidesSecrets(t *testing.T) {
	for _, tc := range []struct {
		name    string
		keyLike bool
		in      string
		want    string
	}{
		{"exact", false, "key " + key + " end", "key " + Hidden + " end"},
		{"0x upper", false, "--address 0X" + strings.ToUpper(key) + ": bad", "--address " + Hidden + ": bad"},
		{"inside a path", false, "open /tmp/" + key + "/x: no such file", "open /tmp/" + Hidden + "/x: no such file"},
		{"twice", false, key + "-" + key[:10] + " " + key, Hidden + "-" + key[:10] + " " + Hidden},
		{"cut short", false, `network "` + key[:40] + `…"`, `network "` + Hidden + `…"`},
		{"middle part", false, "x" + strings.ToUpper(key[20:37]) + "y", "x" + Hidden + "y"},
		{"part of the passphrase under 16", false, "wrong correct horse", "wrong correct horse"},
		{"part of the passphrase over 16", false, "wrong correct horse battery", "wrong " + Hidden},
		{"key-like on the error stream", true, "unknown theme \"0x" + strings.Repeat("ab", 32) + "\"", "unknown theme \"" + Hidden + "\""},
		{"65 digits hold a key", true, strings.Repeat("a", 65), Hidden},
		{"a key cut to 50 digits", true, "value \"" + strings.Repeat("ab", 25) + "…\"", "value \"" + Hidden + "…\""},
		{"31 digits are not a key", true, strings.Repeat("a", 31), strings.Repeat("a", 31)},
		{"address kept", true, "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23", "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			w := NewWriter(&b, tc.keyLike, "0x"+key, "", "short", "correct horse battery staple")
			n, err := w.Write([]byte(tc.in))
			if err != nil || n != len(tc.in) {
				t.Fatalf("Write: %d, %v", n, err)
			}
			if b.String() != tc.want {
				t.Errorf("got  %q\nwant %q", b.String(), tc.want)
			}
		})
	}
}

func TestPassphraseHidden(t *testing.T) {
	w := NewWriter(&bytes.Buffer{}, false, "correct horse battery staple")
	if got := w.String("passphrase Correct Horse Battery Staple refused"); got != "passphrase "+Hidden+" refused" {
		t.Errorf("%q", got)
	}
}

func FuzzWriter(f *testing.F) {
	f.Add("key " + key + " 0x" + key)
	f.Add("")
	f.Add("0x0x0x")
	f.Fuzz(func(t *testing.T, s string) {
		w := NewWriter(&bytes.Buffer{}, true, key)
		out := w.String(s)
		if lo := asciiLower(out); strings.Contains(lo, key[:16]) || strings.Contains(lo, key[48:]) {
			t.Errorf("the key survives in %q", out)
		}
	})
}
