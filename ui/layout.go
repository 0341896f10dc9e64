package ui

import (
	"strconv"
	"strings"

	"github.com/tradedesk/tradedesk/ui/common"
)

// Layout limits.
const (
	minWidth   = 60 // below this the console says it needs more room
	minHeight  = 16
	wideWidth  = 120 // from here on panes sit side by side; below, one pane at a time as tabs
	wideHeight = 30
	formHeight = 20 // the order form's preferred outer height in the wide layout
)

// Columns of the wide layout (colAll: the one column of the stacked layout).
const (
	colLeft = iota
	colRight
	colMid // between the two: the depth pane beside the order form
	colAll = -1
)

// midWidth is the width from which the wide layout's columns take a share of the width each;
// below it (from wideWidth) the order form and the depth pane take what they need and the left
// column the rest.
const midWidth = 160

// stackHeight is the height from which a terminal too narrow for two columns stacks every pane
// in one column instead of showing one pane at a time.
const stackHeight = 45

// rect is a pane's place on screen, border included.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }

// slot is one pane and its place in the layout.
type slot struct {
	pane   common.Pane
	col    int
	weight int  // share of the column's free height
	fixed  int  // preferred outer height (0: by weight)
	wanted int  // the height it wanted at the last layout
	hidden bool // the wide layout has no room for it (shown when focused)
	beside bool // a left pane that sits beside the depth pane below midWidth (the others go under)
	r      rect
	// border cache
	topKey string
	top    string
	bottom string
	side   string
}

// tabSpan is where one tab of the narrow layout is drawn, for mouse clicks.
type tabSpan struct{ x0, x1, slot int }

// addPane adds a pane to the layout: its column in the wide layout, its height weight, and a
// preferred fixed height (0 for none). Its number key is its position.
func (m *Model) addPane(p common.Pane, col, weight, fixed int) *slot {
	s := &slot{pane: p, col: col, weight: weight, fixed: fixed}
	m.slots = append(m.slots, s)
	return s
}

// layout places the panes for the window size and tells each its inner size.
func (m *Model) layout() {
	m.footerDirty = true
	m.tooSmall = m.width < minWidth || m.height < minHeight
	if m.tooSmall {
		return
	}
	bodyY, bodyH := 1, m.height-3
	m.narrow = m.width < wideWidth || m.height < wideHeight
	m.stacked = m.narrow && m.width >= 80 && m.height >= stackHeight
	if m.stacked {
		// Tall and not wide: every pane in one column.
		m.narrow = false
		m.layoutColumn(colAll, rect{0, bodyY, m.width, bodyH})
	} else if m.narrow {
		for _, s := range m.slots {
			s.r = rect{0, bodyY + 1, m.width, bodyH - 1}
		}
	} else {
		m.layoutWide(bodyY, bodyH)
	}
	for _, s := range m.slots {
		s.topKey = ""
		s.pane.SetSize(max(s.r.w-2, 1), max(s.r.h-2, 1))
	}
	if d := m.confirmation(); d != nil {
		d.SetSize(m.width, m.height-3)
	}
	if d := m.leverageDialog(); d != nil {
		d.SetWidth(m.width)
	}
	if m.helpBox.Shown() {
		m.renderHelp()
	}
	if m.msgs.Shown() {
		m.renderMessages()
	}
}

// heightWanter is a pane that needs fewer lines than it may get (a short list): the column gives
// the rest to the panes below it.
type heightWanter interface {
	// WantHeight is the inner height the pane can fill.
	WantHeight() int
}

// minPaneHeight is the outer height below which a pane is not worth drawing (border, header and
// three rows); a column too short for all its panes hides the last ones instead.
const minPaneHeight = 6

// layoutColumn stacks a column's panes in area (see layoutSlots).
func (m *Model) layoutColumn(col int, area rect) { m.layoutSlots(m.slotsIn(col), area) }

// layoutSlots stacks panes in area: fixed heights first (never more than two thirds of the
// area each), the rest shared by weight, except that a pane wanting fewer lines gets only those.
// When the area cannot give every pane minPaneHeight, panes are hidden from the bottom up (never
// the focused one, which takes the place of a hidden one); they stay reachable by number and Tab.
func (m *Model) layoutSlots(all []*slot, area rect) {
	in := m.fitSlots(all, area.h)
	hs := shareHeights(in, area.h)
	y := area.y
	for i, s := range in {
		s.r = rect{area.x, y, area.w, hs[i]}
		y += hs[i]
	}
	for _, s := range all {
		if s.hidden {
			s.r = rect{area.x, area.y, area.w, max(area.h/2, minPaneHeight)} // its size if shown
		}
	}
}

