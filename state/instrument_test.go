package state

import (
	"testing"

	"github.com/shopspring/decimal"
)

// TestStepDecimals: the decimals a tick or lot needs, trailing zeros ignored, and no allocation
// for a step of up to 18 digits (every price and size a pane formats asks, so a ticker update of
// 500 instruments asked thousands of times through big.Int). Guards: the big.Int path for every
// step again; a wrong count past the trailing zeros.
func TestStepDecimals(t *testing.T) {
	for s, want := range map[string]int32{"0.010": 2, "5": 0, "100": 0, "0.1": 1, "0.00001": 5, "0.000": 3, "2.50": 1,
		"0.1000000000000000000000": 1, "0.1234567890123456789012": 22, "1e-30": 30} {
		if got := StepDecimals(decimal.RequireFromString(s)); got != want {
			t.Errorf("StepDecimals(%s) = %d, want %d", s, got, want)
		}
	}
	for _, s := range []string{"0.001", "0.50", "1"} {
		d := decimal.RequireFromString(s)
		if n := testing.AllocsPerRun(20, func() { StepDecimals(d) }); n != 0 {
			t.Errorf("StepDecimals(%s): %.0f allocations, want none", s, n)
		}
	}
}
