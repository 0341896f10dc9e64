package trades

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/state/report"
)

// TestLegsAndDuration (issue #41): a trip's fills read as open + adds + closes ("earlier" for a
// position opened before the first fill loaded), and its length in its two largest units.
// Guards: the open counted among the adds, a day's length in hours only.
func TestLegsAndDuration(t *testing.T) {
	if got := legsText(&report.Trip{Fills: 6, Adds: 3, Closes: 2}); got != "1+3+2" {
		t.Errorf("legs %q", got)
	}
	if got := legsText(&report.Trip{Before: true, Adds: 1, Closes: 1}); got != "earlier+1+1" {
		t.Errorf("opened earlier: %q", got)
	}
	for d, want := range map[time.Duration]string{
		12 * time.Second: "12s", 4*time.Minute + 10*time.Second: "4m 10s", 2*time.Hour + 5*time.Minute: "2h 5m", 76 * time.Hour: "3d 4h",
	} {
		if got := durationText(d); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}
