package common

// following is what a Table keeps to follow its rows' identity: the key of the row selected, and
// whether that row went (nothing is selected then, until the trader moves).
type following struct {
	key  func(row int) string
	sel  string
	lost bool
	gap  int // the row number the lost row had: a move goes from there
}

// Follow makes the cursor follow a row's identity rather than its number: key(i) names row i (an
// order id, an instrument), as the pane's data stands when SetRows is called. When rows arrive,
// go or are sorted, the cursor stays on the row it was on, so a key acts on the row the trader
// chose; when that row is gone nothing is selected (Selected is -1) until the trader moves, and
// an action key then finds no row instead of the one that slid under the cursor.
func (t *Table) Follow(key func(row int) string) {
	t.follow = following{key: key}
	t.remember()
}

// Selected is the selected row: the cursor's, or -1 when there is none (an empty list, or the
// row the cursor followed is gone and the trader has not moved since).
func (t *Table) Selected() int {
	if t.follow.lost || t.Cursor < 0 || t.Cursor >= t.Rows {
		return -1
	}
	return t.Cursor
}

// Lost reports whether the row the cursor followed is gone: nothing is selected until the
// trader moves.
func (t *Table) Lost() bool { return t.follow.lost }

// remember takes the key of the row under the cursor as the one to follow.
func (t *Table) remember() {
	f := &t.follow
	f.lost = false
	f.sel = ""
	if f.key != nil && t.Cursor >= 0 && t.Cursor < t.Rows {
		f.sel = f.key(t.Cursor)
	}
}

// relocate puts the cursor back on the row it followed after the rows changed, on the same line
// of the view when it can; when the row is gone, the cursor stays where it was but selects
// nothing. A list that had nothing yet selects its first row when rows first come.
func (t *Table) relocate() {
	f := &t.follow
	if f.key == nil || f.lost {
		return
	}
	if f.sel == "" {
		t.remember()
		return
	}
	for i := 0; i < t.Rows; i++ {
		if f.key(i) == f.sel {
			t.Offset += i - t.Cursor
			t.Cursor = i
			return
		}
	}
	f.lost, f.gap = true, t.Cursor
}

// SetFocused tells the table whether its pane has the focus. Coming back to a list whose row went
// selects the row now where it was: the trader sees the highlight before any key acts on it.
func (t *Table) SetFocused(f bool) {
	if f && !t.Focused && t.follow.lost {
		t.MoveTo(t.follow.gap)
	}
	t.Focused = f
}
