package screen

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// clock is a stepped clock: timers fire only when the test moves it.
type clock struct {
	mu     sync.Mutex
	t      time.Time
	timers []*timer
}

type timer struct {
	at      time.Time
	f       func()
	stopped bool
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) after(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	tm := &timer{at: c.t.Add(d), f: f}
	c.timers = append(c.timers, tm)
	return func() bool { c.mu.Lock(); defer c.mu.Unlock(); s := !tm.stopped; tm.stopped = true; return s }
}

// armed is how many timers wait to fire: a wake-up each.
func (c *clock) armed() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, tm := range c.timers {
		if !tm.stopped {
			n++
		}
	}
	return n
}

// advance moves the clock by d, firing the timers due on the way.
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	var due []*timer
	for _, tm := range c.timers {
		if !tm.stopped && !tm.at.After(c.t) {
			tm.stopped = true
			due = append(due, tm)
		}
	}
	c.mu.Unlock()
	for _, tm := range due {
		tm.f()
	}
}

// writes counts the writes to the terminal and keeps the last.
type writes struct {
	mu   sync.Mutex
	n    int
	last string
}

func (w *writes) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n++
	w.last = string(p)
	return len(p), nil
}

func (w *writes) count() (int, string) { w.mu.Lock(); defer w.mu.Unlock(); return w.n, w.last }

// board is a program whose screen shows a price; noise changes nothing on it.
type board struct{ price int }

type (
	priceMsg int
	noise    struct{}
)

func (b *board) Init() tea.Cmd { return nil }

func (b *board) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if p, ok := msg.(priceMsg); ok {
		b.price = int(p)
	}
	return b, nil
}

func (b *board) View() string {
	return "BTC-PERP\nprice " + strconv.Itoa(b.price) + "\nq quit"
}

