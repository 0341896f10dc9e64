package ui

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/feed"
)

// Mode is how the console is connected: to the embedded simulator, read-only, or live.
type Mode int

// Modes.
const (
	ModeDemo Mode = iota
	ModeReadOnly
	ModeLive
)

// String names the mode: demo, read-only or live.
func (m Mode) String() string {
	switch m {
	case ModeDemo:
		return "demo"
	case ModeReadOnly:
		return "read-only"
	}
	return "live"
}

// readOnlyReason is why the console cannot trade ("" when it can): the reason main gave, else a
// client holding no key.
func readOnlyReason(cfg Config) string {
	if cfg.ReadOnlyReason == "" && !cfg.Exchange.CanTrade() {
		return "no key: watching " + common.ShortAddr(cfg.Exchange.Address()) + "; start with --keystore or TRADEDESK_PRIVATE_KEY to trade"
	}
	return cfg.ReadOnlyReason
}

// statusBar draws the top line (mode, account, connection, latency, stale data) and the message
// line (the last action's result and the last error).
type statusBar struct {
	st      *common.Styles
	mode    Mode
	network string
	address string
	// agent: the client signs with an agent key (orders and cancels only) until agentUntil.
	agent      bool
	agentUntil time.Time
	// The account summary, long and short, as of account version accountVersion (and whether
	// the account had loaded: an unchanged first reply moves no version).
	accountVersion [3]uint64 // account, tickers and positions versions
	accountLoaded  bool
	summaryForms   [3]string // the account summary in each form (summaryLong...)
}

// badge is the always-visible mode: DEMO, READ-ONLY or LIVE with the network.
func (s *statusBar) badge() string {
	switch s.mode {
	case ModeDemo:
		return s.st.Demo.On(" DEMO ")
	case ModeReadOnly:
		return s.st.ReadOnly.On(" READ-ONLY " + strings.ToUpper(s.network) + " ")
	}
	agent := ""
	if s.agent {
		agent = "· agent "
	}
	if strings.EqualFold(s.network, "mainnet") {
		return s.st.Mainnet.On(" LIVE MAINNET " + agent)
	}
	return s.st.Live.On(" LIVE " + strings.ToUpper(s.network) + " " + agent)
}

// agentLine says when the agent key expires, as a warning from a day ahead.
func (s *statusBar) agentLine(now time.Time) string {
	if !s.agent || s.agentUntil.IsZero() {
		return ""
	}
	left := state.AgentLeft(s.agentUntil, now)
	if !now.Before(s.agentUntil) {
		return s.st.Danger.On("agent expired: orders are refused; tradedesk agent add")
	}
	if s.agentUntil.Sub(now) < state.AgentWarnAhead {
		return s.st.Danger.On("agent expires in " + left + ": tradedesk agent add")
	}
	return s.st.Muted.On("agent " + left + " left")
}

// modeWord is the mode in plain words, for the order form's title.
func (s *statusBar) modeWord() string {
	switch s.mode {
	case ModeDemo:
		return "DEMO"
	case ModeReadOnly:
		return "READ-ONLY"
	}
	if s.agent {
		return "LIVE " + strings.ToUpper(s.network) + " · agent"
	}
	return "LIVE " + strings.ToUpper(s.network)
}

// top renders the top line for the model's current state.
func (s *statusBar) top(m *Model, width int) string {
	st := s.st
	var b strings.Builder
	b.WriteString(s.badge())
	b.WriteString(" ")
	if width >= wideWidth {
		b.WriteString(st.Accent.On("tradedesk"))
		b.WriteString(st.Muted.On(" · "))
	}
	if s.address != "" {
		b.WriteString(common.ShortAddr(s.address))
		b.WriteString(st.Muted.On(" · "))
	}
	b.WriteString(s.connection(m))
	if a := s.agentLine(m.clock()); a != "" {
		b.WriteString(st.Muted.On(" · "))
		b.WriteString(a)
	}
	if stale := s.stale(m); stale != "" {
		b.WriteString(st.Muted.On(" · "))
		b.WriteString(st.Warn.On("stale: " + stale))
	}
	if m.stats {
		b.WriteString(st.Muted.On(" · frame " + m.frameTime.Round(time.Microsecond).String() +
			" · " + strconv.Itoa(m.msgRate) + " msg/s"))
	}
	left := b.String()
	for _, form := range []int{summaryLong, summaryMid, summaryShort} {
		right := s.summary(m, form)
		if right == "" {
			break
		}
		if gap := width - ansi.StringWidth(left) - ansi.StringWidth(right); gap >= 2 {
			return left + strings.Repeat(" ", gap) + right
		}
	}
	return common.FitStyled(left, width)
}

