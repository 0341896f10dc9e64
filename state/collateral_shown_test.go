package state

import (
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// TestCollateralShown: a collateral shows as its symbol at its display precision (2 places for a
// dollar stablecoin, the asset's own else), and as "#id" at 8 places before the list loads or
// for an id the list lacks.
func TestCollateralShown(t *testing.T) {
	s := New(nil)
	if sym, places := s.CollateralShown(5); sym != "#5" || places != 8 {
		t.Errorf("before the list: %q at %d places, want #5 at 8", sym, places)
	}
	s.Apply(CollateralMsg{Collateral: []api.Collateral{{ID: 0, Symbol: "USDC", Decimals: 6}, {ID: 5, Symbol: "HYPE", Decimals: 5}}})
	for _, c := range []struct {
		id     api.CollateralID
		sym    string
		places int32
	}{{0, "USDC", 2}, {5, "HYPE", 5}, {9, "#9", 8}} {
		if sym, places := s.CollateralShown(c.id); sym != c.sym || places != c.places {
			t.Errorf("collateral %d: %q at %d places, want %q at %d", c.id, sym, places, c.sym, c.places)
		}
	}
}
