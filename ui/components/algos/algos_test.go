package algos

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/algo"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestTheViewShowsRunningFirstAndAnEarlierRunsFillsAsUnknown: a running chase from the feed is
// listed before the journal's finished scale; its filled/target, average, slippage in bp and
// working price are shown; an earlier run's row says its fills are in its detail ("?/").
func TestTheViewShowsRunningFirstAndAnEarlierRunsFillsAsUnknown(t *testing.T) {
	keys := commontest.Keys(t)
	now := time.Date(2026, 11, 26, 23, 0, 0, 0, time.UTC)
	c := &common.Common{Store: state.New(func() time.Time { return now }), Styles: common.NewStyles(commontest.Theme), Keys: &keys,
		Clock: func() time.Time { return now }}
	p := New(c, NewFeed(), nil, nil)
	p.SetSize(120, 6)
	raw, _ := json.Marshal(map[string]string{"instrument": "BTC-PERP", "side": "buy", "size": "1"})
	p.Update(HistoryMsg{Algos: []journal.Algo{{ID: "old", Kind: "scale", Params: raw, State: "done", Created: now.Add(-time.Hour),
		Detail: "filled 1 of 1"}}})
	dd := decimal.RequireFromString
	wp := dd("96990")
	p.Update(ProgressMsg{Row: Row{Progress: algo.Progress{ID: "new", Kind: "chase", Instrument: "BTC-PERP", Side: "buy",
		Target: dd("0.5"), Filled: dd("0.2"), AvgPrice: dd("97010"), Arrival: dd("97000"), WorkingPrice: &wp, Reprices: 3,
		State: journal.AlgoRunning}, Live: true}})
	rows := p.Rows()
	if len(rows) != 2 || rows[0].ID != "new" || rows[1].ID != "old" {
		t.Fatalf("rows %+v: want the running chase first", rows)
	}
	view := p.View()
	for _, want := range []string{"0.2/0.5", "1.0", "96990", "running", "?/1", "done"} {
		if !strings.Contains(view, want) {
			t.Errorf("the view lacks %q:\n%s", want, view)
		}
	}
}
