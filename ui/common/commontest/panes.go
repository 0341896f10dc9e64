package commontest

import (
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Deliver runs cmd the way the root model would: fetch results are applied to the store and the
// pane told; every message that follows is delivered too. It returns the notices shown.
func Deliver(t testing.TB, c *common.Common, p common.Pane, cmd tea.Cmd) []string {
	t.Helper()
	var notices []string
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		if next == nil {
			continue
		}
		switch msg := next().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case feed.Msg:
			r := c.Feed.Update(msg)
			queue = append(queue, common.Tea(r.Cmd)) // a queued request (the next poll's timer is no command)
			if r.Msg != nil && c.Store.Apply(r.Msg) {
				queue = append(queue, p.Update(common.DataMsg{Kind: r.Kind}))
			}
		case common.NoticeMsg:
			notices = append(notices, msg.Text)
		case common.NoticesMsg:
			for _, n := range msg {
				notices = append(notices, n.Text)
			}
		case nil:
		default:
			queue = append(queue, p.Update(msg))
		}
	}
	return notices
}

// PageOf is page p.Page of rows (newest first) as the exchange pages them, p.Limit a page.
func PageOf[T any](rows []T, p api.PageParams) api.Page[T] {
	total := (len(rows) + p.Limit - 1) / p.Limit
	lo := min((p.Page-1)*p.Limit, len(rows))
	hi := min(lo+p.Limit, len(rows))
	return api.Page[T]{Data: rows[lo:hi], Page: p.Page, Limit: p.Limit, TotalCount: len(rows), TotalPages: total,
		HasNext: p.Page < total, HasPrev: p.Page > 1}
}

// KeyMsg is the key named k, as the terminal sends it: "tab", "enter", "ctrl+x" and the like
// by name, anything else as the runes typed.
func KeyMsg(k string) tea.KeyMsg {
	if t, ok := namedKeys[k]; ok {
		if t == tea.KeySpace {
			return tea.KeyMsg{Type: t, Runes: []rune{' '}}
		}
		return tea.KeyMsg{Type: t}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// namedKeys are the keys KeyMsg knows by name.
var namedKeys = map[string]tea.KeyType{
	"tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab, "enter": tea.KeyEnter, "esc": tea.KeyEsc,
	"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight, " ": tea.KeySpace,
	"ctrl+c": tea.KeyCtrlC, "ctrl+x": tea.KeyCtrlX, "ctrl+r": tea.KeyCtrlR, "backspace": tea.KeyBackspace,
}