func (s *statusBar) connection(m *Model) string {
	st := s.st
	c := m.feed.Conn()
	switch c.State {
	case feed.Offline:
		return st.Muted.On("offline")
	case feed.Retrying:
		return st.Danger.On("● reconnecting (" + strconv.Itoa(c.Fails) + " failed)")
	case feed.Connecting:
		return st.Warn.On("● connecting…")
	}
	word := st.Good.On("● connected")
	if !m.fixedLatency {
		word += st.Muted.On(" " + fmtLatency(c.Latency))
	}
	return word + s.transport(m, c)
}

// transport says how data arrives: "stream" while the WebSocket is up (the polls only
// reconcile), else "polling" and why: the stream down, or a market topic silent behind live
// pings ("polling (ticker stream silent 5s)").
func (s *statusBar) transport(m *Model, c feed.Conn) string {
	st := s.st
	switch {
	case c.Stream && c.Stalled != "":
		return st.Muted.On(" · ") + st.Warn.On("polling") + st.Muted.On(" ("+c.Stalled+")")
	case c.Stream:
		return st.Muted.On(" · ") + st.Good.On("stream")
	case c.HasStream && c.StreamErr != nil:
		return st.Muted.On(" · ") + st.Warn.On("polling") + st.Muted.On(" ("+common.PlainError(c.StreamErr)+")")
	case c.HasStream:
		return st.Muted.On(" · polling (stream connecting…)")
	case m.streamOff != "":
		return st.Muted.On(" · polling (stream off: " + m.streamOff + ")")
	}
	return ""
}

func fmtLatency(d time.Duration) string {
	if d < time.Millisecond {
		return "<1ms"
	}
	return d.Round(time.Millisecond).String()
}

// The summary's forms, longest first: the top line takes the longest that fits.
const (
	summaryLong  = iota // perp equity, available, uPnL, IM utilization
	summaryMid          // without the uPnL (the positions pane has it)
	summaryShort        // perp equity and IM utilization, whole numbers
)

// summary is the account in one line, on the right of the top line: perp equity, available balance
// and margin used, so it stays in view when the account pane is a tab away. It is worked out
// again only when the account's version moves.
func (s *statusBar) summary(m *Model, form int) string {
	// uPnL is at the freshest mark, so the tickers and positions move it too.
	v := [3]uint64{m.store.Version(state.KindAccount), m.store.Version(state.KindTickers), m.store.Version(state.KindPositions)}
	loaded := m.store.Freshness(state.KindAccount).Loaded()
	if v != s.accountVersion || loaded != s.accountLoaded {
		s.accountVersion, s.accountLoaded = v, loaded
		s.summaryForms = s.renderSummary(m.store)
	}
	return s.summaryForms[form]
}

// renderSummary draws the account summary in each form ("" until the account has loaded). The
// equity is the perp (derivative) account's, said so: the equity view's value adds the spot
// account's balances.
func (s *statusBar) renderSummary(store *state.Store) (forms [3]string) {
	if !store.Freshness(state.KindAccount).Loaded() {
		return forms
	}
	st := s.st
	a := store.Account()
	upnl := store.UnrealizedPnL() // the positions pane's figure: one mark on the screen
	im := state.MarginUtilizationAfter(a, decimal.Zero)
	eq := st.Muted.On("perp equity ") + common.FmtNum(a.TotalAccountEquity, 2) + st.Muted.On(" · avail ") + common.FmtNum(a.AvailableBalance, 2)
	imText := st.Muted.On(" · IM ") + common.UtilPaint(st, im).On(state.FormatPercent(im, 1)) + " "
	forms[summaryLong] = eq + st.Muted.On(" · uPnL ") + common.SignPaint(st, upnl).On(common.FmtSigned(upnl, 2)) + imText
	forms[summaryMid] = eq + imText
	forms[summaryShort] = st.Muted.On("perp eq ") + common.FmtNum(a.TotalAccountEquity, 0) + st.Muted.On(" IM ") + common.UtilPaint(st, im).On(state.FormatPercent(im, 0)) + " "
	return forms
}