// program runs board in a real tea.Program with its views going to a renderer on a stepped clock.
func program(t *testing.T) (*tea.Program, *clock, *writes, *Renderer) {
	t.Helper()
	c := &clock{t: time.Unix(1_700_000_000, 0)}
	w := &writes{}
	r := NewRenderer(w, 30)
	r.now, r.after = c.now, c.after
	ctx, cancel := context.WithCancel(context.Background())
	p := tea.NewProgram(Wrap(&board{}, r), tea.WithoutRenderer(), tea.WithInput(nil), tea.WithOutput(w), tea.WithContext(ctx))
	done := make(chan struct{})
	go func() { _, _ = p.Run(); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return p, c, w, r
}

// settle returns once the program has handled every message sent before it: the event loop
// takes a message only after the previous one's view went to the renderer, and noise draws
// nothing.
func settle(p *tea.Program) {
	p.Send(noise{})
	p.Send(noise{})
}

func TestAnIdleProgramDrawsNothing(t *testing.T) {
	p, c, w, r := program(t)
	p.Send(tea.WindowSizeMsg{Width: 40, Height: 10})
	settle(p)
	c.advance(time.Second) // the size came within the first frame: drawn at once, the second of the Burst
	base, _ := w.count()
	if r.Frames() != 2 || base != 2 {
		t.Fatalf("start: %d frames in %d writes, want the first view and the sized one", r.Frames(), base)
	}
	for range 600 { // a simulated minute, a tenth of a second at a time
		c.advance(100 * time.Millisecond)
		if c.armed() != 0 {
			t.Fatal("a timer is armed with nothing to draw: a wake-up while idle")
		}
	}
	for range 50 {
		p.Send(noise{})
	}
	settle(p)
	if n, _ := w.count(); n != base || c.armed() != 0 {
		t.Fatalf("%d writes after a minute idle and 50 messages that change nothing on screen, want %d; %d timers armed", n, base, c.armed())
	}

	p.Send(priceMsg(97000))
	settle(p)
	n, last := w.count()
	if n != base+1 || r.Frames() != 3 {
		t.Fatalf("a price change: %d writes, %d frames; want exactly one more of each", n-base, r.Frames())
	}
	if !strings.Contains(last, "price 97000") || strings.Contains(last, "BTC-PERP") {
		t.Fatalf("the frame should hold the changed line only: %q", last)
	}
	if c.armed() != 0 {
		t.Fatal("a change drawn at once left a timer armed")
	}
}

func TestChangesWithinAFrameAreOneFrame(t *testing.T) {
	p, c, w, r := program(t)
	p.Send(tea.WindowSizeMsg{Width: 40, Height: 10})
	settle(p)
	c.advance(time.Second) // the sized frame
	c.advance(time.Second)
	p.Send(priceMsg(1)) // an interval after the last frame: drawn at once
	settle(p)
	p.Send(priceMsg(2)) // a change that follows one lone frame: drawn at once too (Burst)
	settle(p)
	p.Send(priceMsg(3)) // and the third (a step in two batches, then an order's)
	settle(p)
	base, _ := w.count()
	if r.Frames() != 5 {
		t.Fatalf("%d frames, want the first, the sized one and the first three prices", r.Frames())
	}
	for i := 4; i <= 20; i++ {
		p.Send(priceMsg(i))
	}
	settle(p)
	if n, _ := w.count(); n != base || c.armed() != 1 {
		t.Fatalf("changes within the frame after three drawn: %d writes, %d timers; want none drawn, one timer", n-base, c.armed())
	}
	c.advance(time.Second / 30)
	n, last := w.count()
	if n != base+1 || !strings.Contains(last, "price 20") {
		t.Fatalf("at the frame's end: %d writes (want 1), last %q (want the latest price)", n-base, last)
	}
	f0 := r.Frames()
	for i := 21; i <= 50; i++ { // a steady stream of changes for three intervals: one frame each
		p.Send(priceMsg(i))
		settle(p)
		c.advance(time.Second / 300)
	}
	if got := r.Frames() - f0; got < 2 || got > 4 {
		t.Fatalf("%d frames for 30 changes over three intervals, want about three (one an interval)", got)
	}
	c.advance(time.Minute)
	if c.armed() != 0 || !strings.Contains(lastWrite(w), "price 50") {
		t.Fatalf("after the stream: %d timers armed, last frame %q (want the latest price)", c.armed(), lastWrite(w))
	}
}

func lastWrite(w *writes) string { _, last := w.count(); return last }

func TestAResizeRedrawsEveryLine(t *testing.T) {
	p, c, w, _ := program(t)
	p.Send(tea.WindowSizeMsg{Width: 40, Height: 10})
	settle(p)
	c.advance(time.Second)
	p.Send(tea.WindowSizeMsg{Width: 6, Height: 2})
	settle(p)
	c.advance(time.Second)
	_, last := w.count()
	if !strings.Contains(last, "price ") || strings.Contains(last, "BTC-PERP") || strings.Contains(last, "price 0") {
		t.Fatalf("at 6x2 the last two lines, each cut to 6 cells: %q", last)
	}
	if !strings.Contains(last, "q quit") {
		t.Fatalf("a resize redraws the lines that did not change too: %q", last)
	}
}

func TestNothingIsDrawnAfterClose(t *testing.T) {
	p, c, w, r := program(t)
	p.Send(priceMsg(1)) // within the first frame: drawn at once (Burst)
	settle(p)
	p.Send(priceMsg(2)) // and the third (Burst)
	settle(p)
	p.Send(priceMsg(3)) // the fourth frame within an interval: a timer is armed
	settle(p)
	n, _ := w.count()
	if c.armed() != 1 {
		t.Fatalf("%d timers armed, want 1", c.armed())
	}
	r.Close()
	c.advance(time.Second)
	p.Send(priceMsg(4))
	settle(p)
	if n2, _ := w.count(); n2 != n {
		t.Fatalf("%d writes after Close: the restored terminal would get a frame", n2-n)
	}
}
