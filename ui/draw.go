package ui

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/ui/common"
)

// View is the whole screen. It is drawn again only when something it shows may have changed: a
// message that changes what is drawn (dirty: every message but the feed's that brought nothing
// and the trading state's timer) or the store (any kind's version); otherwise it is the frame
// drawn last, and no pane's View runs (issue #34). The ages and the notices' windows read the
// clock: they move with the next message that draws, not with a poll's timer (a reply follows it).
// A poll's reply held for the rest of its round (hold) keeps the frame drawn last.
func (m *Model) View() string {
	if m.hold && m.view != "" {
		return m.view
	}
	if changes := m.store.Changes(); m.dirty || changes != m.viewChanges || m.view == "" {
		m.view, m.viewChanges, m.dirty = m.draw(), changes, false
	}
	return m.view
}

// draw draws the whole screen.
func (m *Model) draw() string {
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
	bar := m.status.values(m, m.width) // once a frame: the top line and the message line share them
	lines = append(lines, m.status.model().Top(bar, m.width))
	body := m.body()
	for _, md := range m.modals.Shown() { // bottom to top: the top draws over the rest
		if md.Covers() {
			body = overlay(body, md.View(m.width, m.height), m.width)
		}
	}
	var foot []string
	if m.cmdline.Active() {
		foot = m.status.commandLines(m, m.width)
	} else {
		foot = m.status.model().Bottom(bar, m.width, m.footerView)
	}
	// A refused command's notice may take more than the two last lines: it covers the panes'
	// last rows (they keep their size) and the screen its height.
	lines = append(lines, body[:max(len(body)-max(len(foot)-2, 0), 0)]...)
	lines = append(lines, foot...)
	m.lat.Shown() // this frame shows what the stream brought
	return strings.Join(lines, "\n")
}

func (m *Model) tooSmallView() string {
	msg := "tradedesk needs a terminal of at least " + strconv.Itoa(minWidth) + "x" + strconv.Itoa(minHeight) +
		"; this one is " + strconv.Itoa(m.width) + "x" + strconv.Itoa(m.height) + ". Enlarge it, or press " + common.KeyName(m.keys.Quit) + " to quit."
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
// scrolls the pane under the pointer. While a modal covers the panes, the mouse is dropped.
func (m *Model) routeMouse(msg tea.MouseMsg) tea.Cmd {
	if m.tooSmall || m.modals.Covers() {
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
			return wheel(s.pane, m.keys.Up)
		case tea.MouseButtonWheelDown:
			return wheel(s.pane, m.keys.Down)
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

// wheel sends pane a key press of b (Up or Down), so the wheel scrolls as the trader bound the
// keys; nothing when that key is a letter and the pane is typing a line (it would type it).
func wheel(pane common.Pane, b key.Binding) tea.Cmd {
	msg, ok := common.BoundKeyMsg(b)
	if !ok || msg.Type == tea.KeyRunes && capturing(pane) {
		return nil
	}
	return pane.Update(msg)
}
