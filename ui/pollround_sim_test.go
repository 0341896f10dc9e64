package ui

import (
	"slices"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
)

// replies runs cmd and the batches it returns, and returns the messages they bring without
// delivering any.
func replies(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, replies(c)...)
		}
		return out
	default:
		return []tea.Msg{msg}
	}
}

// TestAPollRoundDrawsOneFrame (issue #34): the polls one wake of the feed's timer sends come back
// one at a time; the screen keeps the frame drawn last until the round's last reply, which draws
// them all in one frame (the polling demo drew three frames a second, one each two or three
// replies). The tickers' reply comes first here, so a console that drew each reply would show
// the market's move before the round's end.
func TestAPollRoundDrawsOneFrame(t *testing.T) {
	t.Parallel() // owns its simulator, console and clock; sets nothing process-wide
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	for range 5 {
		wait, ok := c.timers.Next()
		if !ok {
			t.Fatal("no timer pending")
		}
		c.clock.Add(time.Second) // the market moves: the tickers' reply changes the screen
		var round []tea.Msg
		for _, msg := range c.timers.Advance(wait) {
			_, cmd := c.m.Update(msg)
			round = append(round, replies(cmd)...)
		}
		round = slices.DeleteFunc(round, func(m tea.Msg) bool { _, ok := m.(feed.DoneMsg); return !ok })
		if len(round) < 3 { // settled, on to the next wake
			for _, m := range round {
				_, cmd := c.m.Update(m)
				pump(t, c.m, cmd)
			}
			continue
		}
		slices.SortStableFunc(round, func(a, b tea.Msg) int {
			return boolInt(b.(feed.DoneMsg).Kind() == state.KindTickers) - boolInt(a.(feed.DoneMsg).Kind() == state.KindTickers)
		})
		before := c.m.View()
		for i, m := range round {
			c.m.Update(m)
			got := c.m.View()
			if last := i == len(round)-1; !last && got != before {
				t.Fatalf("reply %d of the round's %d (%s) drew a frame before the round's last", i+1, len(round), m.(feed.DoneMsg).Kind())
			} else if last && got == before {
				t.Fatalf("the round's %d replies drew nothing: the tickers moved", len(round))
			}
		}
		return
	}
	t.Fatal("no wake in five sent three polls or more")
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
