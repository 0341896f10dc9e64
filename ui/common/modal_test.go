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
