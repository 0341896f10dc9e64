package ui

import (
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
)

// pagedList is what the fills and order-history panes share: a table of the account's records,
// newest first; the newest page polled (at once when a fill or an order's state change moves the
// account's orders or positions); older pages loaded as the trader scrolls to the end; CSV and
// JSON export; and a status line that says what is under way or wrong, else what is loaded. A
// pane embeds it and brings its columns, its rows and the words of its hint.
type pagedList struct {
	*common.Common
	ex      api.Exchange
	kind    state.Kind
	tbl     *common.Table
	f       *feed.Task
	loading int // the page being loaded below (0: none)
	exp     exporter
	trades  state.TradeWatch
	w, h    int
	page    func(page int) feed.Request // asks for one page of the kind
	next    func() (int, bool)          // the store's next page to load, and whether there is one
	evicted func() int                  // the store's count of the oldest rows let go over the bound
}

// pagedSource is where a paged list's records come from: one page of kind, and the store's next
// page to load.
type pagedSource struct {
	kind  state.Kind
	every func(Intervals) time.Duration
	page  func(ex api.Exchange, user string, page int) feed.Request
	next  func(*state.Store) (int, bool)
	// evicted is how many of the oldest rows the store let go to stay within its bound.
	evicted func(*state.Store) int
}

func newPagedList(c *common.Common, ex api.Exchange, src pagedSource, cols []common.Column, cell common.CellFunc, empty string) *pagedList {
	l := &pagedList{Common: c, ex: ex, kind: src.kind}
	l.tbl = common.NewTable(c.Styles, cols, cell)
	l.tbl.Empty = empty
	l.page = func(page int) feed.Request { return src.page(ex, ex.Address(), page) }
	l.next = func() (int, bool) { return src.next(c.Store) }
	l.evicted = func() int { return src.evicted(c.Store) }
	l.f = common.PaneTask(c, src.kind, c.Every(src.every), func() feed.Request {
		if common.ExchangeAddress(ex) == "" {
			return nil
		}
		return l.page(1)
	})
	return l
}

// Kinds implements common.KindsShower.
func (l *pagedList) Kinds() []state.Kind { return []state.Kind{l.kind} }

// SetSize implements common.Pane; the last line is the status line.
func (l *pagedList) SetSize(w, h int) {
	l.w, l.h = w, h
	l.tbl.SetSize(w, max(h-1, 1))
}

// SetFocused implements common.Pane.
func (l *pagedList) SetFocused(f bool) { l.tbl.SetFocused(f) }

// update handles what every paged list handles alike: the start of its task, a poll when the
// account's trades moved, the end of a page load, and export progress. It reports whether msg was
// one of those; refresh is true when the pane should take the store's records again.
func (l *pagedList) update(msg tea.Msg) (cmd tea.Cmd, handled, refresh bool) {
	switch msg := msg.(type) {
	case common.StartPanesMsg:
		return common.Tea(l.f.Start()), true, false
	case common.DataMsg:
		if l.trades.Changed(l.Store, msg.Kind) && l.f.Started() {
			return common.Tea(l.f.Poll()), true, false // orders or positions moved: there may be news
		}
		if msg.Kind == l.kind {
			l.loading = pageStillLoading(l.loading, l.next, l.Store.Freshness(l.kind))
		}
		return nil, true, msg.Kind == l.kind || msg.Kind == state.KindInstruments
	case exportProgressMsg, exportDoneMsg:
		return l.exp.update(msg), true, false
	}
	return nil, false, false
}

// loadMore loads the next page when the cursor is on the last row shown, or when no row is shown
// but records are loaded (a filter hides them all).
func (l *pagedList) loadMore(loaded int) tea.Cmd {
	onLast := l.tbl.Rows > 0 && l.tbl.Selected() == l.tbl.Rows-1
	hidden := l.tbl.Rows == 0 && loaded > 0
	if l.loading != 0 || !(onLast || hidden) {
		return nil
	}
	page, more := l.next()
	if !more || page <= 1 {
		return nil
	}
	l.loading = page
	return common.Tea(l.f.Send(l.page(page)))
}

// Click implements common.Clicker: a click selects a row, and on the last one loads more.
func (l *pagedList) Click(_, y int) tea.Cmd {
	if l.tbl.ClickRow(y) {
		return l.loadMore(l.tbl.Rows)
	}
	return nil
}

// view is the table above the status line; idle is the status line when nothing needs saying.
func (l *pagedList) view(idle func() string) string {
	lines := l.tbl.Lines(make([]string, 0, l.h))
	status := pagedStatus(l.Styles, l.Store, l.kind, &l.exp, l.loading, l.w)
	if status == "" {
		status = l.Styles.Muted.On(common.Pad(idle(), l.w))
	}
	return strings.Join(append(lines, status), "\n")
}

// hint is the idle status line's words: n records loaded, whether more can be loaded, the last
// export.
func (l *pagedList) hint(n int) string { return pagedHint(n, l.next, l.evicted() > 0, l.exp.last) }

// pageStillLoading is the page still being loaded after a reply: none once the next page to load
// moved past it, or the request failed.
func pageStillLoading(loading int, next func() (int, bool), f state.Freshness) int {
	if n, more := next(); loading == 0 || !more || n > loading || f.Err != nil {
		return 0
	}
	return loading
}

// newOnTop counts the rows of now above the first row of before (the rows that arrived on top).
func newOnTop[T any, K comparable](before, now []T, key func(*T) K) int {
	if len(before) == 0 {
		return len(now)
	}
	top := key(&before[0])
	for i := range now {
		if key(&now[i]) == top {
			return i
		}
	}
	return 0 // the list was replaced, not grown
}

// pagedStatus is a paged list's status line while something needs saying, in order of urgency:
// the export's progress, a failed or stale poll of kind k, the page being loaded; "" otherwise.
func pagedStatus(st *common.Styles, store *state.Store, k state.Kind, exp *exporter, loading, w int) string {
	if s := exp.line(st, w); s != "" {
		return s
	}
	if s := common.FreshLine(st, store, k, w); s != "" {
		return s
	}
	if loading > 0 {
		return st.Accent.On(common.Pad("loading page "+strconv.Itoa(loading)+"…", w))
	}
	return ""
}

// pagedHint is a paged list's footer: rows loaded, whether more can be loaded (none once the
// store let the oldest go to stay within its bound), the last export.
func pagedHint(n int, next func() (int, bool), bounded bool, last string) string {
	s := strconv.Itoa(n) + " loaded"
	if bounded {
		s += " · the newest kept, older let go (bound)"
	} else if _, more := next(); more && n > 0 {
		s += " · scroll to the end for more"
	} else if n > 0 {
		s += " · all"
	}
	s += " · e/E export CSV/JSON"
	if last != "" {
		s += " · " + last
	}
	return s
}
