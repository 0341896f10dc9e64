package screen

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

type (
	startMsg struct{}
	gotMsg   string
)

// batcher answers startMsg with a batch of commands (one of them nested, one nil, one without a
// message) and quits once it has every answer.
type batcher struct {
	got  []string
	want int
}

func (b *batcher) Init() tea.Cmd { return nil }

func (b *batcher) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	say := func(s string) tea.Cmd { return func() tea.Msg { return gotMsg(s) } }
	switch msg := msg.(type) {
	case startMsg:
		return b, tea.Batch(say("a"), nil, func() tea.Msg { return nil }, tea.Batch(say("b"), say("c")))
	case gotMsg:
		if b.got = append(b.got, string(msg)); len(b.got) == b.want {
			return b, tea.Quit
		}
	}
	return b, nil
}

func (b *batcher) View() string { return "" }

// run runs m as Program does, sends it startMsg and returns every message its loop saw.
func run(t *testing.T, m tea.Model) ([]tea.Msg, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var mu sync.Mutex
	var seen []tea.Msg
	p := Program(m, NewRenderer(io.Discard, 30), tea.WithInput(nil), tea.WithOutput(io.Discard),
		tea.WithContext(ctx), tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			mu.Lock()
			defer mu.Unlock()
			seen = append(seen, msg)
			return msg
		}))
	go p.Send(startMsg{})
	_, err := p.Run()
	mu.Lock()
	defer mu.Unlock()
	return seen, err
}

// The program's commands are run by the model: a batch's commands each send their message, and
// neither the batch itself nor a nil message goes through the program's loop (Bubble Tea sends
// both there, each a wake-up of the loop and of its command goroutine).
func TestABatchsMessagesAloneReachTheLoop(t *testing.T) {
	b := &batcher{want: 3}
	seen, err := run(t, b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, msg := range seen {
		switch msg := msg.(type) {
		case startMsg, tea.QuitMsg:
		case gotMsg:
			got = append(got, string(msg))
		default:
			t.Errorf("the loop saw %T %v: want only the commands' messages", msg, msg)
		}
	}
	if len(got) != 3 {
		t.Errorf("messages %q, want a, b and c", got)
	}
}

// panicky panics in a command.
type panicky struct{}

func (panicky) Init() tea.Cmd { return nil }
func (panicky) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(startMsg); ok {
		return panicky{}, func() tea.Msg { panic("boom") }
	}
	return panicky{}, nil
}
func (panicky) View() string { return "" }

// A command's panic ends the program as Bubble Tea's own command goroutines do (the terminal
// restored, the program's error a panic), not the process from another goroutine.
func TestACommandsPanicEndsTheProgram(t *testing.T) {
	_, err := run(t, panicky{})
	if !errors.Is(err, tea.ErrProgramPanic) {
		t.Fatalf("Run: %v, want %v", err, tea.ErrProgramPanic)
	}
}
