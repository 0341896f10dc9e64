package commontest

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
)

// TestKeyMsgAndPageOf: the shared pane-test helpers send the keys by name as the terminal does,
// anything else as runes, and page rows as the exchange does.
func TestKeyMsgAndPageOf(t *testing.T) {
	for k, want := range map[string]tea.KeyMsg{
		"tab": {Type: tea.KeyTab}, "shift+tab": {Type: tea.KeyShiftTab}, "ctrl+x": {Type: tea.KeyCtrlX},
		" ": {Type: tea.KeySpace, Runes: []rune{' '}}, "e": {Type: tea.KeyRunes, Runes: []rune("e")},
	} {
		if got := KeyMsg(k); got.String() != want.String() || got.Type != want.Type {
			t.Errorf("KeyMsg(%q) = %v, want %v", k, got, want)
		}
	}
	rows := []int{5, 4, 3, 2, 1}
	p := PageOf(rows, api.PageParams{Page: 2, Limit: 2})
	if len(p.Data) != 2 || p.Data[0] != 3 || p.TotalPages != 3 || !p.HasNext || !p.HasPrev || p.TotalCount != 5 {
		t.Errorf("page 2 of 5 rows by 2: %+v", p)
	}
	if p := PageOf(rows, api.PageParams{Page: 3, Limit: 2}); len(p.Data) != 1 || p.HasNext {
		t.Errorf("the last page: %+v", p)
	}
}
