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

// TestMovedForTheBuyer: the same second check for a buy, whose worse prices are higher ones: a
// limit price or a book's average up asks again, down does not. Guards a check that reads every
// order as a sell.
func TestMovedForTheBuyer(t *testing.T) {
	in := Instrument{Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001")}
	base := CheckedOrder{Wire: api.OrderWire{Side: api.SideBuy}, Instrument: in, Price: d("97000"), Size: d("0.5"),
		Preview: Preview{Walk: BookWalk{Known: true, Fills: d("0.5"), AvgPrice: d("96990")}}}
	for _, tc := range []struct {
		name string
		edit func(*CheckedOrder)
		want string
	}{
		{"price down (the buyer's favour)", func(c *CheckedOrder) { c.Price = d("96900") }, ""},
		{"price up", func(c *CheckedOrder) { c.Price = d("97100") }, "the price moved from 97,000.0 to 97,100.0"},
		{"average down", func(c *CheckedOrder) { c.Preview.Walk.AvgPrice = d("96980") }, ""},
		{"average up", func(c *CheckedOrder) { c.Preview.Walk.AvgPrice = d("96995") }, "the book's average fill moved from 96,990.0 to 96,995.0"},
		{"fills more", func(c *CheckedOrder) { c.Preview.Walk.Fills = d("0.6") }, ""},
	} {
		fresh := base
		tc.edit(&fresh)
		if got := strings.Join(base.Moved(fresh), "; "); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	unknown := base
	unknown.Preview.Walk = BookWalk{}
	if got := strings.Join(unknown.Moved(base), "; "); got != "the book's fill changed" {
		t.Errorf("a book now known: %q", got)
	}
	if got := unknown.Moved(unknown); len(got) != 0 {
		t.Errorf("an unknown book that stays unknown: %q", got)
	}
}

// TestBracketMovedSaysItsLegs (issue #31 #6): a bracket is asked again when its entry moved, a
// take-profit or stop-loss measured from the expected fill moved with it, or its stop now lies
// past the liquidation price; not when nothing did, nor when a stop past the liquidation price is
// no longer past it, or was already past it when confirmed. Guards a bracket whose legs move while the confirmation is read.
func TestBracketMovedSaysItsLegs(t *testing.T) {
	in := Instrument{Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001")}
	base := CheckedBracket{Entry: CheckedOrder{Wire: api.OrderWire{Side: api.SideBuy, IsMarket: true}, Instrument: in, Price: d("98000"), Size: d("0.1")},
		TP: d("99000"), SL: d("96000"), Liq: d("90000")}
	for _, tc := range []struct {
		name string
		edit func(*CheckedBracket)
		want string
	}{
		{"the same", func(*CheckedBracket) {}, ""},
		{"take-profit", func(c *CheckedBracket) { c.TP = d("99100") }, "the take-profit moved from 99,000.0 to 99,100.0"},
		{"stop-loss", func(c *CheckedBracket) { c.SL = d("95900") }, "the stop-loss moved from 96,000.0 to 95,900.0"},
		{"past liquidation", func(c *CheckedBracket) { c.StopPastLiq, c.Liq = true, d("96500") }, "the stop-loss now lies past the liquidation price 96,500.0"},
		{"entry", func(c *CheckedBracket) { c.Entry.Price = d("98100") }, "the worst price moved from 98,000.0 to 98,100.0"},
	} {
		fresh := base
		tc.edit(&fresh)
		if got := strings.Join(base.Moved(fresh), "; "); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	past := base
	past.StopPastLiq = true
	if got := past.Moved(base); len(got) != 0 {
		t.Errorf("a stop no longer past the liquidation price: %q", got)
	}
	if got := past.Moved(past); len(got) != 0 {
		t.Errorf("a stop past the liquidation price, confirmed so: %q", got)
	}
}

// TestPositionTpslAndLeverageMoved (issue #31 #6 for a position's legs and leverage): asked again
// when the position's size or a leg's price moved, a stop now lies past the liquidation price, the
// leverage in force changed or the position opened or closed; not when only the mark's figures
// moved. Guards the take-profit and stop-loss and the leverage change sent as first shown.
func TestPositionTpslAndLeverageMoved(t *testing.T) {
	in := Instrument{Name: "ETH-PERP", TickSize: d("0.1"), LotSize: d("0.01")}
	base := PositionTpsl{Instrument: in, Position: api.Position{Size: d("2")}, TP: d("3100"), SL: d("2900"), Mark: d("3000"), Liq: d("2000")}
	for _, tc := range []struct {
		name string
		edit func(*PositionTpsl)
		want string
	}{
		{"the mark", func(p *PositionTpsl) { p.Mark = d("3010") }, ""},
		{"size", func(p *PositionTpsl) { p.Position.Size = d("3") }, "the position is now 3.00, not 2.00"},
		{"take-profit", func(p *PositionTpsl) { p.TP = d("3110") }, "the take-profit moved from 3,100.0 to 3,110.0"},
		{"stop-loss", func(p *PositionTpsl) { p.SL = d("2910") }, "the stop-loss moved from 2,900.0 to 2,910.0"},
		{"past liquidation", func(p *PositionTpsl) { p.StopPastLiq, p.Liq = true, d("2950") }, "the stop-loss now lies past the liquidation price 2,950.0"},
	} {
		fresh := base
		tc.edit(&fresh)
		if got := strings.Join(base.Moved(fresh), "; "); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	lev := LeverageChange{Instrument: in, Current: d("5"), New: d("10"), Notional: d("6000"), MarginNow: d("1200")}
	for _, tc := range []struct {
		name string
		edit func(*LeverageChange)
		want string
	}{
		{"the mark", func(c *LeverageChange) { c.Notional, c.MarginNow = d("6020"), d("1204") }, ""},
		{"in force", func(c *LeverageChange) { c.Current = d("8") }, "the leverage in force is now 8x, not 5x"},
		{"closed", func(c *LeverageChange) { c.Notional = d("0") }, "the ETH-PERP position opened or closed"},
	} {
		fresh := lev
		tc.edit(&fresh)
		if got := strings.Join(lev.Moved(fresh), "; "); got != tc.want {
			t.Errorf("leverage, %s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