// stale lists the kinds whose data is stale, with their age.
func (s *statusBar) stale(m *Model) string {
	var parts []string
	for _, k := range m.kinds {
		f := m.store.Freshness(k)
		if !f.Stale {
			continue
		}
		if f.Loaded() {
			parts = append(parts, k.String()+" "+common.FmtAge(f.Age))
		} else {
			parts = append(parts, k.String()+" never loaded")
		}
	}
	return strings.Join(parts, ", ")
}

// message renders the message line: the last action's result, then the last error with its age,
// on one line of width cells; what does not fit ends "… (! for all)".
func (s *statusBar) message(m *Model, width int) string {
	segs, _ := s.segments(m)
	return s.fitLines(s.moreTail(m), segs, width, 1)[0]
}

// bottom is the screen's last two lines: the message line and the footer. While the message says
// something is wrong (an error, a warning, a failing poll) and is too long for one line, it takes
// the footer's line too, so a refusal or a usage line reads whole at 80 columns; the layout keeps
// its height. A dialog, the help or the messages view keeps its footer: the keys that close it.
func (s *statusBar) bottom(m *Model, width int, footer func() string) []string {
	segs, urgent := s.segments(m)
	overlay := m.dialog != nil || m.lev != nil || m.showHelp || m.showMessages
	if urgent && !overlay {
		n := 2
		if strings.HasPrefix(m.notice, cmdline.NotSent) {
			// A refused command's notice wraps on up to three lines, over the panes' last rows
			// (they keep their size, the screen its height), so its way out reads whole.
			n = cmdRefusalLines
		}
		if lines := s.fitLines(s.moreTail(m), segs, width, n); len(lines) >= 2 {
			return lines
		}
	}
	return []string{s.message(m, width), footer()}
}

// cmdRefusalLines is the most lines a refused command's notice takes (its way out is often at its
// end: "or drop post", "or close it first").
const cmdRefusalLines = 3

// commandLines is the open command line and, under it, its hint on one line, so the line does not
// jump while it is typed (a refusal closes the line: bottom says it).
func (s *statusBar) commandLines(m *Model, width int) []string {
	hint, p := m.cmdline.Hint(width)
	return []string{m.cmdline.Line(width), common.FitStyled(p.On(hint), width)}
}

// moreTail ends a message cut short: the messages view (its key) has it whole.
func (s *statusBar) moreTail(m *Model) string {
	return s.st.Muted.On("… (" + m.keys.Messages.Help().Key + " for all)")
}

// seg is a piece of the message line and its paint.
type seg struct {
	text  string
	paint common.Paint
}

// segments are the message line's pieces, most important first: the last action's result, the
// panes with no room, a dropped row, the last error. urgent: one of them says something is wrong.
func (s *statusBar) segments(m *Model) (segs []seg, urgent bool) {
	st := s.st
	add := func(text string, p common.Paint) {
		if len(segs) > 0 {
			segs = append(segs, seg{"  ·  ", st.Muted})
		}
		segs = append(segs, seg{text, p})
	}
	if m.notice != "" {
		add(m.noticeLevel.Mark()+" "+m.notice, m.noticeLevel.Paint(st))
		urgent = m.noticeLevel == common.LevelError || m.noticeLevel == common.LevelWarn
	}
	if h := m.hiddenPanes(); len(h) > 0 {
		add("no room for "+strings.Join(h, ", ")+" (press its number)", st.Muted)
	}
	if m.dropNote != "" && m.clock().Sub(m.dropAt) < 30*time.Second {
		add("! "+m.dropNote, st.Warn)
		urgent = true
	}
	if m.lastErr != "" && m.clock().Sub(m.lastErrAt) < 30*time.Second {
		add("last error: "+m.lastErr+" ("+common.FmtAge(m.clock().Sub(m.lastErrAt))+" ago)", st.Danger)
		urgent = true
	}
	return segs, urgent
}

// fitLines lays segs out on at most n lines of width cells, breaking between words; when they
// need more, the last line is cut between words (before a parenthesis it would cut) and ends
// with tail ("… (! for all)": the messages view has them whole). It returns fewer lines when
// fewer are needed (one at least).
func (s *statusBar) fitLines(tail string, segs []seg, width, n int) []string {
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
