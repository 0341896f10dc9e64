package headless

import (
	"strings"
	"testing"
)

// TestPositionCommandsSayWhatToFix: reverse and breakeven read --instrument alike (one
// positionInstrument): without it, or naming no instrument, each is a usage error that says what
// to give.
func TestPositionCommandsSayWhatToFix(t *testing.T) {
	t.Parallel() // its own simulator
	h := newHarness(t)
	for _, cmd := range []string{"reverse", "breakeven"} {
		code, _, errs := h.run(cmd)
		if code != ExitUsage || !strings.Contains(errs, "--instrument is required (a name like BTC-PERP, or btc)") {
			t.Errorf("%s without --instrument: exit %d, stderr %q", cmd, code, errs)
		}
		code, _, errs = h.run(cmd, "--instrument", "NOPE-PERP")
		if code != ExitUsage || !strings.Contains(errs, "--instrument: ") {
			t.Errorf("%s --instrument NOPE-PERP: exit %d, stderr %q", cmd, code, errs)
		}
	}
}
