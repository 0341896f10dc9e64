package help

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestTheOverlayScrollsAndClosesItself: the overlay names the pane, its keys once each, the
// read-only reason; ↓ scrolls it (its first line goes), ↑ back; Esc and ? close it, other keys
// do not. Guards the help's own key handling, which the root's modal stack relies on.
func TestTheOverlayScrollsAndClosesItself(t *testing.T) {
	t0 := time.Date(2026, 1, 29, 12, 0, 0, 0, time.UTC)
	c := commontest.NewCommon(t, state.New(func() time.Time { return t0 }), func() time.Time { return t0 })
	h := New(c.Styles, c.Keys)
	k := c.Keys
	v := Values{Title: "Orders", Global: []key.Binding{k.NextPane, k.Help, k.Quit}, Pane: [][]key.Binding{{k.Up, k.Down, k.Up}},
		ReadOnly: "no key", Width: 80, Height: 12}
	h.Open(v)
	view := ansi.Strip(h.View())
	for _, want := range []string{"Keys — Orders", "Read-only: no key"} {
		if !strings.Contains(view, want) {
			t.Errorf("the overlay lacks %q:\n%s", want, view)
		}
	}
	if g := Groups(v.Pane); len(g) != 1 || len(g[0]) != 2 {
		t.Errorf("the pane's group %v: each key once", g)
	}
	if h.Key(tea.KeyMsg{Type: tea.KeyDown}) || ansi.Strip(h.View()) == view {
		t.Fatalf("↓ closed or did not scroll:\n%s", ansi.Strip(h.View()))
	}
	if h.Key(tea.KeyMsg{Type: tea.KeyUp}) || ansi.Strip(h.View()) != view {
		t.Fatalf("↑ did not scroll back:\n%s", ansi.Strip(h.View()))
	}
	if !h.Shown() || !h.Key(tea.KeyMsg{Type: tea.KeyEsc}) || h.Shown() {
		t.Error("Esc does not close the overlay")
	}
	if h.Open(v); !h.Key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")}) || h.Shown() {
		t.Error("? does not close the overlay")
	}
}
