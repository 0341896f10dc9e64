package report

import (
	"strconv"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// TestOldestFirstSortsAStableCopy: fills as the console holds them (newest first) come out by
// time, then trade id; two with the same time and trade id keep their order; the input is left
// as it was. Guards the index sort that replaced moving whole fills.
func TestOldestFirstSortsAStableCopy(t *testing.T) {
	at := func(s int) api.Time { return api.Time{Time: time.Unix(1_769_000_000+int64(s), 0)} }
	in := []api.Fill{
		{TradeID: 5, OrderID: 1, BlockTime: at(3)}, {TradeID: 4, OrderID: 2, BlockTime: at(3)},
		{TradeID: 9, OrderID: 3, BlockTime: at(2)}, {TradeID: 7, OrderID: 4, BlockTime: at(2)},
		{TradeID: 7, OrderID: 5, BlockTime: at(2)}, {TradeID: 1, OrderID: 6, BlockTime: at(1)},
	}
	before := append([]api.Fill(nil), in...)
	got := oldestFirst(in)
	want := []api.OrderID{6, 4, 5, 3, 2, 1}
	for i, f := range got {
		if f.OrderID != want[i] {
			t.Fatalf("order ids %v, want %v", orderIDs(got), want)
		}
	}
	if orderIDs(in) != orderIDs(before) {
		t.Fatalf("the input was reordered: %v", orderIDs(in))
	}
}

func orderIDs(fs []api.Fill) string {
	s := ""
	for _, f := range fs {
		s += strconv.Itoa(int(f.OrderID)) + " "
	}
	return s
}

// BenchmarkTripsOf10000Fills groups the console's bound of fills (state.MaxPagedRows), newest
// first as the store holds them: what the trades pane works out when they change.
func BenchmarkTripsOf10000Fills(b *testing.B) {
	fills := make([]api.Fill, 10_000)
	for i := range fills {
		side := api.SideBuy
		if i%3 == 0 {
			side = api.SideSell
		}
		fills[i] = api.Fill{TradeID: api.TradeID(20_000 - i), OrderID: api.OrderID(20_000 - i), InstrumentID: 1, Instrument: "BTC-PERP",
			Side: side, Size: decimal.RequireFromString("0.01"), Price: decimal.NewFromInt(97_000 + int64(i%50)),
			BlockTime: api.Time{Time: time.Unix(1_769_000_000-int64(i), 0)}}
	}
	b.ReportAllocs()
	for b.Loop() {
		Trips(fills, nil)
	}
}
