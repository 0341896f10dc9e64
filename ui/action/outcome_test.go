package action

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// TestFilledOutcomeSaysTheRemainder (issue #23, case 5): a partly filled order's answer says the
// filled size of the requested size, the average, and the remainder's fate. Guards the resting
// and cancelled words swapped, and the remainder said when all of it filled. Every figure is in the
// one number style (QA item 10): sizes at the lot, the average at the tick with separators.
func TestFilledOutcomeSaysTheRemainder(t *testing.T) {
	d := decimal.RequireFromString
	avg := api.OptDecimal{Decimal: d("97216.6"), Valid: true}
	for _, tc := range []struct {
		o    state.Outcome
		want string
	}{
		{state.Outcome{Kind: state.OutcomeFilled, Oid: 5, Requested: d("0.1"), Filled: d("0.1"), AvgPrice: avg},
			"order 5 filled 0.1000 at 97,216.6 avg: buy"},
		{state.Outcome{Kind: state.OutcomeFilled, Oid: 5, Requested: d("0.1"), Filled: d("0.04"), AvgPrice: avg, Resting: true},
			"order 5 filled 0.0400 of 0.1000 at 97,216.6 avg; 0.0600 resting: buy"},
		{state.Outcome{Kind: state.OutcomeFilled, Oid: 5, Requested: d("0.1"), Filled: d("0.04"), AvgPrice: avg},
			"order 5 filled 0.0400 of 0.1000 at 97,216.6 avg; 0.0600 cancelled: no more liquidity within the slippage bound: buy"},
		{state.Outcome{Kind: state.OutcomeFilled, Oid: 5, Requested: d("0.1"), Filled: d("0.1"),
			AvgPrice: api.OptDecimal{Decimal: d("97216.6125"), Valid: true}}, "order 5 filled 0.1000 at 97,216.6 avg: buy"},
	} {
		in := state.Instrument{Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.0001")}
		a := &Action{What: "buy", Order: state.CheckedOrder{Wire: api.OrderWire{Tif: api.TifIOC, IsMarket: true}, Instrument: in}}
		if got, failed := orderOutcomeText(tc.o, a); got != tc.want || failed {
			t.Errorf("%+v: %q (failed %v), want %q", tc.o, got, failed, tc.want)
		}
	}
}
