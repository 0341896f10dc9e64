package ui

import (
	"context"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/ui/screen"
)

// frameWrites counts the writes to the terminal.
type frameWrites struct {
	mu sync.Mutex
	n  int
}

func (w *frameWrites) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n++
	return len(p), nil
}

func (w *frameWrites) count() int { w.mu.Lock(); defer w.mu.Unlock(); return w.n }

// started is a loaded console: the program does not start its polls again.
type started struct{ *Model }

func (started) Init() tea.Cmd { return nil }

func (s started) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := s.Model.Update(msg)
	return s, cmd
}

// TestAnIdleConsoleDrawsNothing runs the loaded console in a real tea.Program drawing on demand
// (as main runs it): with its timers on a clock that stands still no message comes, and none is
// drawn; messages that change nothing on screen draw nothing; a key that moves the selection is
// drawn at once, in one write (what its commands bring is drawn when it comes: at once too while
// the pace allows, screen.Burst).
func TestAnIdleConsoleDrawsNothing(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 120, 40, false)
	pump(t, c.m, c.m.Init())
	w := &frameWrites{}
	r := screen.NewRenderer(w, FrameRate)
	ctx, cancel := context.WithCancel(context.Background())
	p := tea.NewProgram(screen.Wrap(started{c.m}, r), tea.WithoutRenderer(), tea.WithInput(nil), tea.WithContext(ctx))
	done := make(chan struct{})
	go func() { _, _ = p.Run(); close(done) }()
	defer func() { cancel(); <-done }()
	settle := func() { p.Send(struct{}{}); p.Send(struct{}{}) } // the loop takes one after the last's view
	p.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	settle()
	for deadline := time.Now().Add(30 * time.Second); !r.Idle(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the sized frame was never drawn")
		}
	}
	base := w.count()
	if base == 0 {
		t.Fatal("nothing drawn at start")
	}
	for range 50 {
		p.Send(struct{}{})
	}
	settle()
	if n := w.count(); n != base || !r.Idle() {
		t.Fatalf("%d writes for messages that change nothing on screen; a timer armed for them: %v", n-base, !r.Idle())
	}
	time.Sleep(time.Second / FrameRate) // a frame's time: a change now is drawn at once
	p.Send(keyMsg("down"))              // the tickers' selection moves
	settle()
	if n := w.count(); n < base+1 || n > base+screen.Burst {
		t.Fatalf("a key that moves the selection: %d writes at once, want 1, or %d with what its commands brought at once", n-base, screen.Burst)
	}
}
