package common

import tea "github.com/charmbracelet/bubbletea"

// Sheet is a read-only view over the panes (an order's or algorithm's report card, the latency
// view, the vaults): it takes every key while open, and closes on its own.
type Sheet interface {
	View(w, h int) string
	Key(tea.KeyMsg) (tea.Cmd, bool)
	Update(tea.Msg) tea.Cmd
}

// SheetModal is a Sheet on the modal stack: open until its own key or Ctrl+C closes it.
type SheetModal struct {
	S      Sheet
	closed bool
}

// Open implements Modal.
func (s *SheetModal) Open() bool { return !s.closed }

// Key implements Modal.
func (s *SheetModal) Key(msg tea.KeyMsg) tea.Cmd {
	cmd, closed := s.S.Key(msg)
	s.closed = s.closed || closed
	return cmd
}

// Close implements Modal.
func (s *SheetModal) Close() (tea.Cmd, bool) { s.closed = true; return nil, true }

// Covers implements Modal.
func (s *SheetModal) Covers() bool { return true }

// View implements Modal.
func (s *SheetModal) View(w, h int) string { return s.S.View(min(w-4, 110), h-3) }

// KeepsFooter implements Modal: the sheet says its own keys.
func (s *SheetModal) KeepsFooter() bool { return false }
