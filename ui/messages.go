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
