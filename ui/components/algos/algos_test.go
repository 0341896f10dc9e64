package algos

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestTheViewShowsRunningFirstAndTheHistorysFills: a running chase from the feed is listed
// before the journal's finished scale; its filled/target, average, slippage in bp and ticks and
// working price are shown; the finished scale shows the fills its journal detail states, with its
// average and slippage from its arrival price; an earlier run's algorithm still running shows
// "?/" (its fills are not known here until the start's survey).
func TestTheViewShowsRunningFirstAndTheHistorysFills(t *testing.T) {
	keys := commontest.Keys(t)
	now := time.Date(2026, 11, 26, 23, 0, 0, 0, time.UTC)
	st := state.New(func() time.Time { return now })
	st.Apply(state.InstrumentsMsg{Gen: 1, At: now, Instruments: api.Instruments{Perps: []api.PerpInstrument{{
		ID: 1, Name: "BTC-PERP", TickSize: decimal.RequireFromString("0.1"), LotSize: decimal.RequireFromString("0.001"), MaxLeverage: decimal.NewFromInt(20)}}}})
	c := &common.Common{Store: st, Styles: common.NewStyles(commontest.Theme), Keys: &keys, Clock: func() time.Time { return now }}
	p := New(c, NewFeed(), nil, nil)
	p.SetSize(140, 6)
	raw, _ := json.Marshal(map[string]string{"instrument": "BTC-PERP", "side": "buy", "size": "1", "arrival": "95100"})
	left, _ := json.Marshal(map[string]string{"instrument": "BTC-PERP", "side": "sell", "size": "2"})
	p.Update(HistoryMsg{Algos: []journal.Algo{{ID: "old", Kind: "scale", Params: raw, State: "done", Created: now.Add(-time.Hour),
		Detail: "filled 1 of 1 at 95000 avg, fee 0.5"}, {ID: "left", Kind: "chase", Params: left, State: "running", Created: now.Add(-2 * time.Hour)}}})
	dd := decimal.RequireFromString
	wp := dd("96990")
	p.Update(ProgressMsg{Row: Row{Progress: algo.Progress{ID: "new", Kind: "chase", Instrument: "BTC-PERP", Side: "buy",
		Target: dd("0.5"), Filled: dd("0.2"), AvgPrice: dd("97010"), Arrival: dd("97000"), WorkingPrice: &wp, Reprices: 3,
		State: journal.AlgoRunning}, Live: true}})
	rows := p.Rows()
	if len(rows) != 3 || rows[0].ID != "new" || rows[2].ID != "old" {
		t.Fatalf("rows %+v: want the running chase first", rows)
	}
	view := p.View()
	for _, want := range []string{"0.2/0.5", "1.0 100.0t", "96,990.0", "running", "1/1", "95,000.00", "-10.5 -1000.0t", "done", "?/2", "left"} {
		if !strings.Contains(view, want) {
			t.Errorf("the view lacks %q:\n%s", want, view)
		}
	}
}
