package screen

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
	"golang.org/x/term"
)

// The modes Bubble Tea's standard renderer sets for tea.WithAltScreen and
// tea.WithMouseCellMotion, and its default bracketed paste: set by Open, reset by Close.
const (
	enterModes = "\x1b[?1049h" + // alternate screen
		"\x1b[2J" + cursorHome +
		"\x1b[?25l" + // hide the cursor
		"\x1b[?1002h" + // mouse: presses, releases, wheel, motion with a button down
		"\x1b[?1006h" + // mouse in SGR encoding
		"\x1b[?2004h" // bracketed paste
	leaveModes = "\x1b[?2004l\x1b[?1006l\x1b[?1002l\x1b[?25h\x1b[?1049l"
)

// Terminal is the terminal a program draws to on demand: input in raw mode, the modes above set,
// and its size sent to the program when it changes.
type Terminal struct {
	in       *os.File
	out      io.Writer
	r        *Renderer
	rawState *term.State
}

// Open readies the terminal: in (when it is a terminal) in raw mode, out in the alternate screen
// with the cursor hidden, mouse and bracketed paste on; frames are drawn to out at most fps a
// second. Close restores it. out is the program's standard output as a rule; another writer (a
// test's buffer) takes the frames and the modes as they would be written, with no size sent.
func Open(in *os.File, out io.Writer, fps int) (*Terminal, error) {
	t := &Terminal{in: in, out: out, r: NewRenderer(out, fps)}
	if term.IsTerminal(int(in.Fd())) {
		st, err := term.MakeRaw(int(in.Fd()))
		if err != nil {
			return nil, fmt.Errorf("the terminal's raw mode: %w", err)
		}
		t.rawState = st
	}
	_, _ = io.WriteString(out, enterModes)
	return t, nil
}

// Renderer is what the program's model (Wrap) draws with.
func (t *Terminal) Renderer() *Renderer { return t.r }

// Sizes sends the terminal's size to send now and after each change (SIGWINCH) until ctx ends;
// it blocks, so run it in its own goroutine. Nothing is sent when out is not a terminal.
func (t *Terminal) Sizes(ctx context.Context, send func(tea.Msg)) {
	f, isFile := t.out.(*os.File)
	if !isFile || !term.IsTerminal(int(f.Fd())) {
		return
	}
	fd := int(f.Fd())
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGWINCH)
	defer signal.Stop(sig)
	for {
		if w, h, err := term.GetSize(fd); err == nil {
			send(tea.WindowSizeMsg{Width: w, Height: h})
		}
		select {
		case <-ctx.Done():
			return
		case <-sig:
		}
	}
}

// Close stops drawing and gives the terminal back as Open found it.
func (t *Terminal) Close() error {
	t.r.Close()
	_, _ = io.WriteString(t.out, leaveModes)
	if t.rawState != nil {
		return term.Restore(int(t.in.Fd()), t.rawState)
	}
	return nil
}
