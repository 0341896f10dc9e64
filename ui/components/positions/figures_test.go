package positions

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestPositionsPaneShowsTheStoresFigures (issue #34): the pane shows the figures the store works
// out once a change (state.Store.PositionFigures), the ones the account pane's unrealized PnL
// adds up, so the account summary's mark, arriving after the ticker's, moves the pane's uPnL as
// it moves the sum; a later ticker moves both again. Guards a pane working each position's
// figures out again by itself, from the ticker's mark only.
func TestPositionsPaneShowsTheStoresFigures(t *testing.T) {
	t.Parallel()
	now := simStart
	clock := func() time.Time { return now }
	s := state.New(clock)
	s.Apply(state.InstrumentsMsg{Gen: 1, At: now, Instruments: api.Instruments{Perps: []api.PerpInstrument{{ID: 1, Name: "C-PERP",
		TickSize: d("0.01"), LotSize: d("0.1"), MinNotionalUSD: d("10"), MaxLeverage: d("20")}}}})
	s.Apply(state.PositionsMsg{Gen: 1, At: now, Positions: []api.Position{{Instrument: "C-PERP", Size: d("10"), EntryPrice: d("1000"),
		Leverage: d("5"), MarginMode: api.MarginCross}}})
	s.Apply(state.TickersMsg{Gen: 1, At: now, Tickers: []api.Ticker{{Symbol: "C-PERP", MarkPrice: d("1100")}}})
	p := New(commontest.NewCommon(t, s, clock))
	p.SetSize(200, 6)
	check := func(when, upnl string) {
		t.Helper()
		p.Update(common.DataMsg{Kind: state.KindPositions})
		if got := state.FormatSigned(s.UnrealizedPnL(), 2); got != upnl {
			t.Errorf("%s: the store's unrealized PnL %s, want %s", when, got, upnl)
		}
		if cell, _ := p.cell(0, colUPnL); cell != upnl {
			t.Errorf("%s: the pane's uPnL %q, want %q", when, cell, upnl)
		}
		if view := ansi.Strip(p.View()); !strings.Contains(view, upnl) {
			t.Errorf("%s: the pane does not show %s:\n%s", when, upnl, view)
		}
	}
	check("the ticker's mark", "+1,000.00")
	now = now.Add(time.Second)
	s.Apply(state.AccountMsg{Gen: 2, At: now, Summary: api.AccountSummary{PerpPositions: map[string]api.PositionSummary{
		"C-PERP": {Legs: []api.PositionLeg{{Size: d("10"), PositionValue: d("12000")}}}}}})
	check("the account's later mark", "+2,000.00")
	now = now.Add(time.Second)
	s.Apply(state.TickersMsg{Gen: 3, At: now, Tickers: []api.Ticker{{Symbol: "C-PERP", MarkPrice: d("1050")}}})
	check("a later ticker", "+500.00")
}
