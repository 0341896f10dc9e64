package action

import (
	"context"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
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

// TestOrderWordsSayTheCost (issue #41): a filled order's status line says its slippage against
// the preview's average and its fee in one phrase. Guards the arrival dropped between the
// executor's result and the words.
func TestOrderWordsSayTheCost(t *testing.T) {
	d := decimal.RequireFromString
	in := state.Instrument{Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.0001")}
	a := &Action{Kind: KindPlace, What: "buy", Order: state.CheckedOrder{Wire: api.OrderWire{Side: api.SideBuy, Tif: api.TifIOC, IsMarket: true}, Instrument: in}}
	r := exec.Result{Kind: exec.Placed, Outcome: state.Outcome{Kind: state.OutcomeFilled, Oid: 5, Requested: d("0.5"), Filled: d("0.5"),
		AvgPrice: api.OptDecimal{Decimal: d("97012.3"), Valid: true}}, Fee: api.OptDecimal{Decimal: d("4.85"), Valid: true},
		Arrival: journal.Arrival{Mid: d("97000"), Expected: d("97000.7")}}
	got, _ := Words(DoneMsg{Act: a, Out: Outcome{Result: r}})
	if want := "order 5 filled 0.5000 at 97,012.3 avg: buy, slip +1.2 bp vs preview, fee 4.85 USD"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	// The fills' line (which says the fee) takes the slippage from the tail when it comes first.
	a.Run = func(context.Context, Executor, exec.Ask) (Outcome, error) { return Outcome{}, nil }
	if _, tail, ok := FilledOrder(DoneMsg{Act: a, Out: Outcome{Result: r}}); !ok || tail != ", slip +1.2 bp vs preview" {
		t.Errorf("tail %q, want the slippage", tail)
	}
}
