package leverage

import tea "github.com/charmbracelet/bubbletea"

// Modal is the leverage dialog on the root's modal stack (common.Modal): open until its result
// or Ctrl+C closes it.
type Modal struct {
	D      *Dialog
	closed bool
}

// Open implements common.Modal.
func (l *Modal) Open() bool { return !l.closed }

// Key implements common.Modal.
func (l *Modal) Key(msg tea.KeyMsg) tea.Cmd { return l.D.Update(msg) }

// Close implements common.Modal.
func (l *Modal) Close() (tea.Cmd, bool) { l.closed = true; return nil, true }

// Covers implements common.Modal.
func (l *Modal) Covers() bool { return true }

// View implements common.Modal.
func (l *Modal) View(int, int) string { return l.D.View() }

// KeepsFooter implements common.Modal.
func (l *Modal) KeepsFooter() bool { return true }
