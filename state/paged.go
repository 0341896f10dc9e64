package state

import (
	"log/slog"
	"reflect"
	"slices"

	"github.com/tradedesk/tradedesk/api"
)

// MaxPagedRows bounds each paged list (fills, order history, funding payments): a server that
// keeps inventing rows on page 1, or pages without end, cannot grow the console's memory past it.
// When a merge would go over it the oldest rows are evicted (with a logged reason) and no older
// page is loaded after that (it would leave a gap where the evicted rows were).
const MaxPagedRows = 10_000

// pagedList is a newest-first list loaded page by page: page 1 is merged on top, later pages are
// appended; a record already held is replaced by the newer copy, never duplicated. A page 1 that
// is the server's whole list, or that does not hold the newest row held (the server's history
// changed under us: another exchange, a restarted one), replaces the list instead.
type pagedList[T any, K comparable] struct {
	name       string // the kind's name, for the log
	rows       []T
	key        func(T) K
	lastPage   int // highest page merged since the last page 1
	totalPages int
	hasNext    bool
	evicted    int // rows evicted over MaxPagedRows since the list was last replaced
	limit      int // the bound (0: MaxPagedRows); tests lower it
}

// merge folds one page in, building a new slice so earlier readers keep a consistent view. It
// reports whether the rows changed.
func (l *pagedList[T, K]) merge(p api.Page[T]) bool {
	if p.Page <= 1 {
		return l.mergeFirst(p)
	}
	l.rows = l.bound(l.mergeBottom(p.Data))
	if p.Page > l.lastPage {
		l.lastPage = p.Page
	}
	l.totalPages = p.TotalPages
	if p.Page >= l.lastPage {
		l.hasNext = p.HasNext
	}
	return true
}

// mergeFirst folds in page 1: unchanged when it is what is held on top already; the whole list
// when the page is all the server has or does not reach the rows held; else merged on top.
func (l *pagedList[T, K]) mergeFirst(p api.Page[T]) bool {
	whole := wholeList(p)
	if l.lastPage >= 1 && l.onTop(p.Data) && (!whole || len(p.Data) == len(l.rows)) {
		l.totalPages = p.TotalPages
		return false
	}
	if whole || !l.reaches(p.Data) {
		// Rows held below a page that does not reach them are another history's (or stand
		// behind a gap of rows never loaded): the server's page 1 is the truth, older pages load
		// again on scrolling.
		l.evicted = 0
		l.rows = l.bound(dedup(p.Data, l.key))
		l.lastPage, l.totalPages, l.hasNext = 1, p.TotalPages, p.HasNext
		return true
	}
	l.rows = l.bound(l.mergeTop(p.Data))
	if l.lastPage < 1 {
		l.lastPage = 1
	}
	l.totalPages = p.TotalPages
	if l.lastPage <= 1 {
		l.hasNext = p.HasNext
	}
	return true
}

// wholeList reports whether page 1 is, by its own envelope, every record the server has: no next
// page, at most one page, and a total count equal to the rows sent (an envelope without totals
// is not taken as the whole list: it is merged as before).
func wholeList[T any](p api.Page[T]) bool {
	return !p.HasNext && p.TotalPages <= 1 && p.TotalCount == len(p.Data)
}

// reaches reports whether page holds the newest row held (or nothing is held): then the rows
// held below it continue the page.
func (l *pagedList[T, K]) reaches(page []T) bool {
	if len(l.rows) == 0 {
		return true
	}
	top := l.key(l.rows[0])
	for _, r := range page {
		if l.key(r) == top {
			return true
		}
	}
	return false
}

// bound evicts the oldest rows over the list's limit, logging why; rows is returned unchanged
// when it is within it.
func (l *pagedList[T, K]) bound(rows []T) []T {
	limit := l.limit
	if limit <= 0 {
		limit = MaxPagedRows
	}
	if len(rows) <= limit {
		return rows
	}
	n := len(rows) - limit
	l.evicted += n
	slog.Warn("paged list over its bound: oldest rows evicted", "kind", l.name, "bound", limit,
		"evicted", n, "evicted_in_all", l.evicted)
	return slices.Clone(rows[:limit])
}

