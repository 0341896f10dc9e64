package pagedlist

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
)

// List is what the fills, order-history and funding panes share: a table of the account's
// records, newest first; the newest page polled (for a Source that watches trades, at once when a
// fill or an order's state change moves the account's orders or positions); older pages loaded as the trader scrolls to the end; CSV and
// JSON export; and a status line that says what is under way or wrong, else what is loaded. A
// pane embeds it and brings its columns, its rows and the words of its hint.
type List struct {
	*common.Common
	// Ex is the exchange the pages and exports are read from.
	Ex   api.Exchange
	kind state.Kind
	// Tbl is the list's table; the pane brings its columns and cells.
	Tbl     *common.Table
	f       *feed.Task
	loading int // the page being loaded below (0: none)
	// Exp is the list's export (CSV and JSON of every page).
	Exp     Exporter
	trades  state.TradeWatch
	w, h    int
	page    func(page int) feed.Request // asks for one page of the kind
	next    func() (int, bool)          // the store's next page to load, and whether there is one
	evicted func() int                  // the store's count of the oldest rows let go over the bound
	shared  bool                        // the task is another list's (NewShared): it polls, not this one
	watch   bool                        // poll at once when the account's trades moved
	follows []state.Kind                // the streamed kinds that say the list changed
}

// Source is where a paged list's records come from: one page of kind, and the store's next
// page to load.
type Source struct {
	// Kind is the kind of the records.
	Kind state.Kind
	// Every picks the list's poll cadence from the console's intervals.
	Every func(state.Intervals) time.Duration
	// Page asks for one page of the records of user.
	Page func(ex api.Exchange, user string, page int) feed.Request
	// Next is the store's next page to load, and whether there is one. Nil for a list that is
	// one page (the transfers, the brokers): each poll replaces it and nothing older loads.
	Next func(*state.Store) (int, bool)
	// Evicted is how many of the oldest rows the store let go to stay within its bound (nil:
	// none).
	Evicted func(*state.Store) int
	// WatchTrades polls the newest page at once when the account's orders or positions moved (a
	// fill or an order's state change is news for fills and history, not for funding), unless
	// the stream brings the news itself (feed.Task.Streamed): the streamed fills are the fills
	// list's own records, and the store takes the streamed order records into the order history.
	WatchTrades bool
	// Follows are the streamed kinds whose records say the list changed (feed.Task.Follow):
	// while they stream, the list's poll only reconciles.
	Follows []state.Kind
}

// New is a paged list of src's records in a table of cols drawn by cell; empty is what it says
// with none.
func New(c *common.Common, ex api.Exchange, src Source, cols []common.Column, cell common.CellFunc, empty string) *List {
	l := newList(c, ex, src, cols, cell, empty)
	l.f = common.PaneTask(c, src.Kind, c.Every(src.Every), func() feed.Request {
		if common.ExchangeAddress(ex) == "" {
			return nil
		}
		return l.page(1)
	}).Follow(src.Follows...)
	return l
}

// NewShared is New on the feed task an earlier list of src's kind added (the Trades view reads
// the fills the Fills view polls): it loads older pages through that task and polls nothing of
// its own, so the kind is not polled twice. Without such a task it is New.
func NewShared(c *common.Common, ex api.Exchange, src Source, cols []common.Column, cell common.CellFunc, empty string) *List {
	t := c.Feed.Task(src.Kind)
	if t == nil {
		return New(c, ex, src, cols, cell, empty)
	}
	l := newList(c, ex, src, cols, cell, empty)
	l.f, l.shared = t, true
	return l
}

func newList(c *common.Common, ex api.Exchange, src Source, cols []common.Column, cell common.CellFunc, empty string) *List {
	l := &List{Common: c, Ex: ex, kind: src.Kind, watch: src.WatchTrades, follows: src.Follows}
	l.Tbl = common.NewTable(c.Styles, cols, cell)
	l.Tbl.Empty = empty
	l.page = func(page int) feed.Request { return src.Page(ex, common.ExchangeAddress(ex), page) }
	l.next, l.evicted = func() (int, bool) { return 0, false }, func() int { return 0 }
	if src.Next != nil {
		l.next = func() (int, bool) { return src.Next(c.Store) }
	}
	if src.Evicted != nil {
		l.evicted = func() int { return src.Evicted(c.Store) }
	}
	return l
}

// Width is the list's width, for a status line the pane draws itself (Over).
func (l *List) Width() int { return l.w }

// Kinds implements common.KindsShower.
func (l *List) Kinds() []state.Kind { return []state.Kind{l.kind} }

// SetSize implements common.Pane; the last line is the status line.
func (l *List) SetSize(w, h int) {
	l.w, l.h = w, h
	l.Tbl.SetSize(w, max(h-1, 1))
}

// SetFocused implements common.Pane.
func (l *List) SetFocused(f bool) { l.Tbl.SetFocused(f) }

