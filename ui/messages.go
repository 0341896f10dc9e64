package ui

import (
	"strconv"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/ui/common"
)

// maxMessages is how many notices and errors the messages view keeps.
const maxMessages = 50

// message is one notice or error as it was shown, in full, with when it was last seen and how
// many times in a row (a failing poll repeats its error every few seconds).
type message struct {
	at    time.Time
	level common.NoticeLevel
	text  string
	count int
	// An order's line (key common.FillKey): its fills' total once known (fills), else the
	// order's outcome (text); tail is what the outcome said of the part that did not fill.
	key   string
	fills string
	tail  string
}

// logMessage keeps a notice or an error for the messages view: the status line cuts long text,
// this view shows all of it. A repeat of the newest message only updates its time and count.
func (m *Model) logMessage(level common.NoticeLevel, msg string) {
	msg = text.Clean(text.HideKeys(msg))
	if msg == "" {
		return
	}
	if n := len(m.messages); n > 0 && m.messages[n-1].text == msg && m.messages[n-1].level == level {
		m.messages[n-1].at = m.clock()
		m.messages[n-1].count++
	} else {
		m.messages = append(m.messages, message{at: m.clock(), level: level, text: msg, count: 1})
		if len(m.messages) > maxMessages {
			m.messages = m.messages[len(m.messages)-maxMessages:]
		}
	}
	if m.showMessages {
		m.renderMessages()
	}
}

// logOrderLine keeps one line per filled order in the messages view and returns the line to show:
// the order's outcome (when its action settles, with tail, what became of the rest) and its
// fills' running total (fills, each time more of them arrive), whichever comes first, merged into
// the line of the same key instead of a line each.
func (m *Model) logOrderLine(level common.NoticeLevel, key, outcome, fills, tail string) string {
	i := len(m.messages) - 1
	for ; i >= 0 && m.messages[i].key != key; i-- {
	}
	e := message{level: level, key: key, count: 1}
	if i >= 0 {
		e = m.messages[i]
		m.messages = append(m.messages[:i], m.messages[i+1:]...)
	}
	if fills != "" {
		e.fills = fills
	}
	if outcome != "" {
		e.text, e.tail = outcome, tail
	}
	if e.fills != "" {
		e.text = e.fills + e.tail
	}
	e.text = text.Clean(text.HideKeys(e.text))
	e.at = m.clock()
	m.messages = append(m.messages, e)
	if len(m.messages) > maxMessages {
		m.messages = m.messages[len(m.messages)-maxMessages:]
	}
	if m.showMessages {
		m.renderMessages()
	}
	return e.text
}

// renderMessages draws the messages view: newest first, each with its time (UTC) and its mark
// (✗ error, ! warning, ✓ information, ○ not done), wrapped to the screen, scrolling when they do not fit.
func (m *Model) renderMessages() {
	st := m.st
	head := []string{st.Accent.On("Messages — newest first, times in UTC"), ""}
	var body []string
	for i := len(m.messages) - 1; i >= 0; i-- {
		e := m.messages[i]
		line := e.at.UTC().Format("15:04:05") + " " + e.level.Paint(st).On(e.level.Mark()+" "+e.text)
		if e.count > 1 {
			line += st.Muted.On(" (×" + strconv.Itoa(e.count) + ")")
		}
		body = append(body, line)
	}
	if len(body) == 0 {
		body = []string{st.Muted.On("no messages yet")}
	}
	foot := []string{"", st.Muted.On("! or Esc closes.")}
	m.messagesView = common.Box(st, head, body, foot, m.width, m.height-3, &m.messagesScroll)
}
