package feed

import "time"

// Message is anything a command returns for the front end to hand back: a feed Msg, a state.Msg
// to apply, a pane's own message. It is what Bubble Tea calls tea.Msg, so a front end on Bubble Tea
// passes it through unchanged.
type Message = any

// Cmd is work to run off the front end's goroutine that returns one Message (nil: nothing to
// deliver). It has tea.Cmd's shape, so a Bubble Tea front end returns it as one; a front end
// without a screen runs it itself (Run).
type Cmd = func() Message

// BatchMsg is several commands to run at once, each delivering its own message; a Bubble Tea
// front end hands it to tea.Batch (see the adapter in package ui).
type BatchMsg []Cmd

// Batch combines commands to run at once: nil when there is none, the command itself when there
// is one.
func Batch(cmds ...Cmd) Cmd {
	var live []Cmd
	for _, c := range cmds {
		if c != nil {
			live = append(live, c)
		}
	}
	switch len(live) {
	case 0:
		return nil
	case 1:
		return live[0]
	}
	return func() Message { return BatchMsg(live) }
}

// tick is a command that waits d, then delivers fn's message.
func tick(d time.Duration, fn func(time.Time) Message) Cmd {
	return func() Message {
		t := time.NewTimer(d)
		return fn(<-t.C)
	}
}
