package statusbar

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Message renders the message line: the last action's result, then the last error with its age,
// on one line of width cells; what does not fit ends "… (! for all)".
func (s *Model) Message(v Values, width int) string {
	segs, _ := s.segments(v)
	return s.fitLines(s.moreTail(v), segs, width, 1)[0]
}

// Bottom is the screen's last two lines: the message line and the footer. While the message says
// something is wrong (an error, a warning, a failing poll) and is too long for one line, it takes
// the footer's line too (up to v.NoticeLines lines, over the panes' last rows), so a refusal or a
// usage line reads whole at 80 columns; the layout keeps its height. A dialog, the help or the
// messages view (v.Overlay) keeps its footer: the keys that close it.
func (s *Model) Bottom(v Values, width int, footer func() string) []string {
	segs, urgent := s.segments(v)
	if urgent && !v.Overlay {
		if lines := s.fitLines(s.moreTail(v), segs, width, max(v.NoticeLines, 2)); len(lines) >= 2 {
			return lines
		}
	}
	return []string{s.Message(v, width), footer()}
}

// moreTail ends a message cut short: the messages view (its key) has it whole.
func (s *Model) moreTail(v Values) string {
	return s.st.Muted.On("… (" + v.MessagesKey + " for all)")
}

// seg is a piece of the message line and its paint.
type seg struct {
	text  string
	paint common.Paint
}

// segments are the message line's pieces, most important first: the last action's result, the
// panes with no room, a dropped row, the last error. urgent: one of them says something is wrong.
func (s *Model) segments(v Values) (segs []seg, urgent bool) {
	st := s.st
	add := func(text string, p common.Paint) {
		if len(segs) > 0 {
			segs = append(segs, seg{"  ·  ", st.Muted})
		}
		segs = append(segs, seg{text, p})
	}
	if v.Notice != "" {
		add(v.NoticeLevel.Mark()+" "+v.Notice, v.NoticeLevel.Paint(st))
		urgent = v.NoticeLevel == common.LevelError || v.NoticeLevel == common.LevelWarn
	}
	if len(v.Hidden) > 0 {
		add("no room for "+strings.Join(v.Hidden, ", ")+" (press its number)", st.Muted)
	}
	if v.DropNote != "" && v.Now.Sub(v.DropAt) < recent {
		add("! "+v.DropNote, st.Warn)
		urgent = true
	}
	if v.LastErr != "" && v.Now.Sub(v.LastErrAt) < recent {
		add("last error: "+v.LastErr+" ("+common.FmtAge(v.Now.Sub(v.LastErrAt))+" ago)", st.Danger)
		urgent = true
	}
	return segs, urgent
}

// fitLines lays segs out on at most n lines of width cells, breaking between words; when they
// need more, the last line is cut between words (before a parenthesis it would cut) and ends
// with tail ("… (! for all)": the messages view has them whole). It returns fewer lines when
// fewer are needed (one at least).
func (s *Model) fitLines(tail string, segs []seg, width, n int) []string {
	lines := wrapSegs(segs, width)
	if len(lines) <= n {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = common.FitStyled(indentFor(i)+renderSegs(l), width)
		}
		return out
	}
	room := max(width-ansi.StringWidth(tail), 0)
	// The last line runs on to the tail with the rest of the text, not to the first word that
	// does not fit.
	rest := make([]string, 0, len(lines)-n+1)
	for _, l := range lines[n-1:] {
		rest = append(rest, renderSegs(l))
	}
	out := make([]string, 0, n)
	for i, l := range lines[:n-1] {
		out = append(out, common.FitStyled(indentFor(i)+renderSegs(l), width))
	}
	last := indentFor(n-1) + strings.Join(rest, " ")
	return append(out, common.FitStyled(ansi.Truncate(last, cutAt(ansi.Strip(last), room), "")+tail, width))
}

// cutAt is how many cells of plain to keep when it must be cut to at most room: the cut goes
// back to the space before a parenthesis of which it would keep one word at most ("no room for 7
// Activity (p…" becomes "no room for 7 Activity…"; "(t on it, or…" keeps its words), else to
// the end of the last whole word, dropping a separator left hanging; neither goes back more than
// half the room, else it cuts at room.
func cutAt(plain string, room int) int {
	if ansi.StringWidth(plain) <= room {
		return room
	}
	kept := ansi.Truncate(plain, room, "")
	word := len(kept)
	if next := plain[len(kept):]; !strings.HasPrefix(next, " ") && !strings.HasSuffix(kept, " ") {
		word = max(strings.LastIndex(kept, " "), 0) // the cut lands in a word: drop the word
	}
	cands := []int{word}
	if open := strings.LastIndex(kept[:word], " ("); open >= 0 && !strings.ContainsAny(kept[open+2:word], " )") {
		cands = []int{open, word}
	}
	for _, end := range cands {
		if w := ansi.StringWidth(strings.TrimRight(kept[:end], " ·")); w >= room/2 {
			return w
		}
	}
	return room
}

// indentFor is what line i of the message starts with.
func indentFor(i int) string {
	if i > 0 {
		return wrapIndent
	}
	return ""
}

// wrapIndent starts the message's lines after the first, under the text after the mark.
const wrapIndent = "  "

// wrapSegs breaks segs into lines of at most width cells between words (wrapIndent less after
// the first), each line's pieces keeping their paints; a word wider than a line is cut.
func wrapSegs(segs []seg, width int) [][]seg {
	room := func(line int) int {
		if line > 0 {
			return width - len(wrapIndent)
		}
		return width
	}
	var lines [][]seg
	var cur []seg
	w := 0
	for _, sg := range segs {
		for i, word := range strings.Split(sg.text, " ") {
			sep := ""
			if i > 0 {
				sep = " "
			}
			ww := common.TextWidth(word)
			if w > 0 && w+common.TextWidth(sep)+ww > room(len(lines)) && word != "" {
				lines, cur, w = append(lines, cur), nil, 0
			}
			if w == 0 {
				sep = ""
			}
			if ww > room(len(lines)) {
				word = ansi.Truncate(word, room(len(lines)), "…")
			}
			cur = appendSeg(cur, sep+word, sg.paint)
			w += common.TextWidth(sep + word)
		}
	}
	return append(lines, cur)
}

// appendSeg adds text in paint p to a line, joining it to the last piece when that has the same
// paint.
func appendSeg(line []seg, text string, p common.Paint) []seg {
	if n := len(line); n > 0 && line[n-1].paint == p {
		line[n-1].text += text
		return line
	}
	return append(line, seg{text, p})
}

func renderSegs(line []seg) string {
	var b strings.Builder
	for _, sg := range line {
		b.WriteString(sg.paint.On(sg.text))
	}
	return b.String()
}