// Handle handles what every paged list handles alike: the start of its task, a poll when the
// account's trades moved, the end of a page load, and export progress. It reports whether msg was
// one of those; refresh is true when the pane should take the store's records again (also when
// one of shownWith changed, the kinds the pane shows its rows with, such as the collateral names).
func (l *List) Handle(msg tea.Msg, shownWith ...state.Kind) (cmd tea.Cmd, handled, refresh bool) {
	switch msg := msg.(type) {
	case common.StartPanesMsg:
		if l.shared {
			return nil, true, false
		}
		return common.Tea(l.f.Start()), true, false
	case common.DataMsg:
		var poll tea.Cmd
		if l.watch && l.trades.Changed(l.Store, msg.Kind) && l.f.Started() && !l.shared && !l.f.Streamed() {
			poll = common.Tea(l.f.Poll()) // orders or positions moved: there may be news
		}
		if msg.Kind == l.kind {
			l.loading = pageStillLoading(l.loading, l.next, l.Store.Freshness(l.kind))
		}
		// A followed kind's streamed record may have changed the list (the store takes streamed
		// order records into the history): the pane's refresh reads it when its version moved.
		return poll, true, msg.Kind == l.kind || msg.Kind == state.KindInstruments || slices.Contains(l.follows, msg.Kind) ||
			slices.Contains(shownWith, msg.Kind)
	case exportProgressMsg, exportDoneMsg:
		return l.Exp.update(msg), true, false
	}
	return nil, false, false
}

// LoadMore loads the next page when the cursor is on the last row shown, or when no row is shown
// but records are loaded (a filter hides them all).
func (l *List) LoadMore(loaded int) tea.Cmd {
	onLast := l.Tbl.Rows > 0 && l.Tbl.Selected() == l.Tbl.Rows-1
	hidden := l.Tbl.Rows == 0 && loaded > 0
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
func (l *List) Click(_, y int) tea.Cmd {
	if l.Tbl.ClickRow(y) {
		return l.LoadMore(l.Tbl.Rows)
	}
	return nil
}

// Body is the table above the status line; idle is the status line when nothing needs saying.
func (l *List) Body(idle func() string) string {
	status := pagedStatus(l.Styles, l.Keys, l.Store, l.kind, &l.Exp, l.loading, l.w)
	if status == "" {
		status = l.Styles.Muted.On(common.Pad(idle(), l.w))
	}
	return l.Over(status)
}

// Over is the table above status, a line the pane draws in place of the list's own (a line
// being typed), already fitted to the width.
func (l *List) Over(status string) string {
	return strings.Join(append(l.Tbl.Lines(make([]string, 0, l.h)), status), "\n")
}

// Hint is the idle status line's words: n records loaded, whether more can be loaded, the last
// export.
func (l *List) Hint(n int) string { return pagedHint(n, l.next, l.evicted() > 0, l.Exp.last) }

// More is what the idle status line says of the pages beyond the n records loaded: that the
// store let the oldest go, that scrolling loads more, or that all are loaded ("" with none).
func (l *List) More(n int) string { return pagedMore(n, l.next, l.evicted() > 0) }

// pageStillLoading is the page still being loaded after a reply: none once the next page to load
// moved past it, or the request failed.
func pageStillLoading(loading int, next func() (int, bool), f state.Freshness) int {
	if n, more := next(); loading == 0 || !more || n > loading || f.Err != nil {
		return 0
	}
	return loading
}

// NewOnTop counts the rows of now above the first row of before (the rows that arrived on top).
func NewOnTop[T any, K comparable](before, now []T, key func(*T) K) int {
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
func pagedStatus(st *common.Styles, keys *common.KeyMap, store *state.Store, k state.Kind, exp *Exporter, loading, w int) string {
	if s := exp.line(st, keys, w); s != "" {
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
	s := strconv.Itoa(n) + " loaded" + pagedMore(n, next, bounded) + " · e/E export CSV/JSON"
	if last != "" {
		s += " · " + last
	}
	return s
}

// pagedMore is the footer's words on the pages beyond the n rows loaded, from " · ".
func pagedMore(n int, next func() (int, bool), bounded bool) string {
	if bounded {
		return " · the newest kept, older let go (bound)"
	}
	if _, more := next(); more && n > 0 {
		return " · scroll to the end for more"
	} else if n > 0 {
		return " · all"
	}
	return ""
}

// ShortHelp implements common.Pane: the list's navigation (a pane with keys of its own shows
// those instead).
func (l *List) ShortHelp() []key.Binding { return []key.Binding{l.Keys.Up, l.Keys.Down} }

// FullHelp implements common.Pane: nothing but the list's navigation, which the Activity group's
// help already shows with the fills, so it adds nothing there.
func (l *List) FullHelp() [][]key.Binding { return nil }

// Task is the list's feed task: the newest page's poll and the older pages' requests.
func (l *List) Task() *feed.Task { return l.f }
