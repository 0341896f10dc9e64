package text

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

const key = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

func TestClean(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"BTC-PERP", "BTC-PERP"},
		{"", ""},
		{"BTC\x1b]0;TITLE\a-PERP", `BTC\u001b]0;TITLE\u0007-PERP`},
		{"\x1b[2J\x1b[41m", `\u001b[2J\u001b[41m`},
		{"a\tb\nc\rd", "a b c d"},
		{"del\x7f", `del\u007f`},
		{"csi\u009b2J osc\u009d", `csi\u009b2J osc\u009d`},
		{"bad \xff\xfe utf8", "bad \ufffd\ufffd utf8"},
		{"rtl \u202eevil", `rtl \u202eevil`},
		{"line\u2028sep", "line sep"},
		{"Ünïcödé ✓ 日本", "Ünïcödé ✓ 日本"},
	} {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCleanLinesKeepsLines(t *testing.T) {
	in := "head\n\tx\x1b[2J\r\n"
	if got, want := CleanLines(in), "head\n\tx\\u001b[2J \n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestCleanAllocatesNothingWhenClean guards the console's hot paths: clean text costs a scan.
func TestCleanAllocatesNothingWhenClean(t *testing.T) {
	s := "BTC-PERP 日本 0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
	if n := testing.AllocsPerRun(100, func() { _ = Clean(s) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}

func TestHideKeys(t *testing.T) {
	addr := "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
	for _, tc := range []struct{ in, want string }{
		{"key 0x" + key + " end", "key " + Hidden + " end"},
		{"cut " + key[:50] + "…", "cut " + Hidden + "…"},
		{"32 digits " + key[:32], "32 digits " + Hidden},
		{"31 digits " + key[:31], "31 digits " + key[:31]},
		{"address " + addr, "address " + addr},
		{strings.ToUpper(key) + "/" + key[:41], Hidden + "/" + Hidden},
		{"plain words, 0xdeadbeef", "plain words, 0xdeadbeef"},
		{"40 digits without 0x " + key[:40], "40 digits without 0x " + Hidden},
		{key[:31] + "0x" + key[:32], Hidden + "x" + Hidden}, // found by FuzzClean: the 0 ends the first run
	} {
		if got := HideKeys(tc.in); got != tc.want {
			t.Errorf("HideKeys(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestBrief(t *testing.T) {
	if got := Brief("0x" + key); got != "0x4c…2318" {
		t.Errorf("Brief(key) = %q", got)
	}
	for in, want := range map[string]string{
		"abc":                              "abc",
		"SOLANA-PERPETUAL-FUTURES":         "SOLANA-PERPETUAL-FUTURES",
		"0x2c7536E3605D9C16a7a3D7b1898e52": "0x2c…8e52",
		"b71c71a67e11":                     "b71c…7e11",
		"b71c71a67e1":                      "b71c71a67e1",
		strings.Repeat("x", 41):            "xxxx…xxxx",
	} {
		if got := Brief(in); got != want {
			t.Errorf("Brief(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Quote("\x1b[2J"); got != `"\u001b[2J"` {
		t.Errorf("Quote = %q", got)
	}
}

func TestWriter(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b, true)
	in := "error: \x1b]52;c;QUJD\a bad key " + key + "\n"
	n, err := w.Write([]byte(in))
	if err != nil || n != len(in) {
		t.Fatalf("Write: %d, %v", n, err)
	}
	if got, want := b.String(), `error: \u001b]52;c;QUJD\u0007 bad key `+Hidden+"\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// FuzzClean: whatever comes in, the result holds no control character, is valid UTF-8, is one
// line, is stable under a second Clean, and its escapes are still valid inside a JSON string.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"BTC\x1b]0;T\a", "\u009b2J", "\xff", "a\nb", "\u202e", key} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Clean(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 in %q", out)
		}
		for _, r := range out {
			if r < 0x20 || (r >= 0x7f && r <= 0x9f) {
				t.Fatalf("control %U in %q", r, out)
			}
		}
		for _, r := range CleanLines(s) {
			if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
				t.Fatalf("CleanLines leaves control %U", r)
			}
		}
		if Clean(out) != out {
			t.Fatalf("not stable: %q", out)
		}
		var back string
		if err := json.Unmarshal([]byte(`"`+strings.ReplaceAll(strings.ReplaceAll(out, `\`, `\\`), `"`, `\"`)+`"`), &back); err != nil {
			t.Fatalf("not JSON-safe: %v", err)
		}
		if n := longestHexRun(Brief(s)); n >= briefHex {
			t.Fatalf("Brief keeps a run of %d hex digits: %q", n, Brief(s))
		}
		h := HideKeys(s)
		for i := 0; i < len(h); {
			j := i
			for j < len(h) && isHex(h[j]) {
				j++
			}
			if n := j - i; n >= KeyRun && (n != addressRun || i < 2 || !strings.EqualFold(h[i-2:i], "0x")) {
				t.Fatalf("a %d-digit run survives in %q", n, h)
			}
			i = max(j, i+1)
		}
	})
}
