package common

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Column is one column of a table: its title, width, alignment, and priority (columns with a
// higher Prio number are dropped first when the pane is narrow).
type Column struct {
	Title string
	Width int
	Right bool
	Prio  int
}

// Col is a column: title, width, right-aligned, priority.
func Col(title string, width int, right bool, prio int) Column {
	return Column{Title: title, Width: width, Right: right, Prio: prio}
}

// The selection marker: the cursor row of every list starts with a glyph, so the selection is
// seen without colour (NO_COLOR, a monochrome terminal, a colour-blind trader).
const (
	// MarkFocus starts the cursor row of the focused list.
	MarkFocus = "▶"
	// MarkBlur starts the cursor row of a list that does not have the focus.
	MarkBlur = "›"
	markNone = " "
	markW    = 1
)

// CellFunc returns the text of one cell and the paint to draw it with.
type CellFunc func(row, col int) (string, Paint)

// rowCache is one rendered row: plain (for the cursor, drawn in one style) and styled.
type rowCache struct {
	gen           uint64
	plain, styled string
	// focus and blur are the row drawn as the cursor row (marker and style), made when first needed.
	focus, blur string
}

// Table is the list every list pane shares: column fitting, a cursor and scrolling, and a cache
// of rendered rows. Rows are rendered only when on screen and only once per generation: the pane
// calls invalidate when its data changes, and View joins cached strings.
type Table struct {
	st      *Styles
	cols    []Column
	Visible []int // indexes of cols shown at the current width
	extra   []int // room added to each column at the current width
	Rows    int   // number of rows
	Cursor  int
	Offset  int
	Width   int
	Height  int // rows of data shown (header excluded)
	gen     uint64
	cache   []rowCache
	cell    CellFunc
	// Rendered counts the rows rendered (not taken from the cache): a pane's tests check what a
	// change draws again.
	Rendered int
	header   string
	Focused  bool
	Empty    string
	// follow is the cursor's identity (Follow); nil leaves the cursor a row number.
	follow following
	// empty is the drawn Empty line, made again only when Empty or the width changes.
	empty struct {
		text, line string
		w          int
	}
}

// NewTable is a table of cols whose cells cell draws in st's styles.
func NewTable(st *Styles, cols []Column, cell CellFunc) *Table {
	return &Table{st: st, cols: cols, cell: cell, gen: 1}
}

// SetSize fits the columns to width and the rows to height (the header takes one line).
func (t *Table) SetSize(w, h int) {
	t.Width, t.Height = w, max(h-1, 0)
	t.fitColumns()
	t.Invalidate()
	t.clamp()
}

func (t *Table) fitColumns() {
	// Take columns by priority until the width is used, then keep their original order. The
	// first cell of every line is the selection marker's.
	keep := make([]bool, len(t.cols))
	used := markW
	for p := 0; p <= 9; p++ {
		for i, c := range t.cols {
			if c.Prio != p {
				continue
			}
			need := c.Width
			if used > markW {
				need++
			}
			if used+need <= t.Width {
				keep[i] = true
				used += need
			}
		}
	}
	t.Visible = t.Visible[:0]
	for i := range t.cols {
		if keep[i] {
			t.Visible = append(t.Visible, i)
		}
	}
	// Share the room left over among the wider columns, up to half their width again.
	t.extra = make([]int, len(t.cols))
	var grow []int
	for _, i := range t.Visible {
		if t.cols[i].Width > 3 {
			grow = append(grow, i)
		}
	}
	if spare := t.Width - used; len(grow) > 0 && spare > 0 {
		each := spare / len(grow)
		for _, i := range grow {
			t.extra[i] = min(each, t.cols[i].Width/2)
		}
	}
	t.header = t.renderHeader()
}

func (t *Table) renderHeader() string {
	var b strings.Builder
	b.WriteString(markNone)
	for j, ci := range t.Visible {
		if j > 0 {
			b.WriteByte(' ')
		}
		c := t.cols[ci]
		b.WriteString(Fit(c.Title, c.Width+t.extra[ci], c.Right))
	}
	return t.st.Header.On(Pad(b.String(), t.Width))
}

// SetWidths sets the columns' widths (ws[i] <= 0 keeps column i's) and fits them to the pane
// again when one changed: a pane sizes a column to its widest cell, so a number is never cut
// while the columns the pane has no room for drop by priority.
func (t *Table) SetWidths(ws []int) {
	changed := false
	for i, w := range ws {
		if i < len(t.cols) && w > 0 && t.cols[i].Width != w {
			t.cols[i].Width, changed = w, true
		}
	}
	if changed {
		t.fitColumns()
		t.Invalidate()
	}
}

// SetTitle changes a column's title (a sort arrow) and re-renders the header.
func (t *Table) SetTitle(col int, title string) {
	t.cols[col].Title = title
	t.header = t.renderHeader()
}

// SetRows sets the number of rows and drops every cached row. A table that follows its rows'
// identity (Follow) puts the cursor back on the row it was on, wherever that row is now, or
// selects nothing when it is gone.
func (t *Table) SetRows(n int) {
	t.Rows = n
	t.Invalidate()
	t.relocate()
	t.clamp()
}

// Invalidate drops every cached row; they render again when next shown.
func (t *Table) Invalidate() {
	t.gen++
	if cap(t.cache) < t.Rows {
		t.cache = make([]rowCache, t.Rows)
	}
	t.cache = t.cache[:t.Rows]
}

// InvalidateRow drops row i's cached rendering only: a pane that knows which rows changed has
// those rendered again, not every row on screen.
func (t *Table) InvalidateRow(i int) {
	if i >= 0 && i < len(t.cache) {
		t.cache[i].gen = 0 // gen starts at 1: no generation matches
	}
}

func (t *Table) clamp() {
	if t.Cursor >= t.Rows {
		t.Cursor = t.Rows - 1
	}
	if t.Cursor < 0 {
		t.Cursor = 0
	}
	if t.Offset > t.Cursor {
		t.Offset = t.Cursor
	}
	if t.Height > 0 && t.Cursor >= t.Offset+t.Height {
		t.Offset = t.Cursor - t.Height + 1
	}
	if t.Offset > max(t.Rows-t.Height, 0) {
		t.Offset = max(t.Rows-t.Height, 0)
	}
	if t.Offset < 0 {
		t.Offset = 0
	}
}

// Move moves the cursor by delta rows. With nothing selected (the row the cursor was on went),
// it moves from the gap that row left: down selects the row after it, up the row before.
func (t *Table) Move(delta int) {
	if f := t.follow; f.lost {
		if delta > 0 {
			delta--
		}
		t.MoveTo(f.gap + delta)
		return
	}
	t.MoveTo(t.Cursor + delta)
}

// MoveTo puts the cursor on row i and selects it.
func (t *Table) MoveTo(i int) {
	t.Cursor = i
	t.clamp()
	t.remember()
}

// Navigate applies the list keys (up, down, page up and down, top, bottom) to the cursor; it
// reports whether msg was one of them. A page keeps the last row of the page before in view.
func (t *Table) Navigate(k *KeyMap, msg tea.KeyMsg) bool {
	page := max(t.Height-1, 1)
	switch {
	case key.Matches(msg, k.Up):
		t.Move(-1)
	case key.Matches(msg, k.Down):
		t.Move(1)
	case key.Matches(msg, k.PageUp):
		t.Move(-page)
	case key.Matches(msg, k.PageDown):
		t.Move(page)
	case key.Matches(msg, k.Top):
		t.MoveTo(0)
	case key.Matches(msg, k.Bottom):
		t.MoveTo(t.Rows - 1)
	default:
		return false
	}
	return true
}

// ClickRow puts the cursor on the row under line y of the table's view; it reports whether a
// row was there.
func (t *Table) ClickRow(y int) bool {
	i := t.RowAt(y)
	if i >= 0 {
		t.MoveTo(i)
	}
	return i >= 0
}

// RowAt is the row under line y of the table's view (0 = header), or -1.
func (t *Table) RowAt(y int) int {
	if y < 1 || y > t.Height {
		return -1
	}
	i := t.Offset + y - 1
	if i >= t.Rows {
		return -1
	}
	return i
}

// ColAt is the column index under x, or -1.
func (t *Table) ColAt(x int) int {
	pos := markW
	for _, ci := range t.Visible {
		w := t.cols[ci].Width + t.extra[ci]
		if x >= pos && x < pos+w {
			return ci
		}
		pos += w + 1
	}
	return -1
}

func (t *Table) row(i int) *rowCache {
	r := &t.cache[i]
	if r.gen == t.gen {
		return r
	}
	var plain, styled strings.Builder
	plain.WriteString(markNone)
	styled.WriteString(markNone)
	for j, ci := range t.Visible {
		if j > 0 {
			plain.WriteByte(' ')
			styled.WriteByte(' ')
		}
		c := t.cols[ci]
		text, p := t.cell(i, ci)
		cell := Fit(text, c.Width+t.extra[ci], c.Right)
		plain.WriteString(cell)
		styled.WriteString(p.On(cell))
	}
	used := TextWidth(plain.String())
	if used < t.Width {
		fill := strings.Repeat(" ", t.Width-used)
		plain.WriteString(fill)
		styled.WriteString(fill)
	}
	r.gen, r.plain, r.styled = t.gen, plain.String(), styled.String()
	t.Rendered++
	r.focus, r.blur = "", ""
	return r
}

// Lines appends the table's header and visible rows, exactly height+1 lines of width cells.
func (t *Table) Lines(out []string) []string {
	out = append(out, t.header)
	blank := strings.Repeat(" ", t.Width)
	for y := 0; y < t.Height; y++ {
		i := t.Offset + y
		switch {
		case i < t.Rows:
			r := t.row(i)
			if i != t.Selected() {
				out = append(out, r.styled)
			} else if t.Focused {
				if r.focus == "" {
					r.focus = t.st.Selected.On(MarkFocus + r.plain[len(markNone):])
				}
				out = append(out, r.focus)
			} else {
				if r.blur == "" {
					r.blur = t.st.SelectedBlur.On(MarkBlur + r.plain[len(markNone):])
				}
				out = append(out, r.blur)
			}
		case i == 0 && t.Rows == 0 && t.Empty != "":
			out = append(out, t.emptyLine())
		default:
			out = append(out, blank)
		}
	}
	return out
}

// emptyLine is the Empty text drawn as a row (after the marker's cell), kept between frames.
func (t *Table) emptyLine() string {
	if e := &t.empty; e.text != t.Empty || e.w != t.Width || e.line == "" {
		e.text, e.w = t.Empty, t.Width
		e.line = t.st.Muted.On(Pad(markNone+t.Empty, t.Width))
	}
	return t.empty.line
}
