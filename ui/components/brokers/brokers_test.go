package brokers

import (
	"strings"
	"testing"
)

// TestApprovalLineSaysWhatToFix: the approval line takes "0xBROKER RATE" (a fraction or a
// percent, at most 1%) and names the part to fix otherwise; the address comes back checksummed.
func TestApprovalLineSaysWhatToFix(t *testing.T) {
	b, r, why := parseApproval("0x7d2b6a4b38bfe8f3bf4a1ec0f2a3e5da1c9b4e10 0.1%")
	if why != "" || b != "0x7D2B6A4b38bFe8f3bf4A1ec0F2A3E5DA1c9b4e10" || r != "0.001" {
		t.Fatalf("a good line: %q %q %q", b, r, why)
	}
	for line, want := range map[string]string{
		"0x7d2b6a4b38bfe8f3bf4a1ec0f2a3e5da1c9b4e10": "type the broker's address and its max fee rate",
		"0xnope 0.1%": "broker address:",
		"0x7d2b6a4b38bfe8f3bf4a1ec0f2a3e5da1c9b4e10 5%": "max fee rate:",
	} {
		if _, _, why := parseApproval(line); !strings.HasPrefix(why, want) {
			t.Errorf("%q: %q, want it to start %q", line, why, want)
		}
	}
}
