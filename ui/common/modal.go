package common

import tea "github.com/charmbracelet/bubbletea"

// Modal is what opens on top of the panes: the confirmation and leverage dialogs, the command
// line, the alerts view, the messages and the help. The root keeps them in one stack, the top
// first; while one is open the top takes every key, and Ctrl+C closes it (a reflex to back out
// must not quit with an order on screen). Adding one is one entry in that stack.
type Modal interface {
	// Open reports whether it is shown (a closed modal is passed over).
	Open() bool
	// Key handles a key while it is the top.
	Key(msg tea.KeyMsg) tea.Cmd
	// Close closes it for Ctrl+C; ok false: it leaves Ctrl+C alone, which then quits.
	Close() (cmd tea.Cmd, ok bool)
}

// ModalFuncs is a Modal made of functions, for a modal whose state its owner keeps.
type ModalFuncs struct {
	IsOpen  func() bool              // Open
	OnKey   func(tea.KeyMsg) tea.Cmd // Key
	OnClose func() (tea.Cmd, bool)   // Close (nil: it leaves Ctrl+C alone)
}

// Open implements Modal.
func (f ModalFuncs) Open() bool { return f.IsOpen() }

// Key implements Modal.
func (f ModalFuncs) Key(msg tea.KeyMsg) tea.Cmd { return f.OnKey(msg) }

// Close implements Modal.
func (f ModalFuncs) Close() (tea.Cmd, bool) {
	if f.OnClose == nil {
		return nil, false
	}
	return f.OnClose()
}

// TopModal is the first open modal of stack, the top first (nil when none is open).
func TopModal(stack []Modal) Modal {
	for _, md := range stack {
		if md.Open() {
			return md
		}
	}
	return nil
}
