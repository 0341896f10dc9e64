package ui

import (
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/ui/common"
)

// countingPane counts its renders.
type countingPane struct {
	common.Pane
	n *int
}

func (p countingPane) View() string { *p.n++; return p.Pane.View() }

// TestAMessageThatChangesNothingDrawsNoPane (issue #34): once the console has settled, the
// feed's timers that only start a poll, a second apart, change nothing on screen: the root keeps
// the frame it drew and no pane's View runs. A key that moves the selection draws again.
func TestAMessageThatChangesNothingDrawsNoPane(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	renders := 0
	for _, s := range c.m.slots {
		s.pane = countingPane{Pane: s.pane, n: &renders}
	}
	first := c.m.View()
	drawn := renders
	if drawn == 0 {
		t.Fatal("the first frame drew no pane")
	}
	timers := 0
	for range 3 {
		wait, ok := c.timers.Next()
		if !ok {
			t.Fatal("no timer pending")
		}
		c.clock.Add(time.Second) // a poll's timer a second later: the ages move with its reply, not with it
		for _, msg := range c.timers.Advance(wait) {
			timers++
			c.m.Update(msg) // the poll it starts is not run: nothing comes back
			if got := c.m.View(); got != first {
				t.Fatalf("a timer changed the frame:\n%s", got)
			}
		}
	}
	if renders != drawn {
		t.Errorf("%d timers that changed nothing rendered the panes %d times", timers, renders-drawn)
	}
	c.m.Update(keyMsg("down"))
	if c.m.View(); renders == drawn {
		t.Error("a key that moves the selection rendered no pane")
	}
}
