package positions

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// simStart is ui's tests' simulator start.
var simStart = time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)

// TestPositionsDetailLineWhenThePaneIsFull: with more positions than rows, the pane keeps its last
// line for the selected position's detail, TP/SL first, and it follows the cursor. Guards a detail
// line drawn only over a blank row (none when the list fills the pane), and one that stays on the
// first position.
func TestPositionsDetailLineWhenThePaneIsFull(t *testing.T) {
	t.Parallel()
	clock := func() time.Time { return simStart }
	s := state.New(clock)
	var perps []api.PerpInstrument
	var positions []api.Position
	var orders []api.OrderRecord
	for i := range 8 {
		sym := fmt.Sprintf("C%d-PERP", i)
		perps = append(perps, api.PerpInstrument{ID: api.InstrumentID(i + 1), Name: sym, TickSize: d("0.01"), LotSize: d("0.1"),
			MinNotionalUSD: d("10"), MaxLeverage: d("20")})
		positions = append(positions, api.Position{Instrument: sym, Size: d("10"), EntryPrice: d("1000"),
			Leverage: d("5"), MarginMode: api.MarginCross})
		orders = append(orders, api.OrderRecord{OrderID: api.OrderID(100 + i), Instrument: sym, Side: api.SideSell, ReduceOnly: true,
			State: api.StateOpen, Tpsl: api.TpslTakeProfit, TriggerPx: api.OptDecimal{Decimal: d(fmt.Sprintf("12%d5.25", i)), Valid: true},
			Grouping: api.GroupingPosition, IsMarket: true, Size: d("10"), Unfilled: d("10")})
	}
	s.Apply(state.InstrumentsMsg{Gen: 1, At: simStart, Instruments: api.Instruments{Perps: perps}})
	s.Apply(state.PositionsMsg{Gen: 1, At: simStart, Positions: positions})
	s.Apply(state.OrdersMsg{Gen: 1, At: simStart, Orders: orders})
	p := New(commontest.NewCommon(t, s, clock))
	p.SetSize(72, 6)
	p.Update(common.DataMsg{Kind: state.KindPositions})
	for _, down := range []int{0, 6} {
		for range down {
			p.tbl.Move(1)
		}
		lines := strings.Split(ansi.Strip(p.View()), "\n")
		want := fmt.Sprintf("C%d-PERP  TP/SL 1,2%d5.25/-", down, down)
		if len(lines) != 6 || !strings.HasPrefix(strings.TrimSpace(lines[5]), want) {
			t.Errorf("cursor on row %d: want the last of 6 lines to start %q:\n%s", down, want, strings.Join(lines, "\n"))
		}
	}
}

// TestPositionsFlagAStopThatNeverFires (issue #31, 11): a position's stop-loss at or beyond its
// liquidation price, as the exchange reports it, is flagged in the TP/SL column ("!", painted as
// a danger) and the detail line says it never fires and where the position is liquidated; a stop
// a tick inside is not. Long and short. Guards a pane that shows such a stop as a working one.
func TestPositionsFlagAStopThatNeverFires(t *testing.T) {
	clock := func() time.Time { return simStart }
	for _, tc := range []struct {
		size, sl string
		flag     bool
	}{
		{"10", "950.00", true}, {"10", "949.00", true}, {"10", "950.01", false},
		{"-10", "1050.00", true}, {"-10", "1049.99", false},
	} {
		s := state.New(clock)
		s.Apply(state.InstrumentsMsg{Gen: 1, At: simStart, Instruments: api.Instruments{Perps: []api.PerpInstrument{{ID: 1, Name: "C-PERP",
			TickSize: d("0.01"), LotSize: d("0.1"), MinNotionalUSD: d("10"), MaxLeverage: d("20")}}}})
		s.Apply(state.PositionsMsg{Gen: 1, At: simStart, Positions: []api.Position{{Instrument: "C-PERP", Size: d(tc.size), EntryPrice: d("1000"),
			Leverage: d("20"), MarginMode: api.MarginCross}}})
		liq := "950"
		side := api.SideSell
		if d(tc.size).IsNegative() {
			liq, side = "1050", api.SideBuy
		}
		s.Apply(state.AccountMsg{Gen: 1, At: simStart, Summary: api.AccountSummary{PerpPositions: map[string]api.PositionSummary{
			"C-PERP": {LiquidationPrice: d(liq)}}}})
		s.Apply(state.OrdersMsg{Gen: 1, At: simStart, Orders: []api.OrderRecord{{OrderID: 7, Instrument: "C-PERP", Side: side, ReduceOnly: true,
			State: api.StateOpen, Tpsl: api.TpslStopLoss, TriggerPx: api.OptDecimal{Decimal: d(tc.sl), Valid: true},
			Grouping: api.GroupingPosition, IsMarket: true, Size: d("10"), Unfilled: d("10")}}})
		p := New(commontest.NewCommon(t, s, clock))
		p.SetSize(200, 6)
		p.Update(common.DataMsg{Kind: state.KindPositions})
		slText := state.FormatPrice(d(tc.sl), 2)
		if cell, _ := p.tpslText(0, false); (cell == "-/"+slText+"!") != tc.flag {
			t.Errorf("%s sl %s: TP/SL cell %q, want flagged %v", tc.size, tc.sl, cell, tc.flag)
		}
		p.SetSize(60, 6) // the column goes: the detail line gives it
		detail := ansi.Strip(p.View())
		said := strings.Contains(detail, "(never fires: liq. "+state.FormatPrice(d(liq), 2)+")")
		if said != tc.flag || !strings.Contains(detail, "TP/SL -/"+slText) {
			t.Errorf("%s sl %s: the detail line says never fires %v, want %v:\n%s", tc.size, tc.sl, said, tc.flag, detail)
		}
	}
}
