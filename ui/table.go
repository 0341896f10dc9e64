package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// column is one column of a table: its title, width, alignment, and priority (columns with a
// higher prio number are dropped first when the pane is narrow).
type column struct {
	title string
	width int
	right bool
	prio  int
}

// cellFunc returns the text of one cell and the paint to draw it with.
type cellFunc func(row, col int) (string, paint)

// rowCache is one rendered row: plain (for the cursor, drawn in one style) and styled.
type rowCache struct {
	gen           uint64
	plain, styled string
}

// table is the list every list pane shares: column fitting, a cursor and scrolling, and a cache
// of rendered rows. Rows are rendered only when on screen and only once per generation: the pane
// calls invalidate when its data changes, and View joins cached strings.
type table struct {
	st      *Styles
	cols    []column
	visible []int // indexes of cols shown at the current width
	extra   []int // room added to each column at the current width
	n       int   // number of rows
	cursor  int
	offset  int
	width   int
	height  int // rows of data shown (header excluded)
	gen     uint64
	cache   []rowCache
	cell    cellFunc
	header  string
	focused bool
	empty   string
}

func newTable(st *Styles, cols []column, cell cellFunc) *table {
	return &table{st: st, cols: cols, cell: cell, gen: 1}
}

// setSize fits the columns to width and the rows to height (the header takes one line).
func (t *table) setSize(w, h int) {
	t.width, t.height = w, max(h-1, 0)
	t.fitColumns()
	t.invalidate()
	t.clamp()
}

func (t *table) fitColumns() {
	// Take columns by priority until the width is used, then keep their original order.
	keep := make([]bool, len(t.cols))
	used := 0
	for p := 0; p <= 9; p++ {
		for i, c := range t.cols {
			if c.prio != p {
				continue
			}
			need := c.width
			if used > 0 {
				need++
			}
			if used+need <= t.width {
				keep[i] = true
				used += need
			}
		}
	}
	t.visible = t.visible[:0]
	for i := range t.cols {
		if keep[i] {
			t.visible = append(t.visible, i)
		}
	}
	// Share the room left over among the wider columns, up to half their width again.
	t.extra = make([]int, len(t.cols))
	var grow []int
	for _, i := range t.visible {
		if t.cols[i].width > 3 {
			grow = append(grow, i)
		}
	}
	if spare := t.width - used; len(grow) > 0 && spare > 0 {
		each := spare / len(grow)
		for _, i := range grow {
			t.extra[i] = min(each, t.cols[i].width/2)
		}
	}
	t.header = t.renderHeader()
}

func (t *table) renderHeader() string {
	var b strings.Builder
	for j, ci := range t.visible {
		if j > 0 {
			b.WriteByte(' ')
		}
		c := t.cols[ci]
		b.WriteString(fit(c.title, c.width+t.extra[ci], c.right))
	}
	return t.st.Header.on(pad(b.String(), t.width))
}

// setHeaderTitle changes a column's title (a sort arrow) and re-renders the header.
func (t *table) setTitle(col int, title string) {
	t.cols[col].title = title
	t.header = t.renderHeader()
}

// setRows sets the number of rows and drops every cached row.
func (t *table) setRows(n int) {
	t.n = n
	t.invalidate()
	t.clamp()
}

// invalidate drops every cached row; they render again when next shown.
func (t *table) invalidate() {
	t.gen++
	if cap(t.cache) < t.n {
		t.cache = make([]rowCache, t.n)
	}
	t.cache = t.cache[:t.n]
}

func (t *table) clamp() {
	if t.cursor >= t.n {
		t.cursor = t.n - 1
	}
	if t.cursor < 0 {
		t.cursor = 0
	}
	if t.offset > t.cursor {
		t.offset = t.cursor
	}
	if t.height > 0 && t.cursor >= t.offset+t.height {
		t.offset = t.cursor - t.height + 1
	}
	if t.offset > max(t.n-t.height, 0) {
		t.offset = max(t.n-t.height, 0)
	}
	if t.offset < 0 {
		t.offset = 0
	}
}

// move moves the cursor by delta rows.
func (t *table) move(delta int) {
	t.cursor += delta
	t.clamp()
}

// moveTo puts the cursor on row i.
func (t *table) moveTo(i int) {
	t.cursor = i
	t.clamp()
}

// navigate applies the list keys (up, down, page up and down, top, bottom) to the cursor; it
// reports whether msg was one of them. A page keeps the last row of the page before in view.
func (t *table) navigate(k *KeyMap, msg tea.KeyMsg) bool {
	page := max(t.height-1, 1)
	switch {
	case key.Matches(msg, k.Up):
		t.move(-1)
	case key.Matches(msg, k.Down):
		t.move(1)
	case key.Matches(msg, k.PageUp):
		t.move(-page)
	case key.Matches(msg, k.PageDown):
		t.move(page)
	case key.Matches(msg, k.Top):
		t.moveTo(0)
	case key.Matches(msg, k.Bottom):
		t.moveTo(t.n - 1)
	default:
		return false
	}
	return true
}

// clickRow puts the cursor on the row under line y of the table's view; it reports whether a
// row was there.
func (t *table) clickRow(y int) bool {
	i := t.rowAt(y)
	if i >= 0 {
		t.moveTo(i)
	}
	return i >= 0
}

// rowAt is the row under line y of the table's view (0 = header), or -1.
func (t *table) rowAt(y int) int {
	if y < 1 || y > t.height {
		return -1
	}
	i := t.offset + y - 1
	if i >= t.n {
		return -1
	}
	return i
}

// colAt is the column index under x, or -1.
func (t *table) colAt(x int) int {
	pos := 0
	for _, ci := range t.visible {
		w := t.cols[ci].width + t.extra[ci]
		if x >= pos && x < pos+w {
			return ci
		}
		pos += w + 1
	}
	return -1
}

func (t *table) row(i int) *rowCache {
	r := &t.cache[i]
	if r.gen == t.gen {
		return r
	}
	var plain, styled strings.Builder
	for j, ci := range t.visible {
		if j > 0 {
			plain.WriteByte(' ')
			styled.WriteByte(' ')
		}
		c := t.cols[ci]
		text, p := t.cell(i, ci)
		cell := fit(text, c.width+t.extra[ci], c.right)
		plain.WriteString(cell)
		styled.WriteString(p.on(cell))
	}
	used := textWidth(plain.String())
	if used < t.width {
		fill := strings.Repeat(" ", t.width-used)
		plain.WriteString(fill)
		styled.WriteString(fill)
	}
	r.gen, r.plain, r.styled = t.gen, plain.String(), styled.String()
	return r
}

// lines appends the table's header and visible rows, exactly height+1 lines of width cells.
func (t *table) lines(out []string) []string {
	out = append(out, t.header)
	blank := strings.Repeat(" ", t.width)
	for y := 0; y < t.height; y++ {
		i := t.offset + y
		switch {
		case i < t.n:
			r := t.row(i)
			if i == t.cursor && t.focused {
				out = append(out, t.st.Selected.on(r.plain))
			} else if i == t.cursor {
				out = append(out, t.st.SelectedBlur.on(r.plain))
			} else {
				out = append(out, r.styled)
			}
		case i == 0 && t.n == 0 && t.empty != "":
			out = append(out, t.st.Muted.on(pad(t.empty, t.width)))
		default:
			out = append(out, blank)
		}
	}
	return out
}
