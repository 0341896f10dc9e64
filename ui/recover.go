package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// Recovery. While the exchange fails, every kind backs off (up to Intervals.MaxBackoff, the
// panes' own requests up to two minutes) except the tickers: they are the console's heartbeat, one
// light request, and wait at most twice their interval (longer only when the server asks with
// Retry-After). When a poll succeeds after failures, every other kind still failing is polled at
// once with its backoff reset, so the console is fresh again within about two ticker intervals of
// the exchange coming back, not when the longest backoff runs out.

// heartbeatWait is the wait after a failed poll of kind k: wait, except that the tickers wait at
// most twice their interval unless the server asked for longer.
func (m *Model) heartbeatWait(k state.Kind, wait time.Duration, err error) time.Duration {
	if k != state.KindTickers {
		return wait
	}
	limit := 2 * m.iv.Tickers
	if e, ok := api.AsError(err); ok && e.RetryAfter > limit {
		return wait
	}
	return min(wait, limit)
}

// recoverAll polls now every kind other than except, and every pane's own request, whose last
// attempt failed, and resets their backoff: the exchange answered again.
func (m *Model) recoverAll(except state.Kind) tea.Cmd {
	var cmds []tea.Cmd
	for _, k := range m.kinds {
		if p := m.polls[k]; k != except && p.fails > 0 && !p.inFlight {
			p.fails = 0
			cmds = append(cmds, m.startPoll(k))
		}
	}
	for _, f := range allFetchers(m) {
		if f.started && f.fails > 0 && !f.inFlight {
			f.fails = 0
			cmds = append(cmds, f.poll())
		}
	}
	return tea.Batch(cmds...)
}

// allFetchers are the panes' own request runners (fills, history, chart, details, brokers).
func allFetchers(m *Model) []*fetcher {
	var out []*fetcher
	for _, s := range m.slots {
		if o, ok := s.pane.(fetcherOwner); ok {
			out = append(out, o.fetchers()...)
		}
	}
	return out
}
