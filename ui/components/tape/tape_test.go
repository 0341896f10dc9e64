package tape

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

// TestTapeNewestFirstWithSidesAndLargePrints: newest on top, the side as an arrow and a word (not
// colour alone), and a print at or over the large notional starred (guards a flipped comparison:
// 0.5 at 100,000 = 50,000 is large at a 50,000 threshold, 0.49 is not).
func TestTapeNewestFirstWithSidesAndLargePrints(t *testing.T) {
	t0 := time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)
	s := state.New(func() time.Time { return t0 })
	tr := func(id uint64, side, size string, sec int) api.Trade {
		return api.Trade{TradeID: api.TradeID(id), Instrument: "BTC-PERP", Side: side, Price: decimal.NewFromInt(100000),
			Size: decimal.RequireFromString(size), Time: api.Time{Time: t0.Add(time.Duration(sec) * time.Second)}}
	}
	s.Apply(state.TradesMsg{Gen: 1, At: t0, Symbol: "BTC-PERP", Trades: []api.Trade{tr(3, "s", "0.49", 3), tr(2, "b", "0.5", 2), tr(1, "b", "0.01", 1)}})
	c := commontest.NewCommon(t, s, func() time.Time { return t0 })
	c.SetInstrument("BTC-PERP")
	p := New(c, decimal.NewFromInt(50000))
	p.SetSize(50, 6)
	p.Update(common.DataMsg{Kind: state.KindTrades})
	lines := strings.Split(p.View(), "\n")
	if len(lines) != 6 {
		t.Fatalf("%d lines", len(lines))
	}
	for i, want := range []string{"  12:00:03 ▼ sell", "★ 12:00:02 ▲ buy", "  12:00:01 ▲ buy"} {
		if !strings.HasPrefix(lines[i+1], want) {
			t.Errorf("line %d = %q, want it to start %q", i+1, lines[i+1], want)
		}
	}
}

// TestNarrowTapeCutsNothing: beside the order form (34 columns) every trade's price and size are
// drawn whole, no ellipsis (guards the fixed 12 and 10 wide columns that cut the size at 34).
func TestNarrowTapeCutsNothing(t *testing.T) {
	t0 := time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)
	s := state.New(func() time.Time { return t0 })
	s.Apply(state.TradesMsg{Gen: 1, At: t0, Symbol: "BTC-PERP", Trades: []api.Trade{{TradeID: 1, Instrument: "BTC-PERP", Side: "b",
		Price: decimal.RequireFromString("97301.9"), Size: decimal.RequireFromString("0.0434"), Time: api.Time{Time: t0}}}})
	c := commontest.NewCommon(t, s, func() time.Time { return t0 })
	c.SetInstrument("BTC-PERP")
	p := New(c, decimal.Zero)
	for _, w := range []int{34, 38, 41, 60} {
		p.SetSize(w, 4)
		v := p.View()
		if strings.Contains(v, "…") || !strings.Contains(v, "97,301.9") || !strings.Contains(v, "0.0434") || !strings.Contains(v, "Size") {
			t.Errorf("width %d cuts the trade:\n%s", w, v)
		}
		for i, l := range strings.Split(v, "\n") {
			if n := common.TextWidth(l); n != w {
				t.Errorf("width %d: line %d is %d wide", w, i, n)
			}
		}
	}
}
