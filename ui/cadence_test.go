package ui

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
)

// TestPaneCadencesComeFromIntervals: the panes' own polls (fills, history, leverage, brokers,
// equity, funding, transfers) run at the console's Intervals, which the config's [poll] sets,
// not at package variables; a cadence left zero is the default.
func TestPaneCadencesComeFromIntervals(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(fundedSim(t))
	t.Cleanup(srv.Close)
	signer, err := api.SignerFromHex(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	iv := Intervals{Fills: 11 * time.Second, History: 12 * time.Second, Leverage: 13 * time.Second,
		Brokers: 14 * time.Second, Equity: 15 * time.Second, Funding: 16 * time.Second}
	want := map[state.Kind]time.Duration{state.KindFills: iv.Fills, state.KindHistory: iv.History,
		state.KindLeverage: iv.Leverage, state.KindBrokers: iv.Brokers, state.KindEquity: iv.Equity,
		state.KindFunding: iv.Funding, state.KindTransfers: DefaultIntervals().Transfers}
	m := New(Config{Exchange: api.New(srv.URL+"/", api.WithSigner(signer)), Timers: feed.NewFakeClock(simStart),
		Keys: mustKeys(t), Theme: testTheme, Mode: ModeDemo, Network: "demo", Intervals: iv, Instrument: "BTC-PERP"})
	for _, task := range m.feed.Tasks() {
		if d, ok := want[task.Kind()]; ok {
			if got := task.Cadence(); got != d {
				t.Errorf("%s polls every %s, want %s", task.Kind(), got, d)
			}
			delete(want, task.Kind())
		}
	}
	for k := range want {
		t.Errorf("the console has no %s task", k)
	}
}
