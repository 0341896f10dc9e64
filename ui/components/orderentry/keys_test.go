package orderentry

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestReboundToggleAndCompletionKeys (issue #33, 5): with toggle_prev on h, toggle on space and l,
// and accept_completion on ctrl+e, h and l change a choice back and forth, ← and → no longer do,
// the hint beside the choice reads "hl", and ctrl+e (not →) takes the suggested instrument, whose
// hint names ctrl+e. It fails if the form reads the arrows as hard-coded keys again or a hint
// spells them out.
func TestReboundToggleAndCompletionKeys(t *testing.T) {
	clock := func() time.Time { return t0 }
	s := state.New(clock)
	s.Apply(state.InstrumentsMsg{Gen: 1, At: t0, Instruments: api.Instruments{Perps: []api.PerpInstrument{{
		ID: 1, Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001"), MinNotionalUSD: d("10"), MaxLeverage: d("20")}}}})
	c := commontest.NewCommon(t, s, clock)
	keys := commontest.Rebound(t, map[string][]string{"toggle_prev": {"h"}, "toggle": {" ", "l"}, "accept_completion": {"ctrl+e"}})
	c.Keys = &keys
	p := New(c, "DEMO", new(bool))
	p.SetSize(46, 24)
	p.SetFocused(true)
	p.Focus(FieldType)
	runes := func(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }
	if v := ansi.Strip(p.View()); !strings.Contains(v, "[LIMIT]") || !strings.Contains(v, " hl") || strings.Contains(v, "←→") {
		t.Fatalf("the choice's hint does not name h and l:\n%s", v)
	}
	for _, tc := range []struct {
		key  tea.KeyMsg
		want string
	}{{tea.KeyMsg{Type: tea.KeyLeft}, "limit"}, {runes("h"), "trail"}, {tea.KeyMsg{Type: tea.KeyRight}, "trail"}, {runes("l"), "limit"}, {tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}, "market"}} {
		p.Update(tc.key)
		if p.OrderType() != tc.want {
			t.Fatalf("%s: type %s, want %s", tc.key, p.OrderType(), tc.want)
		}
	}
	p.Focus(FieldInstrument)
	p.SetValue(FieldInstrument, "BT")
	if v := ansi.Strip(p.View()); !strings.Contains(v, "C-PERP ctrl+e") {
		t.Errorf("the completion's hint does not name ctrl+e:\n%s", v)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRight})
	if p.Value(FieldInstrument) != "BT" {
		t.Errorf("→ completed though accept_completion is ctrl+e: %q", p.Value(FieldInstrument))
	}
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlE})
	if p.Value(FieldInstrument) != "BTC-PERP" {
		t.Errorf("ctrl+e did not complete: %q", p.Value(FieldInstrument))
	}
}
