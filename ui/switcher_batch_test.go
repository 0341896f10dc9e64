package ui

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// A profile's batch is tagged where it is run: its commands answer with the profile's messages,
// with no trip through the switcher's Update to be tagged there (a message through Bubble Tea's
// loop, each a wake-up).
func TestAProfilesBatchIsTaggedWhereItRuns(t *testing.T) {
	say := func(s string) tea.Cmd { return func() tea.Msg { return s } }
	msg := tagged("p2", tea.Batch(say("a"), nil, say("b")))()
	b, ok := msg.(tea.BatchMsg)
	if !ok || len(b) != 2 {
		t.Fatalf("tagged batch answered %T %v, want a batch of the 2 commands", msg, msg)
	}
	for i, want := range []string{"a", "b"} {
		if got := b[i](); got != (profileMsg{profile: "p2", msg: want}) {
			t.Errorf("command %d answered %v, want %q for p2", i, got, want)
		}
	}
	if msg := tagged("p2", func() tea.Msg { return nil })(); msg != nil {
		t.Errorf("no message tagged: %v, want nil", msg)
	}
}
