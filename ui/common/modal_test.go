package common

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestTheStackTopIsTheLastOpened: the modal pushed last takes the keys; once it closes (by its
// own key, not through the stack) the one under it is the top again; one pushed again moves to
// the top; with all closed there is none. Guards the push/pop order (a fixed order gave the keys
// to whichever came first in a list, not to what the trader opened last).
func TestTheStackTopIsTheLastOpened(t *testing.T) {
	open := map[string]bool{}
	modal := func(name string) *ModalFuncs {
		return &ModalFuncs{IsOpen: func() bool { return open[name] }, OnKey: func(tea.KeyMsg) tea.Cmd { return nil }}
	}
	a, b := modal("a"), modal("b")
	var s Stack
	if s.Top() != nil {
		t.Fatal("an empty stack has a top")
	}
	open["a"], open["b"] = true, true
	s.Push(a)
	s.Push(b)
	if s.Top() != b {
		t.Fatal("the last pushed is not the top")
	}
	s.Push(a)
	if s.Top() != a {
		t.Fatal("a modal pushed again is not the top")
	}
	open["a"] = false
	if s.Top() != b {
		t.Fatal("after the top closed, the one under it is not the top")
	}
	open["b"] = false
	if s.Top() != nil || len(s.open) != 0 {
		t.Fatalf("all closed: top %v, %d kept", s.Top(), len(s.open))
	}
}

// owned is a modal that keeps its own state, as the stack's owned modals do: open until closed.
type owned struct {
	name   string
	closed bool
}

func (o *owned) Open() bool             { return !o.closed }
func (o *owned) Key(tea.KeyMsg) tea.Cmd { return nil }
func (o *owned) Close() (tea.Cmd, bool) { o.closed = true; return nil, true }
func (o *owned) Covers() bool           { return true }
func (o *owned) View(int, int) string   { return o.name }
func (o *owned) KeepsFooter() bool      { return false }

// TestTheStackOwnsItsModals: a modal pushed with its state is found by its type while open;
// PushSole replaces the one of its type (one confirmation at a time) and keeps the others under
// it; Pop takes one off wherever it is; a closed one is not found and leaves the top. Guards the
// stack as the one owner of the dialogs (the root keeps no field for them).
func TestTheStackOwnsItsModals(t *testing.T) {
	var s Stack
	line := &ModalFuncs{IsOpen: func() bool { return true }, OnKey: func(tea.KeyMsg) tea.Cmd { return nil }}
	first, second := &owned{name: "first"}, &owned{name: "second"}
	s.Push(line)
	PushSole(&s, first)
	if md, ok := Find[*owned](&s); !ok || md != first || s.Top() != first {
		t.Fatalf("pushed: found %v %v, top %v", md, ok, s.Top())
	}
	PushSole(&s, second)
	if md, _ := Find[*owned](&s); md != second || len(s.Shown()) != 2 || s.Shown()[0] != line {
		t.Fatalf("a second of the type did not replace the first: found %v, shown %v", md, s.Shown())
	}
	second.Close()
	if _, ok := Find[*owned](&s); ok || s.Top() != line {
		t.Fatalf("closed: still found, or top %v", s.Top())
	}
	PushSole(&s, first)
	s.Pop(first)
	if _, ok := Find[*owned](&s); ok || s.Top() != line {
		t.Fatalf("popped: still found, or top %v", s.Top())
	}
}
