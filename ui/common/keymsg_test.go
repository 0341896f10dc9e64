package common

import (
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// TestKeyMsgOfIsTheKeyItNames: the key press KeyMsgOf makes of a binding's key name matches
// that binding (arrows, named keys, control and alt keys, letters, space), a letter is typed
// runes, and BoundKeyMsg prefers a key that types nothing. Guards the mouse wheel, which sends
// the trader's Up and Down bindings through them.
func TestKeyMsgOfIsTheKeyItNames(t *testing.T) {
	for _, k := range []string{"up", "down", "pgdown", "home", "enter", "esc", "tab", "shift+tab", " ", "ctrl+x", "j", "alt+k", "shift+up", "f5", "K"} {
		if msg := KeyMsgOf(k); !key.Matches(msg, key.NewBinding(key.WithKeys(k))) {
			t.Errorf("%q: %#v reads as %q", k, msg, msg.String())
		}
	}
	if KeyMsgOf("j").Type != tea.KeyRunes || KeyMsgOf("up").Type != tea.KeyUp {
		t.Error("a letter is not typed runes, or up is not the arrow")
	}
	if msg, _ := BoundKeyMsg(key.NewBinding(key.WithKeys("k", "up"))); msg.Type != tea.KeyUp {
		t.Errorf("BoundKeyMsg of k/up: %q, want the arrow", msg.String())
	}
	if _, ok := BoundKeyMsg(key.NewBinding()); ok {
		t.Error("a binding without keys gave a key")
	}
}
