package state

import (
	"reflect"
	"slices"

	"github.com/tradedesk/tradedesk/api"
)

// pagedList is a newest-first list loaded page by page: page 1 is merged on top, later pages are
// appended; a record already held is replaced by the newer copy, never duplicated.
type pagedList[T any, K comparable] struct {
	rows       []T
	key        func(T) K
	lastPage   int // highest page merged since the last page 1
	totalPages int
	hasNext    bool
}

// merge folds one page in, building a new slice so earlier readers keep a consistent view. It
// reports whether the rows changed.
func (l *pagedList[T, K]) merge(p api.Page[T]) bool {
	if p.Page <= 1 && l.lastPage >= 1 && l.onTop(p.Data) {
		l.totalPages = p.TotalPages
		return false
	}
	if p.Page <= 1 {
		l.rows = l.mergeTop(p.Data)
		if l.lastPage < 1 {
			l.lastPage = 1
		}
	} else {
		l.rows = l.mergeBottom(p.Data)
		if p.Page > l.lastPage {
			l.lastPage = p.Page
		}
	}
	l.totalPages = p.TotalPages
	if p.Page >= l.lastPage {
		l.hasNext = p.HasNext
	}
	return true
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
	l.rows = append(append(out, r), l.rows...)
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
	l.rows = out
}
