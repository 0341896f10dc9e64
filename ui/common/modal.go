package common

import tea "github.com/charmbracelet/bubbletea"

// Modal is what opens on top of the panes: the confirmation and leverage dialogs, the command
// line, the alerts view, a sheet, the messages and the help. The root pushes each on its one
// Stack as it opens; while one is open the top takes every key, and Ctrl+C closes it (a reflex
// to back out must not quit with an order on screen).
type Modal interface {
	// Open reports whether it is shown (a closed modal is passed over).
	Open() bool
	// Key handles a key while it is the top.
	Key(msg tea.KeyMsg) tea.Cmd
	// Close closes it for Ctrl+C; ok false: it leaves Ctrl+C alone, which then quits.
	Close() (cmd tea.Cmd, ok bool)
	// Covers reports whether it draws over the panes (View); false: it draws elsewhere (the
	// command line, in the footer) and the mouse still reaches the panes.
	Covers() bool
	// View is what it draws over the panes' area of a width x height screen.
	View(width, height int) string
	// KeepsFooter reports whether the footer keeps its line (the keys that close it) while it is
	// open: an urgent notice then takes only the message line.
	KeepsFooter() bool
}

// ModalFuncs is a Modal made of functions, for a modal whose state its owner keeps.
type ModalFuncs struct {
	IsOpen  func() bool              // Open
	OnKey   func(tea.KeyMsg) tea.Cmd // Key
	OnClose func() (tea.Cmd, bool)   // Close (nil: it leaves Ctrl+C alone)
	Draw    func(w, h int) string    // View (nil: it draws over no pane)
	Footer  bool                     // KeepsFooter
}

// Open implements Modal.
func (f *ModalFuncs) Open() bool { return f.IsOpen() }

// Key implements Modal.
func (f *ModalFuncs) Key(msg tea.KeyMsg) tea.Cmd { return f.OnKey(msg) }

// Close implements Modal.
func (f *ModalFuncs) Close() (tea.Cmd, bool) {
	if f.OnClose == nil {
		return nil, false
	}
	return f.OnClose()
}

// View implements Modal.
func (f *ModalFuncs) View(w, h int) string {
	if f.Draw == nil {
		return ""
	}
	return f.Draw(w, h)
}

// Covers implements Modal.
func (f *ModalFuncs) Covers() bool { return f.Draw != nil }

// KeepsFooter implements Modal.
func (f *ModalFuncs) KeepsFooter() bool { return f.Footer }

// Stack is the root's one modal stack: what opens over the panes is pushed on it, the top takes
// every key, and a modal that closed (by its own key, a result, Ctrl+C) is popped off the top.
type Stack struct{ open []Modal }

// Push puts md on top (moved there when it is in the stack already). md is compared by identity:
// push a pointer (a *ModalFuncs).
func (s *Stack) Push(md Modal) {
	for i, o := range s.open {
		if o == md {
			s.open = append(s.open[:i], s.open[i+1:]...)
			break
		}
	}
	s.open = append(s.open, md)
}

// Pop takes md off the stack wherever it is: its result closed it (a dialog answered).
func (s *Stack) Pop(md Modal) {
	for i, o := range s.open {
		if o == md {
			s.open = append(s.open[:i], s.open[i+1:]...)
			return
		}
	}
}

// PushSole puts md on top in place of every other modal of its type on s: one confirmation,
// one leverage dialog, one sheet at a time (a second replaces the first, as it always did).
func PushSole[T Modal](s *Stack, md T) {
	kept := s.open[:0]
	for _, o := range s.open {
		if _, same := o.(T); !same {
			kept = append(kept, o)
		}
	}
	s.open = append(kept, md)
}

// Find is the topmost open modal of type T on s (ok false: none is open).
func Find[T Modal](s *Stack) (md T, ok bool) {
	for i := len(s.open) - 1; i >= 0; i-- {
		if md, ok := s.open[i].(T); ok && md.Open() {
			return md, true
		}
	}
	return md, false
}

// Top is the open modal on top, after popping the ones on top that closed (nil: none is open).
func (s *Stack) Top() Modal {
	for len(s.open) > 0 {
		top := s.open[len(s.open)-1]
		if top.Open() {
			return top
		}
		s.open = s.open[:len(s.open)-1]
	}
	return nil
}

// Shown are the open modals, bottom to top (the last is the Top): each draws over the ones under
// it.
func (s *Stack) Shown() []Modal {
	var out []Modal
	for _, md := range s.open {
		if md.Open() {
			out = append(out, md)
		}
	}
	return out
}

// Covers reports whether an open modal draws over the panes (the mouse then does not reach them).
func (s *Stack) Covers() bool {
	for _, md := range s.open {
		if md.Open() && md.Covers() {
			return true
		}
	}
	return false
}