// dedup is page without repeated keys (the first copy kept), as a new slice.
func dedup[T any, K comparable](page []T, key func(T) K) []T {
	seen := make(map[K]struct{}, len(page))
	out := make([]T, 0, len(page))
	for _, r := range page {
		k := key(r)
		if _, dup := seen[k]; dup {
			continue
		}
		seen[k] = struct{}{}
		out = append(out, r)
	}
	return slices.Clip(out)
}

// onTop reports whether page is exactly the first rows already held (same records, same order),
// as when a poll of page 1 finds nothing new.
func (l *pagedList[T, K]) onTop(page []T) bool {
	if len(page) > len(l.rows) {
		return false
	}
	for i := range page {
		if !reflect.DeepEqual(page[i], l.rows[i]) {
			return false
		}
	}
	return true
}

// mergeTop puts page's rows first, then every older row the page does not hold.
func (l *pagedList[T, K]) mergeTop(page []T) []T {
	seen := make(map[K]struct{}, len(page))
	out := make([]T, 0, len(page)+len(l.rows))
	for _, r := range page {
		k := l.key(r)
		if _, dup := seen[k]; dup {
			continue
		}
		seen[k] = struct{}{}
		out = append(out, r)
	}
	for _, r := range l.rows {
		if _, dup := seen[l.key(r)]; !dup {
			out = append(out, r)
		}
	}
	// A page of many copies of one row kept the whole page's capacity with the list: clip it.
	return slices.Clip(out)
}

// mergeBottom replaces rows already held by their newer copy and appends the rest.
func (l *pagedList[T, K]) mergeBottom(page []T) []T {
	pos := make(map[K]int, len(l.rows))
	out := make([]T, len(l.rows), len(l.rows)+len(page))
	copy(out, l.rows)
	for i, r := range out {
		pos[l.key(r)] = i
	}
	for _, r := range page {
		k := l.key(r)
		if i, ok := pos[k]; ok {
			out[i] = r
			continue
		}
		pos[k] = len(out)
		out = append(out, r)
	}
	return out
}

// next returns the next page to fetch for older rows.
func (l *pagedList[T, K]) next() (int, bool) {
	if l.lastPage == 0 {
		return 1, true
	}
	if l.evicted > 0 {
		return 0, false // older pages would land below a gap where evicted rows were
	}
	if !l.hasNext && (l.totalPages == 0 || l.lastPage >= l.totalPages) {
		return 0, false
	}
	return l.lastPage + 1, true
}

// upsertTop puts r on top, or replaces the copy held, building a new slice; it reports whether
// the rows changed.
func (l *pagedList[T, K]) upsertTop(r T) bool {
	k := l.key(r)
	for i, held := range l.rows {
		if l.key(held) != k {
			continue
		}
		if reflect.DeepEqual(held, r) {
			return false
		}
		out := make([]T, len(l.rows))
		copy(out, l.rows)
		out[i] = r
		l.rows = out
		return true
	}
	out := make([]T, 0, len(l.rows)+1)
	l.rows = l.bound(append(append(out, r), l.rows...))
	return true
}

// raise puts r on top, taking out the copy held wherever it is (a streamed row a page that was
// asked for before it arrived pushed down).
func (l *pagedList[T, K]) raise(r T) {
	k := l.key(r)
	out := make([]T, 0, len(l.rows)+1)
	out = append(out, r)
	for _, held := range l.rows {
		if l.key(held) != k {
			out = append(out, held)
		}
	}
	l.rows = l.bound(out)
}

// without is the list without the rows of keys (taken out before a merge, put back after).
func (l *pagedList[T, K]) without(keys map[K]struct{}) {
	out := make([]T, 0, len(l.rows))
	for _, r := range l.rows {
		if _, drop := keys[l.key(r)]; !drop {
			out = append(out, r)
		}
	}
	l.rows = out
}
