package tickers

import (
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestReboundFilterKeys (issue #33, 5): with text_submit on ctrl+s and dismiss on ctrl+g, Enter
// and Esc no longer end the filter; ctrl+s keeps it, ctrl+g clears it, and the footer names
// ctrl+s and ctrl+g. It fails if the filter reads Enter or Esc as hard-coded keys again.
func TestReboundFilterKeys(t *testing.T) {
	c := commontest.NewCommon(t, marketStore(func() time.Time { return t0 }), func() time.Time { return t0 })
	keys := commontest.Rebound(t, map[string][]string{"text_submit": {"ctrl+s"}, "dismiss": {"ctrl+g"}})
	c.Keys = &keys
	p := New(c, nil)
	p.SetSize(120, 10)
	p.SetFocused(true)
	p.Update(common.DataMsg{Kind: state.KindTickers})
	press(p, "/", "d", "o", "g")
	var hints []string
	for _, b := range p.ShortHelp() {
		hints = append(hints, b.Help().Key)
	}
	if !slices.Contains(hints, "ctrl+s") || !slices.Contains(hints, "ctrl+g") || slices.Contains(hints, "Enter") {
		t.Errorf("the filter's footer names %v, want ctrl+s and ctrl+g", hints)
	}
	for _, k := range []tea.KeyType{tea.KeyEnter, tea.KeyEsc} {
		if p.Update(tea.KeyMsg{Type: k}); !p.Capturing() {
			t.Fatalf("%s ended the filter though it is rebound", tea.KeyMsg{Type: k})
		}
	}
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
	if p.Capturing() || !slices.Equal(p.Shown(), []string{"DOGE-PERP"}) {
		t.Fatalf("ctrl+s: still typing %v, shown %v", p.Capturing(), p.Shown())
	}
	press(p, "/")
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlG})
	if p.Capturing() || len(p.Shown()) != 3 || strings.Contains(p.View(), "/dog") {
		t.Errorf("ctrl+g did not clear the filter: typing %v, shown %v", p.Capturing(), p.Shown())
	}
}
