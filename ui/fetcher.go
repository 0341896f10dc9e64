package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// This file is the plumbing of the panes that run their own requests (fills, order history,
// chart, instrument details, brokers), alone or inside a pane group (panegroup.go). The root
// model needs three lines for all of them: the addPane calls, `case paneMsg:` in Update, and
// startPanes in Init.

// paneMsg is a message of those panes; the root model hands every one to onPaneMsg.
type paneMsg interface{ isPaneMsg() }

// startPanesMsg starts the panes' own polls; Init sends it once.
type startPanesMsg struct{}

// refreshKindsMsg asks the root to poll kinds it owns now (the account after a transfer).
type refreshKindsMsg struct{ kinds []state.Kind }

// fetchDoneMsg is one request's result for a fetcher.
type fetchDoneMsg struct {
	f   *fetcher
	gen uint64
	msg state.Msg // a state message, or state.FailedMsg
	err error
}

// fetchDueMsg fires when a fetcher's timer runs out.
type fetchDueMsg struct {
	f     *fetcher
	token uint64
}

func (startPanesMsg) isPaneMsg()   {}
func (refreshKindsMsg) isPaneMsg() {}
func (fetchDoneMsg) isPaneMsg()    {}
func (fetchDueMsg) isPaneMsg()     {}

// startPanes is Init's command that starts the panes' own polls.
func startPanes() tea.Msg { return startPanesMsg{} }

// onPaneMsg applies fetch results to the store, runs fetchers' timers, refreshes and focuses on
// request, and hands anything else (exports, pane-to-pane requests) to every pane.
func (m *Model) onPaneMsg(msg paneMsg) tea.Cmd {
	switch msg := msg.(type) {
	case fetchDoneMsg:
		next := msg.f.done(msg)
		if msg.err != nil {
			m.lastErr = msg.f.kind.String() + ": " + common.PlainError(msg.err)
			m.lastErrAt = m.clock()
		}
		if !m.store.Apply(msg.msg) {
			return next
		}
		return tea.Batch(next, m.broadcast(common.DataMsg{Kind: msg.f.kind}))
	case fetchDueMsg:
		if msg.token != msg.f.token {
			return nil
		}
		return msg.f.poll()
	case refreshKindsMsg:
		return m.refreshNow(msg.kinds...)
	}
	return m.broadcast(msg)
}

// request is one fetch: it returns a state message (FillsMsg, ChartMsg, ...) for generation gen.
type request func(ctx context.Context, gen uint64, at time.Time) (state.Msg, error)

// fetcher runs one kind of request for a pane: one in flight at a time (so replies arrive in the
// order of their generations), a timer for the next periodic request, and a backoff after
// failures. It lives in the root model's goroutine: only Update calls it.
type fetcher struct {
	kind     state.Kind
	clock    func() time.Time
	timeout  time.Duration
	every    func() time.Duration // the wait before the next periodic request
	periodic func() request       // the periodic request (nil: nothing to poll now)
	gen      uint64
	token    uint64
	inFlight bool
	queued   []queuedRequest // asked for while one was in flight: sent in order on the replies
	fails    int
	started  bool
}

// queuedRequest is a request waiting for the one in flight; periodic marks the poll, which is
// queued once at most.
type queuedRequest struct {
	r        request
	periodic bool
}

func newFetcher(kind state.Kind, clock func() time.Time, every func() time.Duration, periodic func() request) *fetcher {
	return &fetcher{kind: kind, clock: clock, timeout: 10 * time.Second, every: every, periodic: periodic}
}

// start begins periodic polling (once).
func (f *fetcher) start() tea.Cmd {
	if f.started {
		return nil
	}
	f.started = true
	return f.poll()
}

// poll sends the periodic request now.
func (f *fetcher) poll() tea.Cmd {
	f.token++ // any pending timer is superseded
	if f.periodic == nil {
		return nil
	}
	r := f.periodic()
	if r == nil {
		return f.schedule(f.every())
	}
	if f.inFlight {
		for i, q := range f.queued {
			if q.periodic {
				// Built now, r asks for what the pane shows now (a chart's new instrument): the
				// older poll would fetch what it showed before, and nothing would ask for this.
				f.queued[i].r = r
				return nil
			}
		}
		f.queued = append(f.queued, queuedRequest{r: r, periodic: true})
		return nil
	}
	return f.send(r)
}

// send runs r now, or after the requests before it.
func (f *fetcher) send(r request) tea.Cmd {
	if f.inFlight {
		f.queued = append(f.queued, queuedRequest{r: r})
		return nil
	}
	f.inFlight = true
	f.gen++
	gen, clock, timeout, kind := f.gen, f.clock, f.timeout, f.kind
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		msg, err := r(ctx, gen, clock())
		if err != nil {
			msg = state.FailedMsg{Gen: gen, At: clock(), Of: kind, Err: err}
		}
		return fetchDoneMsg{f: f, gen: gen, msg: msg, err: err}
	}
}

// done takes a reply: it sends the queued request, or arms the next periodic one.
func (f *fetcher) done(msg fetchDoneMsg) tea.Cmd {
	if msg.gen != f.gen {
		return nil
	}
	f.inFlight = false
	if len(f.queued) > 0 {
		q := f.queued[0]
		f.queued = f.queued[1:]
		return f.send(q.r)
	}
	if msg.err != nil {
		f.fails++
		return f.schedule(backoff(f.every(), f.fails, 2*time.Minute, msg.err))
	}
	f.fails = 0
	return f.schedule(f.every())
}

func (f *fetcher) schedule(d time.Duration) tea.Cmd {
	f.token++
	tok := f.token
	return tea.Tick(d, func(time.Time) tea.Msg { return fetchDueMsg{f: f, token: tok} })
}

// fetcherOwner is a pane that runs its own requests.
type fetcherOwner interface{ fetchers() []*fetcher }

func (p *fillsPane) fetchers() []*fetcher      { return []*fetcher{p.f} }
func (p *historyPane) fetchers() []*fetcher    { return []*fetcher{p.f} }
func (p *chartPane) fetchers() []*fetcher      { return []*fetcher{p.f} }
func (p *instrumentPane) fetchers() []*fetcher { return []*fetcher{p.f} }
func (p *brokersPane) fetchers() []*fetcher    { return []*fetcher{p.f} }

// fetchersBusy reports whether a pane's own request is out or queued (tests wait for quiet).
func (m *Model) fetchersBusy() bool {
	for _, s := range m.slots {
		o, ok := s.pane.(fetcherOwner)
		if !ok {
			continue
		}
		for _, f := range o.fetchers() {
			if f.inFlight || len(f.queued) > 0 {
				return true
			}
		}
	}
	return false
}
