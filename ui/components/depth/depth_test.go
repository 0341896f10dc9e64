package depth

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

// TestSplitWhenTallGroupWhenShort: from SplitHeight the ladder and, under a rule, the tape are
// both drawn and every key goes to the ladder (] does not switch to the tape); shorter, the two are
// views of a group that ] switches; tall again, the ladder is back on top (guards a split that
// leaves the group showing the tape, and a height threshold flipped).
func TestSplitWhenTallGroupWhenShort(t *testing.T) {
	t0 := time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)
	s := state.New(func() time.Time { return t0 })
	s.Apply(state.TradesMsg{Gen: 1, At: t0, Symbol: "BTC-PERP", Trades: []api.Trade{{TradeID: 1, Instrument: "BTC-PERP", Side: "b",
		Price: decimal.NewFromInt(100), Size: decimal.NewFromInt(2), Time: api.Time{Time: t0}}}})
	c := commontest.NewCommon(t, s, func() time.Time { return t0 })
	c.SetInstrument("BTC-PERP")
	p := New(c, decimal.Zero)
	p.SetFocused(true)
	rbracket := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("]")}

	p.SetSize(50, SplitHeight)
	p.Update(rbracket)
	v := p.View()
	if !p.Split() || !strings.Contains(v, "── Tape") || !strings.Contains(v, "Price") || !strings.Contains(v, "12:00:00") {
		t.Fatalf("tall: not ladder over tape:\n%s", v)
	}
	if n := len(strings.Split(v, "\n")); n != SplitHeight {
		t.Errorf("tall: %d lines, want %d", n, SplitHeight)
	}
	if !strings.HasPrefix(p.Title(), "Depth: Ladder · Tape") {
		t.Errorf("tall title %q", p.Title())
	}

	p.SetSize(50, SplitHeight-1)
	if p.Split() || p.Active() != common.Pane(p.Ladder) {
		t.Fatalf("short: split %v, showing %s", p.Split(), p.Active().Title())
	}
	p.Update(rbracket)
	if p.Active() != common.Pane(p.Tape) || !strings.Contains(p.View(), "12:00:00") || strings.Contains(p.View(), "── Tape") {
		t.Fatalf("short: ] did not show the tape alone:\n%s", p.View())
	}
	p.SetSize(50, SplitHeight+5)
	if !p.Split() || p.Active() != common.Pane(p.Ladder) {
		t.Errorf("tall again: split %v, showing %s", p.Split(), p.Active().Title())
	}
}

// TestAnUnchangedDepthJoinsNothing: drawn again with nothing changed, the pane returns what it
// joined before, split (ladder, rule, tape) or as a group (its tabs and the view shown), with no
// allocation; a new trade is joined in. Guards: each frame joining the pane's parts anew, the
// idle demo's largest pane garbage (issue #34).
func TestAnUnchangedDepthJoinsNothing(t *testing.T) {
	t0 := time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)
	s := state.New(func() time.Time { return t0 })
	trade := func(id int64, at time.Time) {
		s.Apply(state.TradesMsg{Gen: uint64(id), At: at, Symbol: "BTC-PERP", Trades: []api.Trade{{TradeID: api.TradeID(id), Instrument: "BTC-PERP", Side: "b",
			Price: decimal.NewFromInt(100), Size: decimal.NewFromInt(2), Time: api.Time{Time: at}}}})
	}
	trade(1, t0)
	c := commontest.NewCommon(t, s, func() time.Time { return t0 })
	c.SetInstrument("BTC-PERP")
	p := New(c, decimal.Zero)
	for i, h := range []int{SplitHeight, SplitHeight - 1} {
		p.SetSize(50, h)
		if h < SplitHeight {
			p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("]")}) // the tape, alone
		}
		p.Update(common.DataMsg{Kind: state.KindTrades})
		_ = p.View()
		if n := testing.AllocsPerRun(20, func() { _ = p.View() }); n != 0 {
			t.Errorf("height %d: an unchanged pane drawn again allocates %v times", h, n)
		}
		at := t0.Add(time.Duration(i+1) * time.Minute)
		trade(int64(i+2), at)
		p.Update(common.DataMsg{Kind: state.KindTrades})
		if v := p.View(); !strings.Contains(v, at.Format("15:04:05")) {
			t.Fatalf("height %d: the trade at %s is not drawn:\n%s", h, at.Format("15:04:05"), v)
		}
	}
}