// slotsIn is the panes laid out in col, top to bottom.
func (m *Model) slotsIn(col int) []*slot {
	var all []*slot
	for _, s := range m.slots {
		if s.col == col || col == colAll {
			all = append(all, s)
		}
	}
	return all
}

// fixedHeight is a fixed pane's height in a column of height h.
func fixedHeight(s *slot, h int) int { return min(s.fixed, h*2/3) }

// fitSlots returns the panes of all shown in a height of h, hiding the last unfocused ones while
// it is too short for each to have its minimum.
func (m *Model) fitSlots(all []*slot, h int) (shown []*slot) {
	for _, s := range all {
		s.hidden = false
	}
	need := func(ss []*slot) int {
		n := 0
		for _, s := range ss {
			if s.fixed > 0 {
				n += fixedHeight(s, h)
			} else {
				n += minPaneHeight
			}
		}
		return n
	}
	shown = all
	for len(shown) > 1 && need(shown) > h {
		drop := len(shown) - 1
		for drop > 0 && m.slots[m.focus] == shown[drop] {
			drop--
		}
		shown[drop].hidden = true
		shown = append(append([]*slot(nil), shown[:drop]...), shown[drop+1:]...)
	}
	return shown
}

// shareHeights gives each pane its height: fixed ones theirs, flexible ones a share of the rest
// by weight (a pane wanting less is capped and the rest shared again), the last the rounding, and
// none less than minPaneHeight while a taller one can give lines.
func shareHeights(in []*slot, h int) []int {
	hs := make([]int, len(in))
	free := h
	for i, s := range in {
		if s.fixed > 0 {
			hs[i] = fixedHeight(s, h)
			free -= hs[i]
		}
	}
	capped := make([]bool, len(in))
	for range len(in) {
		if !shareOnce(in, hs, capped, &free) {
			break
		}
	}
	used := 0
	for _, x := range hs {
		used += x
	}
	if n := len(in); n > 0 {
		hs[n-1] += h - used
	}
	raiseToMinimum(in, hs)
	return hs
}

// shareOnce shares free among the flexible panes not yet capped; when one wants less than its
// share it is capped, free shrinks, and it reports true so the sharing runs again.
func shareOnce(in []*slot, hs []int, capped []bool, free *int) bool {
	weights := 0
	for i, s := range in {
		if s.fixed == 0 && !capped[i] {
			weights += s.weight
		}
	}
	if weights == 0 {
		return false
	}
	rest := *free
	for i, s := range in {
		if s.fixed != 0 || capped[i] {
			continue
		}
		hs[i] = rest * s.weight / weights
		if w, ok := s.pane.(heightWanter); ok && w.WantHeight()+2 < hs[i] {
			hs[i] = max(w.WantHeight()+2, 3)
			capped[i] = true
			*free -= hs[i]
			return true
		}
	}
	return false
}

// raiseToMinimum takes lines from the tallest flexible pane for any flexible pane under
// minPaneHeight.
func raiseToMinimum(in []*slot, hs []int) {
	for i, s := range in {
		for s.fixed == 0 && hs[i] < minPaneHeight {
			tall := -1
			for j, t := range in {
				if t.fixed == 0 && hs[j] > minPaneHeight && (tall < 0 || hs[j] > hs[tall]) {
					tall = j
				}
			}
			if tall < 0 {
				break
			}
			hs[tall]--
			hs[i]++
		}
	}
}

// hiddenPanes lists the panes the wide layout has no room for, as "7 Activity".
func (m *Model) hiddenPanes() []string {
	var out []string
	for i, s := range m.slots {
		if s.hidden && !m.narrow {
			out = append(out, strconv.Itoa(i+1)+" "+strings.TrimRight(strings.Fields(s.pane.Title() + " ")[0], ":"))
		}
	}
	return out
}

// relayoutIfWanted lays out again when a pane's wanted height changed (the instruments loaded).
func (m *Model) relayoutIfWanted() {
	if m.narrow || m.tooSmall || m.width == 0 {
		return
	}
	for _, s := range m.slots {
		if w, ok := s.pane.(heightWanter); ok && w.WantHeight() != s.wanted {
			s.wanted = w.WantHeight()
			m.layout()
			return
		}
	}
}
