package screen

import (
	"runtime/debug"

	tea "github.com/charmbracelet/bubbletea"
)

// Program is the program that runs m, its views drawn by r, its commands run by the model
// itself: Bubble Tea v1 hands each command from its loop to a goroutine that starts another, and
// runs a batch's commands in yet another goroutine that waits for them all, so one command wakes
// three or four goroutines (and often as many threads) where one does (runCmd).
func Program(m tea.Model, r *Renderer, opts ...tea.ProgramOption) *tea.Program {
	w := &model{Model: m, r: r}
	p := tea.NewProgram(w, append(opts, tea.WithoutRenderer())...)
	w.send = p.Send
	return p
}

// panicMsg carries a command's panic to the program's loop.
type panicMsg struct {
	v     any
	stack []byte
}

// runCmd runs cmd and sends its message to the program; a batch's commands run each in its own
// goroutine, the first in this one, and send their messages as they come (as Bubble Tea runs
// them, without a goroutine that waits for them all). A nil message is not sent.
func (w *model) runCmd(cmd tea.Cmd) {
	defer func() {
		if v := recover(); v != nil {
			w.send(panicMsg{v, debug.Stack()})
		}
	}()
	for cmd != nil {
		msg := cmd()
		batch, ok := msg.(tea.BatchMsg)
		if !ok {
			if msg != nil {
				w.send(msg)
			}
			return
		}
		cmd = nil
		for _, c := range batch {
			switch {
			case c == nil:
			case cmd == nil:
				cmd = c
			default:
				go w.runCmd(c)
			}
		}
	}
}
