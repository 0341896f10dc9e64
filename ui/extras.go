package ui

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// This file is the plumbing of the panes that run their own requests (fills, order history,
// chart, instrument details, brokers) and of the pane groups (Market, Activity, Funds). The root
// model needs three lines for all of them: the addPane calls, `case paneMsg:` in Update, and
// startPanes in Init.

// paneMsg is a message of those panes; the root model hands every one to onPaneMsg.
type paneMsg interface{ isPaneMsg() }

// startPanesMsg starts the panes' own polls; Init sends it once.
type startPanesMsg struct{}

// refreshKindsMsg asks the root to poll kinds it owns now (the account after a transfer).
type refreshKindsMsg struct{ kinds []state.Kind }

// focusPaneMsg focuses the slot that holds pane (directly or inside a group), showing it.
type focusPaneMsg struct{ pane Pane }

// fetchDoneMsg is one request's result for a fetcher.
type fetchDoneMsg struct {
	f   *fetcher
	gen uint64
	msg any // a state message, or state.FailedMsg
	err error
}

// fetchDueMsg fires when a fetcher's timer runs out.
type fetchDueMsg struct {
	f     *fetcher
	token uint64
}

func (startPanesMsg) isPaneMsg()   {}
func (refreshKindsMsg) isPaneMsg() {}
func (focusPaneMsg) isPaneMsg()    {}
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
			m.lastErr = msg.f.kind.String() + ": " + plainError(msg.err)
			m.lastErrAt = m.clock()
		}
		if !m.store.Apply(msg.msg) {
			return next
		}
		return tea.Batch(next, m.broadcast(DataMsg{Kind: msg.f.kind}))
	case fetchDueMsg:
		if msg.token != msg.f.token {
			return nil
		}
		return msg.f.poll()
	case refreshKindsMsg:
		return m.refreshNow(msg.kinds...)
	case focusPaneMsg:
		for i, s := range m.slots {
			if s.pane == msg.pane {
				m.setFocus(i)
			} else if g, ok := s.pane.(*paneGroup); ok && g.show(msg.pane) {
				m.setFocus(i)
			}
		}
		return nil
	}
	return m.broadcast(msg)
}

// request is one fetch: it returns a state message (FillsMsg, ChartMsg, ...) for generation gen.
type request func(ctx context.Context, gen uint64, at time.Time) (any, error)

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
		for _, q := range f.queued {
			if q.periodic {
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
			msg = state.FailedMsg{Gen: gen, At: clock(), Kind: kind, Err: err}
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

// freshLine is a pane's status line for kind: what failed and how old the data is, or "" when
// it is fresh.
func freshLine(st *Styles, store *state.Store, k state.Kind, w int) string {
	f := store.Freshness(k)
	switch {
	case f.Err != nil && !f.Loaded():
		return st.Danger.on(pad("failed: "+plainError(f.Err)+" (retrying)", w))
	case f.Err != nil:
		return st.Warn.on(pad("stale "+fmtAge(f.Age)+": "+plainError(f.Err)+" (retrying)", w))
	case f.Stale && f.Loaded():
		return st.Warn.on(pad("stale: updated "+fmtAge(f.Age)+" ago", w))
	}
	return ""
}

// fitLines makes exactly h lines of exactly w cells from lines (plain or styled).
func fitLines(lines []string, w, h int) string {
	out := make([]string, h)
	blank := strings.Repeat(" ", max(w, 0))
	for i := range out {
		if i < len(lines) {
			out[i] = fitStyled(lines[i], w)
		} else {
			out[i] = blank
		}
	}
	return strings.Join(out, "\n")
}

// ringBell rings the terminal bell on stderr (the screen is drawn on stdout).
func ringBell() { _, _ = os.Stderr.WriteString("\a") }

// paneGroup shows one of several panes at a time under a row of tabs: [ and ] switch. The
// history-and-money panes come in three groups so the wide layout keeps room for the core panes.
type paneGroup struct {
	st      *Styles
	title   string
	panes   []Pane
	active  int
	focused bool
	w, h    int
	bar     string
	barKey  string // the titles the bar was drawn with
	prev    key.Binding
	next    key.Binding
}

func newPaneGroup(st *Styles, title string, panes ...Pane) *paneGroup {
	g := &paneGroup{st: st, title: title, panes: panes,
		prev: key.NewBinding(key.WithKeys("["), key.WithHelp("[ ]", "switch view")),
		next: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next view")),
	}
	g.renderBar()
	return g
}

// Title implements Pane: the group's name and the view shown.
func (g *paneGroup) Title() string { return g.title + ": " + g.panes[g.active].Title() }

// Kinds implements kindsShower for the view shown.
func (g *paneGroup) Kinds() []state.Kind {
	if k, ok := g.panes[g.active].(kindsShower); ok {
		return k.Kinds()
	}
	return nil
}

// Capturing implements inputCapturer for the view shown.
func (g *paneGroup) Capturing() bool {
	c, ok := g.panes[g.active].(inputCapturer)
	return ok && c.Capturing()
}

// SetSize implements Pane; the tab row takes one line.
func (g *paneGroup) SetSize(w, h int) {
	g.w, g.h = w, h
	for _, p := range g.panes {
		p.SetSize(w, max(h-1, 1))
	}
	g.renderBar()
}

// SetFocused implements Pane.
func (g *paneGroup) SetFocused(f bool) {
	g.focused = f
	for i, p := range g.panes {
		p.SetFocused(f && i == g.active)
	}
}

// show makes p the view shown, if it is one of the group's; it reports whether it was.
func (g *paneGroup) show(p Pane) bool {
	for i, q := range g.panes {
		if q == p {
			g.switchTo(i)
			return true
		}
	}
	return false
}

func (g *paneGroup) switchTo(i int) {
	n := len(g.panes)
	g.active = (i%n + n) % n
	g.SetFocused(g.focused)
	g.renderBar()
}

// Update implements Pane: keys go to the view shown ([ and ] switch views unless it is typing);
// other messages go to every view.
func (g *paneGroup) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if !g.Capturing() {
			switch {
			case key.Matches(msg, g.prev):
				g.switchTo(g.active - 1)
				return nil
			case key.Matches(msg, g.next):
				g.switchTo(g.active + 1)
				return nil
			}
		}
		return g.panes[g.active].Update(msg)
	case tea.MouseMsg:
		return g.panes[g.active].Update(msg)
	}
	var cmds []tea.Cmd
	for _, p := range g.panes {
		cmds = append(cmds, p.Update(msg))
	}
	return tea.Batch(cmds...)
}

