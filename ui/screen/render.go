// Package screen draws a Bubble Tea program's frames on demand: a frame is written when the view
// changed, at once for the first changes (Burst of them back to back) and coalescing the changes
// that arrive faster than the frame rate, and nothing runs (no ticker, no timer) while nothing is due. Bubble Tea v1's standard
// renderer wakes at a fixed rate whether or not anything changed, and v1 has no way to plug in
// another renderer; so the program runs with tea.WithoutRenderer, Wrap hands each view to a
// Renderer, and Terminal does what the standard renderer did to the terminal around it (raw
// mode, alternate screen, hidden cursor, mouse, bracketed paste, window sizes).
package screen

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
)

const (
	cursorHome       = "\x1b[H"
	eraseLineRight   = "\x1b[K"
	eraseScreenBelow = "\x1b[J"
)

// Renderer writes frames to a terminal in the alternate screen, each changed line only: Burst
// frames back to back at most, and at most one an interval after them.
type Renderer struct {
	out      io.Writer
	interval time.Duration
	now      func() time.Time
	after    func(time.Duration, func()) (stop func() bool)

	mu            sync.Mutex
	width, height int
	shown         []string // the lines on screen; nil until the first frame or after a resize
	shownView     string   // the view they were drawn from
	pending       string   // the latest view, drawn when the armed timer fires
	pace          pace
	stop          func() bool // the armed timer's; nil while none is armed
	closed        bool
	frames        int
	buf           strings.Builder
}

// NewRenderer draws to out at most fps frames a second (at least 1) but for a Burst.
func NewRenderer(out io.Writer, fps int) *Renderer {
	return &Renderer{out: out, interval: time.Second / time.Duration(max(fps, 1)), now: time.Now,
		after: func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }}
}

// Frame takes the program's view after a message. An unchanged view costs a comparison. A
// changed one is drawn at once while the pace allows (Burst frames back to back, then one an
// interval); otherwise a timer draws the latest view when it does, so that a burst of changes is
// one frame.
func (r *Renderer) Frame(view string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.pending = view
	if r.stop != nil || (r.shown != nil && view == r.shownView) {
		return
	}
	if wait := r.pace.wait(r.now(), r.interval); wait > 0 {
		r.stop = r.after(wait, r.due)
		return
	}
	r.flush()
}

// Burst is how many frames may be drawn at once, back to back, before the frame rate paces
// them; a frame drawn gives one back each interval. A change that follows one lone frame (an
// order's fill a few milliseconds after the market's step) is drawn at once, not an interval
// later, also after a step that came in two batches (issue #34: the stream's batches take what is
// queued with no gather, so a step the exchange writes in two parts is two frames, and with two
// an order just after it waited out the frame); a stream of changes is still drawn at the frame
// rate.
const Burst = 3

// pace is the frames that may be drawn at once (a token bucket: Burst at most, one more an
// interval).
type pace struct {
	held float64 // frames that may be drawn at once, as of at
	at   time.Time
}

// now is how many frames may be drawn at once at t.
func (p *pace) now(t time.Time, interval time.Duration) float64 {
	if p.at.IsZero() {
		return Burst
	}
	return min(Burst, p.held+float64(t.Sub(p.at))/float64(interval))
}

// wait is how long from t until a frame may be drawn (0: at once).
func (p *pace) wait(t time.Time, interval time.Duration) time.Duration {
	if h := p.now(t, interval); h < 1 {
		return time.Duration((1 - h) * float64(interval))
	}
	return 0
}

// spend takes a frame drawn at t from the allowance.
func (p *pace) spend(t time.Time, interval time.Duration) {
	p.held, p.at = p.now(t, interval)-1, t
}

// due draws the latest view when the coalescing timer fires.
func (r *Renderer) due() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stop = nil
	if r.closed || (r.shown != nil && r.pending == r.shownView) {
		return
	}
	r.flush()
}

// Resize sets the terminal's size; the next frame is drawn whole.
func (r *Renderer) Resize(width, height int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.width, r.height = width, height
	r.shown = nil
}

// Frames is how many frames have been written.
func (r *Renderer) Frames() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.frames
}

// Idle reports whether nothing waits to be drawn: no timer is armed.
func (r *Renderer) Idle() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.stop == nil
}

// Close stops drawing: a timer armed is stopped and later views are ignored, so that nothing is
// written once the terminal is restored.
func (r *Renderer) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	if r.stop != nil {
		r.stop()
		r.stop = nil
	}
}

// flush writes the pending view: the lines that differ from those on screen, each cut to the
// width and cleared to its end, then the screen below the last line if the frame got shorter (as
// Bubble Tea's standard renderer does in the alternate screen).
func (r *Renderer) flush() {
	view := r.pending
	lines := strings.Split(view, "\n")
	if r.height > 0 && len(lines) > r.height {
		lines = lines[len(lines)-r.height:]
	}
	b := &r.buf
	b.Reset()
	b.WriteString(cursorHome)
	for i, line := range lines {
		if i < len(r.shown) && r.shown[i] == line {
			if i < len(lines)-1 {
				b.WriteByte('\n')
			}
			continue
		}
		// One width pass a line: the panes fit their lines, so the cut (a second pass, and a new
		// string) is for the rare line that is wider (issue #34: the terminal's writes were a
		// tenth of the idle demo's CPU, most of it measuring each changed line twice).
		w := ansi.StringWidth(line)
		if r.width > 0 && w > r.width {
			line = ansi.Truncate(line, r.width, "")
			w = ansi.StringWidth(line)
		}
		b.WriteString(line)
		if w < r.width || r.width == 0 {
			// A line as wide as the screen leaves the cursor on its last cell: clearing there
			// would erase that cell.
			b.WriteString(eraseLineRight)
		}
		if i < len(lines)-1 {
			b.WriteString("\r\n")
		}
	}
	if r.shown == nil || len(r.shown) > len(lines) {
		b.WriteString(eraseScreenBelow)
	}
	_, _ = io.WriteString(r.out, b.String())
	r.shown, r.shownView = lines, view
	r.pace.spend(r.now(), r.interval)
	r.frames++
}

// model is a program's model whose views go to a Renderer.
type model struct {
	tea.Model
	r *Renderer
	// send hands a message to the program (Program): the model runs its commands itself; nil
	// leaves them to Bubble Tea.
	send func(tea.Msg)
}

// Wrap makes m's views go to r: run the result with tea.WithoutRenderer. A window size message
// also tells r the size.
func Wrap(m tea.Model, r *Renderer) tea.Model { return &model{Model: m, r: r} }

// Update implements tea.Model; the wrapper stays the program's model.
func (w *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		w.r.Resize(msg.Width, msg.Height)
	case panicMsg:
		// A command's panic, raised in the loop: Bubble Tea restores the terminal and reports it.
		panic(fmt.Sprintf("a command panicked: %v\n\n%s", msg.v, msg.stack))
	}
	var cmd tea.Cmd
	w.Model, cmd = w.Model.Update(msg)
	if w.send == nil || cmd == nil {
		return w, cmd
	}
	go w.runCmd(cmd)
	return w, nil
}

// View implements tea.Model: it hands the view to the renderer and gives Bubble Tea's (absent)
// renderer nothing.
func (w *model) View() string {
	w.r.Frame(w.Model.View())
	return ""
}
