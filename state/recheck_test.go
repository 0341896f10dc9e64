package state

import (
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestMovedSaysWhatTheTraderConfirmed (issue #31 #6): the second check on Enter asks again when
// the size changed, the price signed or the book's fill got worse for the trader, a warning came
// or went, or prices turned stale or fresh; not when a warning's figures moved with the mark or
// the price moved in the trader's favour. Guards a check that never asks again, and one that
// asks on every tick.
func TestMovedSaysWhatTheTraderConfirmed(t *testing.T) {
	in := Instrument{Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001")}
	base := CheckedOrder{Wire: api.OrderWire{Side: api.SideSell, IsMarket: true}, Instrument: in, Price: d("92000"), Size: d("0.5"),
		Preview:  Preview{Walk: BookWalk{Known: true, Fills: d("0.5"), AvgPrice: d("96990")}},
		Warnings: []string{"market sell of 48,500.00 USD is over the 25,000 USD market-order limit and may fill as far as 92,000.0"}}
	for _, tc := range []struct {
		name string
		edit func(*CheckedOrder)
		want string // "" : not moved
	}{
		{"the same", func(*CheckedOrder) {}, ""},
		{"a warning's figures moved", func(c *CheckedOrder) {
			c.Warnings = []string{"market sell of 48,510.50 USD is over the 25,000 USD market-order limit and may fill as far as 92,010.1"}
		}, ""},
		{"worst price up (the seller's favour)", func(c *CheckedOrder) { c.Price = d("92100") }, ""},
		{"worst price down", func(c *CheckedOrder) { c.Price = d("91900") }, "the worst price moved from 92,000.0 to 91,900.0"},
		{"size", func(c *CheckedOrder) { c.Size = d("0.4") }, "the size is now 0.400, not 0.500"},
		{"fills less", func(c *CheckedOrder) { c.Preview.Walk.Fills = d("0.3") }, "the book now fills 0.300 of 0.500 at once, not 0.500"},
		{"worse average", func(c *CheckedOrder) { c.Preview.Walk.AvgPrice = d("96900") }, "the book's average fill moved from 96,990.0 to 96,900.0"},
		{"book unknown", func(c *CheckedOrder) { c.Preview.Walk = BookWalk{} }, "the book's fill changed"},
		{"a warning came", func(c *CheckedOrder) { c.Warnings = append(c.Warnings, "price is 6% from the mark") }, "the warnings changed"},
		{"stale", func(c *CheckedOrder) { c.PricesStale = 12 * time.Second }, "prices are now 12s old"},
	} {
		fresh := base
		fresh.Warnings = append([]string(nil), base.Warnings...)
		tc.edit(&fresh)
		got := strings.Join(base.Moved(fresh), "; ")
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	stale := base
	stale.PricesStale = 30 * time.Second
	if got := strings.Join(stale.Moved(base), "; "); got != "prices are fresh again" {
		t.Errorf("fresh again: %q", got)
	}
}
