package api

import (
	"strings"
	"testing"
)

func TestRedactSignature(t *testing.T) {
	sig := "0x" + strings.Repeat("c0ffee", 21) + "1b1b"
	for in, want := range map[string]string{
		sig:       "0xc0ffee…(132 chars)",
		"":        "…(0 chars)",
		"0x12":    "…(4 chars)",
		"0x12345": "…(7 chars)",
	} {
		if got := RedactSignature(in); got != want {
			t.Errorf("RedactSignature(%.12q) = %q, want %q", in, got, want)
		}
	}
}

// TestDebugBodyRedactsAcrossTheCut places a signature at every offset around the 2 KB cut: no
// more than 19 of its hex digits may survive, and the body never grows past the limit plus the
// length note.
func TestDebugBodyRedactsAcrossTheCut(t *testing.T) {
	hexSig := strings.Repeat("9a", 65)
	for _, field := range []bool{true, false} {
		for pad := DebugBodyLimit - 200; pad < DebugBodyLimit+600; pad += 7 {
			body := `{"x":"` + strings.Repeat("z", pad) + `",`
			if field {
				body += `"signature":"0x` + hexSig + `","nonce":1}`
			} else {
				body += `"note":"0x` + hexSig + `"}`
			}
			got := debugBody([]byte(body))
			if strings.Contains(got, hexSig[:20]) {
				t.Fatalf("field %v pad %d: 20 hex digits of the signature survived: …%s", field, pad, got[max(0, len(got)-200):])
			}
			if len(got) > DebugBodyLimit+40 {
				t.Fatalf("pad %d: body of %d bytes, over the limit", pad, len(got))
			}
		}
	}
	if got := debugBody([]byte(`{"a":1}`)); got != `{"a":1}` {
		t.Errorf("a short body changed: %s", got)
	}
	if got := debugBody(nil); got != "" {
		t.Errorf("no body = %q", got)
	}
}
