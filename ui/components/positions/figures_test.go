package positions

import (
	"fmt"
	"slices"
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

// TestATickerChangeRewritesOnlyTheMarkedColumns (issue #34): with only the tickers changed, the
// pane writes the columns a mark moves (mark, notional, uPnL, ROE, distance to liquidation) and
// keeps the others, far fewer allocations than after a change of the positions, measured in the
// same test (the store's figures are worked out after either); a position's new size is written. Guards every cell written again on each ticker
// update, and a kept cell that a positions change should have rewritten.
func TestATickerChangeRewritesOnlyTheMarkedColumns(t *testing.T) {
	now := simStart
	clock := func() time.Time { return now }
	s := state.New(clock)
	var perps []api.PerpInstrument
	var positions []api.Position
	var tickers [2][]api.Ticker
	for i := range 20 {
		sym := fmt.Sprintf("C%d-PERP", i)
		perps = append(perps, api.PerpInstrument{ID: api.InstrumentID(i + 1), Name: sym, TickSize: d("0.01"), LotSize: d("0.1"),
			MinNotionalUSD: d("10"), MaxLeverage: d("20")})
		positions = append(positions, api.Position{Instrument: sym, Size: d("10.5"), EntryPrice: d("1234.56"),
			Leverage: d("5"), MarginMode: api.MarginCross})
		for k := range tickers {
			tickers[k] = append(tickers[k], api.Ticker{Symbol: sym, MarkPrice: d(fmt.Sprintf("130%d.2%d", k, i))})
		}
	}
	s.Apply(state.InstrumentsMsg{Gen: 1, At: now, Instruments: api.Instruments{Perps: perps}})
	s.Apply(state.PositionsMsg{Gen: 1, At: now, Positions: positions})
	s.Apply(state.AccountMsg{Gen: 1, At: now, Summary: api.AccountSummary{PerpPositions: map[string]api.PositionSummary{
		"C0-PERP": {LiquidationPrice: d("1100")}}}})
	p := New(commontest.NewCommon(t, s, clock))
	p.SetSize(200, 30)
	gen := uint64(1)
	update := func(msg func() state.Msg) float64 {
		return testing.AllocsPerRun(10, func() {
			gen++
			s.Apply(msg())
			p.Update(common.DataMsg{Kind: state.KindTickers})
			_ = p.View()
		})
	}
	marks := update(func() state.Msg { return state.TickersMsg{Gen: gen, At: now, Tickers: tickers[gen%2]} })
	other := slices.Clone(positions)
	for i := range other {
		other[i].Size = d("10.6")
	}
	lists := [2][]api.Position{positions, other}
	all := update(func() state.Msg { return state.PositionsMsg{Gen: gen, At: now, Positions: lists[gen%2]} })
	t.Logf("a ticker change %.0f allocations, a positions change %.0f", marks, all)
	// The kept columns' texts: at least 3 a row (the size, the entry and the leverage, each at
	// least one allocation since a figure is written in one: state.FormatPrice).
	if all-marks < 3*20 {
		t.Errorf("a ticker change %.0f allocations, a positions change %.0f: want at least 3 a row of the 20 saved", marks, all)
	}
	moved := slices.Clone(positions)
	moved[0].Size = d("7.5")
	s.Apply(state.PositionsMsg{Gen: gen + 1, At: now, Positions: moved})
	fresh := slices.Clone(tickers[0])
	fresh[0].MarkPrice = d("1299.99")
	s.Apply(state.TickersMsg{Gen: gen + 2, At: now, Tickers: fresh}) // both before the pane's next look
	p.Update(common.DataMsg{Kind: state.KindTickers})
	for col, want := range map[int]string{colSize: "7.5", colEntry: "1,234.56", colMark: "1,299.99", colLiq: "1,100.00", colLeverage: "5x cross"} {
		if got, _ := p.cell(0, col); got != want {
			t.Errorf("%s after a size change and a ticker change: %q, want %q", titles[col], got, want)
		}
	}
}
