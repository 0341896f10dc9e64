package state

import (
	"testing"

	"github.com/shopspring/decimal"
)

// TestGroupPrice: the one grouping the book and the ladder's own orders share: a bid down to a
// multiple of the group, an ask up, a price on a multiple unchanged, no group no change.
func TestGroupPrice(t *testing.T) {
	d := decimal.RequireFromString
	for _, c := range []struct {
		px, group string
		bids      bool
		want      string
	}{
		{"99.7", "0.2", true, "99.6"}, {"99.7", "0.2", false, "99.8"}, {"99.6", "0.2", false, "99.6"},
		{"100.4", "1", true, "100"}, {"100.4", "1", false, "101"}, {"99.75", "0", true, "99.75"},
	} {
		if got := GroupPrice(d(c.px), d(c.group), c.bids); !got.Equal(d(c.want)) {
			t.Errorf("GroupPrice(%s by %s, bids %v) = %s, want %s", c.px, c.group, c.bids, got, c.want)
		}
	}
}
