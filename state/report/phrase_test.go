package report

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/journal"
)

// TestPhrase (issue #41): the result line's cost phrase measures against the preview's average,
// else the arrival mid, against the trader on either side, and says the fee; each part only when
// known. Guards: a sell's slippage with the buy's sign, the mid used when the preview is known.
func TestPhrase(t *testing.T) {
	d := decimal.RequireFromString
	avg := api.OptDecimal{Decimal: d("100.02"), Valid: true}
	fee := api.OptDecimal{Decimal: d("4.85"), Valid: true}
	for _, c := range []struct {
		side string
		a    journal.Arrival
		fee  api.OptDecimal
		want string
	}{
		{api.SideBuy, journal.Arrival{Mid: d("99"), Expected: d("100")}, fee, "slip +2.0 bp vs preview, fee 4.85 USD"},
		{api.SideSell, journal.Arrival{Mid: d("99"), Expected: d("100")}, fee, "slip -2.0 bp vs preview, fee 4.85 USD"},
		{api.SideBuy, journal.Arrival{Mid: d("100")}, fee, "slip +2.0 bp vs mid, fee 4.85 USD"},
		{api.SideBuy, journal.Arrival{}, fee, "fee 4.85 USD"},
		{api.SideBuy, journal.Arrival{Expected: d("100")}, api.OptDecimal{}, "slip +2.0 bp vs preview"},
		{api.SideBuy, journal.Arrival{}, api.OptDecimal{}, ""},
	} {
		if got := Phrase(c.side, avg, c.a, c.fee); got != c.want {
			t.Errorf("%s %+v: %q, want %q", c.side, c.a, got, c.want)
		}
	}
}
