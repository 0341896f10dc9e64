package daily

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/report"
)

// TestCandlesFromZeroToNet (issue #41): each day's bar runs from zero to its net (realised less
// fees plus funding), its wick out to the realised PnL on either side, its fees (a rebate too) as
// the volume beneath. Guards: a bar from the realised PnL instead of zero (a loss day drawn as a
// gain), a rebate drawn as negative volume.
func TestCandlesFromZeroToNet(t *testing.T) {
	d := decimal.RequireFromString
	days := []report.Day{
		{Date: "2026-11-25", Realised: d("10"), Fees: d("4"), Funding: d("-1"), Net: d("5")},
		{Date: "2026-11-26", Realised: d("-3"), Fees: d("-0.5"), Funding: d("0"), Net: d("-2.5")},
		{Date: "2026-11-27"},
	}
	cs := Candles(days)
	want := []struct{ open, close, high, low, vol string }{{"0", "5", "10", "0", "4"}, {"0", "-2.5", "0", "-3", "0.5"}, {"0", "0", "0", "0", "0"}}
	for i, w := range want {
		c := cs[i]
		if !c.Open.Equal(d(w.open)) || !c.Close.Equal(d(w.close)) || !c.High.Equal(d(w.high)) || !c.Low.Equal(d(w.low)) || !c.Volume.Equal(d(w.vol)) ||
			c.Time.UTC().Format("2006-01-02") != days[i].Date {
			t.Errorf("day %d: %+v, want %+v", i, c, w)
		}
	}
}
