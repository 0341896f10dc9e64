package common

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
)

// StartPanesMsg starts the panes' own polls: the root sends it to every pane once, at Init. A pane
// with a task of its own (PaneTask) starts it then.
type StartPanesMsg struct{}

// A pane's own request is bounded by PaneTimeout; PaneMaxBackoff caps its wait after failures.
const (
	PaneTimeout    = 10 * time.Second
	PaneMaxBackoff = 2 * time.Minute
)

// PageSize is how many records one page of a paged list asks for.
const PageSize = 100

// PaneTask registers a pane's own requests of kind with the feed: periodic builds the request for
// what the pane shows now (nil: nothing to poll now), every the wait before the next. The feed
// runs it beside the root's polls and its replies reach the store by the same route.
func PaneTask(c *Common, kind state.Kind, every func() time.Duration, periodic func() feed.Request) *feed.Task {
	return c.Feed.Add(feed.Spec{Kind: kind, Every: every, Request: periodic, Timeout: PaneTimeout, MaxBackoff: PaneMaxBackoff})
}

// AccountRequest is a request about the watched account (nil without one: nothing to poll).
func AccountRequest(ex api.Exchange, fetch func(ctx context.Context, user string, gen uint64, at time.Time) (state.Msg, error)) func() feed.Request {
	return func() feed.Request {
		user := ExchangeAddress(ex)
		if user == "" {
			return nil
		}
		return func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error) {
			return fetch(ctx, user, gen, at)
		}
	}
}

// Fed is a pane whose data its own feed task fetches: the task starts on StartPanesMsg, and
// every other message goes to the pane.
type Fed struct {
	Pane
	Task *feed.Task
}

// Update implements Pane.
func (p *Fed) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(StartPanesMsg); ok {
		return Tea(p.Task.Start())
	}
	return p.Pane.Update(msg)
}

// Kinds implements KindsShower for the pane.
func (p *Fed) Kinds() []state.Kind {
	if k, ok := p.Pane.(KindsShower); ok {
		return k.Kinds()
	}
	return nil
}
