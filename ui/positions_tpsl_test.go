package ui

import "testing"

// The positions pane's TP/SL column writes prices short enough for its 13 columns. Guards a
// price shown in thousands without its k, and one cut to fewer digits than it needs.
func TestShortPx(t *testing.T) {
	for in, want := range map[string]string{"99282.5": "99.28k", "10000": "10k", "3547.12": "3547.1", "189.052": "189.05",
		"0.38": "0.38", "0.000123": "0.00012", "0": "-", "120000": "120k"} {
		if got := shortPx(d(in)); got != want {
			t.Errorf("shortPx(%s) = %q, want %q", in, got, want)
		}
	}
}
