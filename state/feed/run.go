package feed

import "context"

// Run is the loop of a front end without a screen, as tea.Program is a screen's: it runs cmd and
// every command that follows, each on its own goroutine (a batch's at once), and hands each
// message to deliver on the caller's goroutine, one at a time, so deliver (which owns the Feed
// and the store) needs no lock. deliver returns the command that follows, or nil. Run returns
// when no command is left running, or ctx is done (then with ctx's error; commands still
// running finish on their own and their messages are dropped).
func Run(ctx context.Context, cmd Cmd, deliver func(Message) Cmd) error {
	msgs := make(chan Message)
	running := 0
	start := func(c Cmd) {
		if c == nil {
			return
		}
		running++
		go func() {
			m := c()
			select {
			case msgs <- m:
			case <-ctx.Done():
			}
		}()
	}
	start(cmd)
	for running > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case m := <-msgs:
			running--
			if b, ok := m.(BatchMsg); ok {
				for _, c := range b {
					start(c)
				}
				continue
			}
			if m != nil {
				start(deliver(m))
			}
		}
	}
	return nil
}
