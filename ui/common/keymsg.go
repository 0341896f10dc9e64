package common

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// keyTypes are Bubble Tea's named keys by name ("up", "ctrl+x", "pgdown"), read from the key
// types themselves so the names are Bubble Tea's own.
var keyTypes = func() map[string]tea.KeyType {
	m := map[string]tea.KeyType{}
	for kt := tea.KeyType(-128); kt <= 127; kt++ {
		if s := kt.String(); s != "" && kt != tea.KeyRunes {
			m[s] = kt
		}
	}
	return m
}()

// KeyMsgOf is the key press named k (a key name as bindings are written: "up", "ctrl+x", "j",
// "alt+k"): what the mouse wheel sends as the trader's Up or Down binding. key.Matches takes it
// for k.
func KeyMsgOf(k string) tea.KeyMsg {
	alt := false
	if rest, ok := strings.CutPrefix(k, "alt+"); ok && rest != "" {
		alt, k = true, rest
	}
	if kt, ok := keyTypes[k]; ok {
		msg := tea.KeyMsg{Type: kt, Alt: alt}
		if kt == tea.KeySpace {
			msg.Runes = []rune{' '}
		}
		return msg
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k), Alt: alt}
}

// BoundKeyMsg is a key press of binding b, one that types nothing when b has one (an arrow
// before a letter), else its first key (ok false: b has no key).
func BoundKeyMsg(b key.Binding) (tea.KeyMsg, bool) {
	ks := b.Keys()
	for _, k := range ks {
		if msg := KeyMsgOf(k); msg.Type != tea.KeyRunes {
			return msg, true
		}
	}
	if len(ks) > 0 {
		return KeyMsgOf(ks[0]), true
	}
	return tea.KeyMsg{}, false
}
