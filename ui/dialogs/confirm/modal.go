package confirm

import tea "github.com/charmbracelet/bubbletea"

// Modal is the confirmation on the root's modal stack (common.Modal): open until its answer
// (ResultMsg) pops it; Ctrl+C answers it "no".
type Modal struct{ D *Dialog }

// Open implements common.Modal: the answer pops it.
func (c *Modal) Open() bool { return true }

// Key implements common.Modal.
func (c *Modal) Key(msg tea.KeyMsg) tea.Cmd { return c.D.Update(msg) }

// Close implements common.Modal: Ctrl+C answers "no".
func (c *Modal) Close() (tea.Cmd, bool) { return c.D.Close(), true }

// Covers implements common.Modal.
func (c *Modal) Covers() bool { return true }

// View implements common.Modal.
func (c *Modal) View(int, int) string { return c.D.View() }

// KeepsFooter implements common.Modal.
func (c *Modal) KeepsFooter() bool { return true }
