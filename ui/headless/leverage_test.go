package headless

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestLeverageRead: leverage --instrument alone reads the leverage in force (the default, then
// what was set), as text and JSON, and sends nothing; --leverage 0 and a spot pair are refused.
func TestLeverageRead(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	out := h.ok("leverage", "--instrument", "BTC-PERP")
	if !strings.HasPrefix(out, "leverage on BTC-PERP: ") || !strings.Contains(out, "tier maximum") {
		t.Fatalf("read: %q", out)
	}
	h.ok("leverage", "--instrument", "BTC-PERP", "--leverage", "7")
	var j leverageJSON
	if err := json.Unmarshal([]byte(h.ok("leverage", "--instrument", "BTC-PERP", "--json")), &j); err != nil ||
		j.Instrument != "BTC-PERP" || j.Leverage.String() != "7" || !j.Set || !j.Max.IsPositive() {
		t.Fatalf("read --json: %+v %v", j, err)
	}
	if out := h.ok("leverage", "--instrument", "BTC-PERP"); !strings.Contains(out, ": 7x (set, ") {
		t.Fatalf("read after set: %q", out)
	}
	if code, _, errs := h.run("leverage", "--instrument", "BTC-PERP", "--leverage", "0"); code != ExitUsage || !strings.Contains(errs, "--leverage 0") {
		t.Fatalf("--leverage 0: %d %q", code, errs)
	}
	var es []journalJSON
	if err := json.Unmarshal([]byte(h.ok("journal", "--json")), &es); err != nil {
		t.Fatal(err)
	}
	if len(es) > 1 {
		t.Fatalf("a read journaled something: %+v", es)
	}
}