// Click implements clicker: a click on the tab row switches views, below it goes to the view.
func (g *paneGroup) Click(x, y int) tea.Cmd {
	if y == 0 {
		pos := 0
		for i, p := range g.panes {
			w := textWidth(p.Title()) + 3
			if x >= pos && x < pos+w {
				g.switchTo(i)
				return nil
			}
			pos += w
		}
		return nil
	}
	if c, ok := g.panes[g.active].(clicker); ok {
		return c.Click(x, y-1)
	}
	return nil
}

func (g *paneGroup) renderBar() {
	var b strings.Builder
	for i, p := range g.panes {
		label := " " + p.Title() + " "
		if i == g.active {
			b.WriteString(g.st.TitleFocus.on(label))
		} else {
			b.WriteString(g.st.Title.on(label))
		}
		b.WriteString(" ")
	}
	b.WriteString(g.st.Muted.on("[ ] switch"))
	g.bar = fitStyled(b.String(), g.w)
}

// View implements Pane. The tab row is drawn again when a view's title (its count) changed.
func (g *paneGroup) View() string {
	var k strings.Builder
	for _, p := range g.panes {
		k.WriteString(p.Title())
		k.WriteByte(0)
	}
	if key := k.String(); key != g.barKey {
		g.barKey = key
		g.renderBar()
	}
	if g.h <= 1 {
		return g.bar
	}
	return g.bar + "\n" + g.panes[g.active].View()
}

// ShortHelp implements Pane.
func (g *paneGroup) ShortHelp() []key.Binding {
	return append([]key.Binding{g.prev}, g.panes[g.active].ShortHelp()...)
}

// FullHelp implements Pane: every view's help.
func (g *paneGroup) FullHelp() [][]key.Binding {
	out := [][]key.Binding{{g.prev, g.next}}
	for _, p := range g.panes {
		out = append(out, p.FullHelp()...)
	}
	return out
}

// exchangeAddress is the account the exchange acts for ("" when it watches none).
func exchangeAddress(ex api.Exchange) string {
	if ex == nil {
		return ""
	}
	return ex.Address()
}

// emptyFor is a list's empty-state text for kind: loading, the failure, or text once loaded.
func emptyFor(store *state.Store, k state.Kind, text string) string {
	f := store.Freshness(k)
	switch {
	case f.Err != nil && !f.Loaded():
		return k.String() + " request failed: " + plainError(f.Err) + " (retrying)"
	case !f.Loaded():
		return "loading " + k.String() + "…"
	}
	return text
}

// newMarketGroup is the chart and the current instrument's details.
func newMarketGroup(c *Common, ex api.Exchange) *paneGroup {
	return newPaneGroup(c.Styles, "Market", newChartPane(c, ex), newInstrumentPane(c, ex))
}

// newActivityGroup is the fills and the order history; bell rings the terminal bell on new fills.
func newActivityGroup(c *Common, ex api.Exchange, bell bool) *paneGroup {
	return newPaneGroup(c.Styles, "Activity", newFillsPane(c, ex, bell), newHistoryPane(c, ex))
}

// newFundsGroup is the balances and collateral, the transfer form and the broker approvals.
func newFundsGroup(c *Common, ex api.Exchange) *paneGroup {
	return newPaneGroup(c.Styles, "Funds", newBalancesPane(c, exchangeAddress(ex) != ""), newTransferPane(c, ex), newBrokersPane(c, ex))
}

// fetcherOwner is a pane that runs its own requests.
type fetcherOwner interface{ fetchers() []*fetcher }

func (p *fillsPane) fetchers() []*fetcher      { return []*fetcher{p.f} }
func (p *historyPane) fetchers() []*fetcher    { return []*fetcher{p.f} }
func (p *chartPane) fetchers() []*fetcher      { return []*fetcher{p.f} }
func (p *instrumentPane) fetchers() []*fetcher { return []*fetcher{p.f} }
func (p *brokersPane) fetchers() []*fetcher    { return []*fetcher{p.f} }

// fetchers implements fetcherOwner for every view of the group.
func (g *paneGroup) fetchers() []*fetcher {
	var out []*fetcher
	for _, p := range g.panes {
		if o, ok := p.(fetcherOwner); ok {
			out = append(out, o.fetchers()...)
		}
	}
	return out
}

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
