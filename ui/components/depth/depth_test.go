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
