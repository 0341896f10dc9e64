package state

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// TestCloseSizeRoundsDownToTheLotAndNeverFlips: a share rounds down to the lot, 100 % and a size
// equal to the position are the position exactly, and a size over it or under one lot is refused
// saying what to give.
func TestCloseSizeRoundsDownToTheLotAndNeverFlips(t *testing.T) {
	d := decimal.RequireFromString
	lot := d("0.001")
	for _, c := range []struct{ held, pct, size, want, err string }{
		{"0.123", "25", "0", "0.03", ""},
		{"0.123", "50", "0", "0.061", ""},
		{"0.123", "75", "0", "0.092", ""},
		{"0.123", "100", "0", "0.123", ""},
		{"0.123", "0", "0.123", "0.123", ""},
		{"0.123", "0", "0.05", "0.05", ""},
		{"0.123", "0", "0.0505", "0.05", ""},
		{"0.123", "0", "0.2", "", "give at most 0.123"},
		{"0.003", "25", "0", "", "less than one lot"},
		{"0.123", "150", "0", "", "more than the whole position"},
		{"0", "50", "0", "", "no position"},
	} {
		got, err := CloseSize(d(c.held), lot, d(c.pct), d(c.size))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%+v: %v, want %q", c, err, c.err)
			}
			continue
		}
		if err != nil || !got.Equal(d(c.want)) || got.GreaterThan(d(c.held)) {
			t.Errorf("%+v: %s %v, want %s", c, got, err, c.want)
		}
	}
}

// TestFlattenSummary: one line sums the children, and the PnL and fee of those that filled.
func TestFlattenSummary(t *testing.T) {
	dd := decimal.RequireFromString
	got := FlattenSummary([]FlattenChild{{Instrument: "A", Filled: true, PnL: dd("-3"), Fee: dd("0.5")}, {Instrument: "B", Filled: true, PnL: dd("1"), Fee: dd("0.25")},
		{Instrument: "C", Refused: true, Reason: "delisted", PnL: dd("100")}, {Instrument: "D"}})
	if want := "4 sent, 2 filled, 1 not filled yet, 1 refused: C delisted; the filled realise -2.00 USD, fee 0.75 USD (est.)"; got != want {
		t.Fatalf("%q, want %q", got, want)
	}
}

// TestRealisedSign: a short gains when the price falls.
func TestRealisedSign(t *testing.T) {
	d := decimal.RequireFromString
	if got := Realised(api.Position{Size: d("-2"), EntryPrice: d("100")}, d("1"), d("90")); !got.Equal(d("10")) {
		t.Fatalf("a short closed 10 under its entry realises %s", got)
	}
	if got := Realised(api.Position{Size: d("2"), EntryPrice: d("100")}, d("1"), d("90")); !got.Equal(d("-10")) {
		t.Fatalf("a long closed 10 under its entry realises %s", got)
	}
}
