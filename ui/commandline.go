package ui

import (
	"context"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// The `:` command line (ui/components/cmdline): the root opens it, gives it every key while it is
// open, draws it in place of the status and footer lines, and sends what it asks through the
// pipeline (pipeline.go) like any pane's request.

// DefaultCommandHistory is the command line's history file in the user's state directory
// ($XDG_STATE_HOME/tradedesk/command_history, default ~/.local/state/...).
func DefaultCommandHistory() string { return cmdline.DefaultHistoryPath() }

// commandKey gives a key to the open command line: a command on the current instrument, checked
// with the console's fat-finger guard.
func (m *Model) commandKey(msg tea.KeyMsg) tea.Cmd {
	m.footerDirty = true
	return m.cmdline.Update(msg, m.c.Instrument(), m.c.Guard)
}

// fetchCommandBook fetches the book a command-line order needs (cmdline.NeedBookMsg): the store
// keeps only the current instrument's book live.
func (m *Model) fetchCommandBook(need cmdline.NeedBookMsg) tea.Cmd {
	ex, timeout, clock := m.ex, m.iv.Timeout, m.clock
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		at := clock()
		b, err := ex.OrderBook(ctx, need.Symbol, bookDepth)
		return commandBookMsg{need: need, at: at, book: b, err: err}
	}
}

// commandBookMsg is the book a command-line order waited for.
type commandBookMsg struct {
	need cmdline.NeedBookMsg
	at   time.Time
	book api.OrderBook
	err  error
}

// onCommandBook puts the fetched book in the store (as a snapshot of that instrument's book) and
// lets the command line confirm its order on it. Without a book the order is confirmed as before,
// without the row of what the book fills.
func (m *Model) onCommandBook(msg commandBookMsg) tea.Cmd {
	if msg.err == nil && (msg.book.Symbol == "" || strings.EqualFold(msg.book.Symbol, msg.need.Symbol)) {
		m.store.Apply(state.BookUpdateMsg{At: msg.at, Symbol: msg.need.Symbol, Snapshot: true, Time: msg.book.Time.Time,
			Bids: msg.book.Bids, Asks: msg.book.Asks})
	}
	return m.cmdline.Resume(msg.need.Line, m.c.Instrument(), m.c.Guard)
}
