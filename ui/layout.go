package ui

import (
	"slices"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
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
	if m.dialog != nil {
		m.dialog.SetSize(m.width, m.height-3)
	}
	if m.lev != nil {
		m.lev.SetWidth(m.width)
	}
	if m.showHelp {
		m.renderHelp()
	}
	if m.showMessages {
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

// View draws the whole screen.
func (m *Model) View() string {
	var start time.Time
	if m.stats {
		start = time.Now()
		defer func() { m.frameTime = time.Since(start) }()
	}
	if m.width == 0 {
		return "starting…"
	}
	if m.tooSmall {
		return m.tooSmallView()
	}
	lines := make([]string, 0, m.height)
	lines = append(lines, m.status.top(m, m.width))
	body := m.body()
	switch {
	case m.showHelp:
		body = overlay(body, m.helpView, m.width)
	case m.showMessages:
		body = overlay(body, m.messagesView, m.width)
	case m.dialog != nil:
		body = overlay(body, m.dialog.View(), m.width)
	case m.lev != nil:
		body = overlay(body, m.lev.View(), m.width)
	}
	var foot []string
	if m.cmdline.Active() {
		foot = m.status.commandLines(m, m.width)
	} else {
		foot = m.status.bottom(m, m.width, m.footerView)
	}
	// A refused command's notice may take more than the two last lines: it covers the panes'
	// last rows (they keep their size) and the screen its height.
	lines = append(lines, body[:max(len(body)-max(len(foot)-2, 0), 0)]...)
	lines = append(lines, foot...)
	return strings.Join(lines, "\n")
}

func (m *Model) tooSmallView() string {
	msg := "tradedesk needs a terminal of at least " + strconv.Itoa(minWidth) + "x" + strconv.Itoa(minHeight) +
		"; this one is " + strconv.Itoa(m.width) + "x" + strconv.Itoa(m.height) + ". Enlarge it, or press q to quit."
	return ansi.Wrap(msg, max(m.width, 10), " ")
}

// body is the panes' area: side by side (wide) or the focused pane under a tab bar (narrow).
func (m *Model) body() []string {
	bodyH := m.height - 3
	if m.narrow {
		out := make([]string, 0, bodyH)
		out = append(out, m.tabBar())
		return append(out, m.framed(m.slots[m.focus], true)...)
	}
	var cols [3][]*slot // left, middle, right, each top to bottom
	for _, s := range m.slots {
		if s.hidden {
			continue
		}
		switch {
		case s.col == colLeft || m.stacked:
			cols[0] = append(cols[0], s)
		case s.col == colMid:
			cols[1] = append(cols[1], s)
		default:
			cols[2] = append(cols[2], s)
		}
	}
	var frames [3][]frame
	for c, ss := range cols {
		slices.SortStableFunc(ss, func(a, b *slot) int { return a.r.y - b.r.y })
		for _, s := range ss {
			frames[c] = append(frames[c], m.frameOf(s, s == m.slots[m.focus]))
		}
	}
	// Each body line is written once from its pieces (border, pane line, border, per column):
	// one string per line, not one per pane line and another for the join.
	out := make([]string, bodyH)
	var at [3]int // the frame each column is in
	var b strings.Builder
	size := m.width * 2 // the last line's length: the next is much the same
	for y := range out {
		b.Grow(size)
		for c := range frames {
			writeFrameLine(&b, frames[c], &at[c], y)
		}
		out[y] = b.String()
		size = b.Len()
		b.Reset()
	}
	return out
}

// frame is a pane drawn in its border, as pieces: the lines are joined when the body is written.
type frame struct {
	s       *slot
	y0      int // its first line, counted from the body's top
	content []string
	blank   string
}

// writeFrameLine writes line y of a column of frames (stacked from the top); *at is the frame
// the previous line was in.
func writeFrameLine(b *strings.Builder, fs []frame, at *int, y int) {
	for *at < len(fs) && y >= fs[*at].y0+fs[*at].s.r.h {
		*at++
	}
	if *at >= len(fs) {
		return
	}
	f := fs[*at]
	switch i := y - f.y0; {
	case i == 0:
		b.WriteString(f.s.top)
	case i == f.s.r.h-1:
		b.WriteString(f.s.bottom)
	default:
		b.WriteString(f.s.side)
		if i-1 < len(f.content) {
			b.WriteString(f.content[i-1])
		} else {
			b.WriteString(f.blank)
		}
		b.WriteString(f.s.side)
	}
}

// frameOf readies a pane's border (cached until its title, freshness, focus or width change) and
// its lines.
func (m *Model) frameOf(s *slot, focused bool) frame {
	m.borderOf(s, focused)
	return frame{s: s, y0: s.r.y - 1, content: strings.Split(s.pane.View(), "\n"), blank: strings.Repeat(" ", max(s.r.w-2, 0))}
}

// tabBar is the narrow layout's row of pane names; the focused one is marked.
func (m *Model) tabBar() string {
	st := m.st
	var b strings.Builder
	m.tabs = m.tabs[:0]
	x := 0
	for i, s := range m.slots {
		// A tab shows its pane's first word so that every tab fits in 80 columns; the pane's
		// border below carries the full title.
		title := strings.TrimRight(strings.Fields(s.pane.Title() + " ")[0], ":")
		label := strconv.Itoa(i+1) + " " + title
		if i == m.focus {
			label = "▶" + label + " "
			b.WriteString(st.TitleFocus.On(label))
		} else {
			label = " " + label
			b.WriteString(st.Title.On(label))
		}
		w := common.TextWidth(label)
		m.tabs = append(m.tabs, tabSpan{x, x + w, i})
		x += w
	}
	return common.FitStyled(b.String(), m.width)
}

// framed draws a pane inside its border, with its number, title and freshness in the top edge.
func (m *Model) framed(s *slot, focused bool) []string {
	m.borderOf(s, focused)
	h := s.r.h - 2
	out := make([]string, 0, s.r.h)
	out = append(out, s.top)
	content := strings.Split(s.pane.View(), "\n")
	blank := strings.Repeat(" ", s.r.w-2)
	for y := range h {
		line := blank
		if y < len(content) {
			line = content[y]
		}
		out = append(out, s.side+line+s.side)
	}
	return append(out, s.bottom)
}

// borderOf draws the slot's border again when its title, freshness, focus or width changed.
func (m *Model) borderOf(s *slot, focused bool) {
	st := m.st
	border := st.Border
	if focused {
		border = st.BorderFocus
	}
	idx := m.slotIndex(s)
	title := strconv.Itoa(idx+1) + " " + s.pane.Title()
	fresh := m.freshness(s.pane)
	key := title + "\x00" + fresh + "\x00" + strconv.FormatBool(focused) + strconv.Itoa(s.r.w)
	if key != s.topKey {
		s.topKey = key
		s.top, s.bottom, s.side = m.borders(s, title, fresh, focused, border)
	}
}

func (m *Model) borders(s *slot, title, fresh string, focused bool, border common.Paint) (top, bottom, side string) {
	st := m.st
	w := s.r.w
	tp := st.Title
	mark := " "
	if focused {
		tp, mark = st.TitleFocus, "▶"
	}
	t := mark + title + " "
	var fr string
	if fresh != "" {
		fr = " " + fresh + " "
	}
	t, fr = fitTitle(t, fr, w-3)
	used := 2 + common.TextWidth(t) + common.TextWidth(fr)
	fill := max(w-used-1, 0)
	top = border.On("╭─") + tp.On(t)
	if fr != "" {
		top += st.Warn.On(fr)
	}
	top += border.On(strings.Repeat("─", fill) + "╮")
	top = common.FitStyled(top, w)
	bottom = border.On("╰" + strings.Repeat("─", max(w-2, 0)) + "╯")
	side = border.On("│")
	return top, bottom, side
}

// fitTitle cuts a border's title and freshness tag to room cells (between "╭─" and "╮") so the
// corner is never cut off: the title first, down to its number and a few letters (the stale tag
// is the warning), then the tag; each cut keeps an ellipsis.
func fitTitle(title, fresh string, room int) (string, string) {
	room = max(room, 0)
	tw, fw := common.TextWidth(title), common.TextWidth(fresh)
	if tw+fw <= room {
		return title, fresh
	}
	if fresh == "" {
		return common.Fit(title, room, false), ""
	}
	const minTitle = 8 // "▶9 Dept…"
	keep := max(min(tw, minTitle), room-fw)
	if keep >= room {
		return common.Fit(title, room, false), ""
	}
	if keep < tw {
		title = common.Fit(strings.TrimRight(title, " "), keep-1, false) + " "
	}
	return title, common.Fit(fresh, room-common.TextWidth(title), false)
}

func (m *Model) slotIndex(s *slot) int {
	for i, x := range m.slots {
		if x == s {
			return i
		}
	}
	return 0
}

// freshness is the pane's stale marker: the oldest stale kind it shows, its age and error.
func (m *Model) freshness(p common.Pane) string {
	ks, ok := p.(common.KindsShower)
	if !ok {
		return ""
	}
	for _, k := range ks.Kinds() {
		if !slices.Contains(m.kinds, k) {
			continue
		}
		f := m.store.Freshness(k)
		if !f.Stale {
			continue
		}
		if !f.Loaded() {
			return "no data: " + k.String() + " failed"
		}
		s := "stale " + common.FmtAge(f.Age)
		if f.Err != nil {
			s += " (retrying)"
		}
		return s
	}
	return ""
}

// overlay draws box centred over the body lines.
func overlay(body []string, box string, width int) []string {
	bl := strings.Split(box, "\n")
	out := make([]string, len(body))
	copy(out, body)
	top := max((len(body)-len(bl))/2, 0)
	for i, l := range bl {
		y := top + i
		if y >= len(out) {
			break
		}
		w := ansi.StringWidth(l)
		left := max((width-w)/2, 0)
		out[y] = common.FitStyled(strings.Repeat(" ", left)+l, width)
	}
	return out
}

// routeMouse: a left click focuses the pane under it and passes the click inside; the wheel
// scrolls the pane under the pointer.
func (m *Model) routeMouse(msg tea.MouseMsg) tea.Cmd {
	if m.tooSmall || m.dialog != nil || m.lev != nil || m.showHelp || m.showMessages {
		return nil
	}
	if msg.Action != tea.MouseActionPress {
		return nil
	}
	if m.narrow && msg.Y == 1 {
		for _, t := range m.tabs {
			if msg.X >= t.x0 && msg.X < t.x1 {
				m.setFocus(t.slot)
			}
		}
		return nil
	}
	for i, s := range m.slots {
		if (m.narrow && i != m.focus) || (!m.narrow && s.hidden) {
			continue
		}
		if !s.r.contains(msg.X, msg.Y) {
			continue
		}
		if i != m.focus {
			m.setFocus(i)
		}
		switch msg.Button {
		case tea.MouseButtonWheelUp:
			return s.pane.Update(tea.KeyMsg{Type: tea.KeyUp})
		case tea.MouseButtonWheelDown:
			return s.pane.Update(tea.KeyMsg{Type: tea.KeyDown})
		case tea.MouseButtonLeft:
			if c, ok := s.pane.(common.Clicker); ok {
				return c.Click(msg.X-s.r.x-1, msg.Y-s.r.y-1)
			}
		}
		return nil
	}
	return nil
}

// layoutWide places the three columns of the wide layout: from midWidth each runs the full
// height; below it the depth pane sits beside the order form over the top two thirds, beside the
// left column's panes marked beside (the tickers and the chart), and the left column's other
// panes run under both at the width of the two, so that the lists keep their columns (positions
// their entry and liquidation prices).
func (m *Model) layoutWide(bodyY, bodyH int) {
	rightW, midW := columnWidths(m.width)
	leftW := m.width - rightW - midW
	m.layoutColumn(colRight, rect{leftW + midW, bodyY, rightW, bodyH})
	if m.width >= midWidth {
		m.layoutColumn(colMid, rect{leftW, bodyY, midW, bodyH})
		m.layoutColumn(colLeft, rect{0, bodyY, leftW, bodyH})
		return
	}
	// two thirds, less if the positions and open orders under it would not both fit
	topH := max(min(bodyH*2/3, bodyH-2*minPaneHeight), 2*minPaneHeight)
	m.layoutColumn(colMid, rect{leftW, bodyY, midW, topH})
	var top, under []*slot
	for _, s := range m.slotsIn(colLeft) {
		if s.beside {
			top = append(top, s)
		} else {
			under = append(under, s)
		}
	}
	m.layoutSlots(top, rect{0, bodyY, leftW, topH})
	m.layoutSlots(under, rect{0, bodyY + topH, leftW + midW, bodyH - topH})
}

// columnWidths are the outer widths of the wide layout's right column (the order form's) and
// middle column (the depth pane's, beside the form); the left column takes the rest. From
// midWidth each takes its share up to a cap; below it the two take what they need not to cut (the
// form 46, the ladder its price, size, bar and own columns) and the left column the rest.
func columnWidths(w int) (right, mid int) {
	if w >= midWidth {
		return min(max(w*30/100, 48), 64), min(max(w*26/100, 46), 60)
	}
	return 46, 36 + (w-wideWidth)/4
}
