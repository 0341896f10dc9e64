// Package messages is the messages view: the last notices and errors in full, with their times.
// The status line cuts long text; this view keeps and shows all of it. An order's outcome and its
// fills' running total share one line.
package messages

import (
	"strconv"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Max is how many notices and errors the log keeps.
const Max = 50

// Entry is one notice or error as it was shown, in full, with when it was last seen and how many
// times in a row (a failing poll repeats its error every few seconds).
type Entry struct {
	At    time.Time
	Level common.NoticeLevel
	Text  string
	Count int
	// An order's line (key common.FillKey): its fills' total once known (fills), else the
	// order's outcome (Text); tail is what the outcome said of the part that did not fill.
	key   string
	fills string
	tail  string
}

// Log is the kept messages, oldest first, the view's scroll position and whether it is open.
type Log struct {
	clock   func() time.Time
	entries []Entry
	scroll  int
	shown   bool
}

// New is an empty log stamped by clock.
func New(clock func() time.Time) *Log { return &Log{clock: clock} }

// Entries are the kept messages, oldest first.
func (l *Log) Entries() []Entry { return l.entries }

// Add keeps a notice or an error, sanitised. A repeat of the newest message only updates its time
// and count.
func (l *Log) Add(level common.NoticeLevel, msg string) {
	msg = text.Clean(text.HideKeys(msg))
	if msg == "" {
		return
	}
	if n := len(l.entries); n > 0 && l.entries[n-1].Text == msg && l.entries[n-1].Level == level {
		l.entries[n-1].At = l.clock()
		l.entries[n-1].Count++
		return
	}
	l.push(Entry{At: l.clock(), Level: level, Text: msg, Count: 1})
}

// OrderLine keeps one line per filled order and returns the line to show: the order's outcome
// (when its action settles, with tail, what became of the rest) and its fills' running total
// (fills, each time more of them arrive), whichever comes first, merged into the line of the same
// key instead of a line each.
func (l *Log) OrderLine(level common.NoticeLevel, key, outcome, fills, tail string) string {
	i := len(l.entries) - 1
	for ; i >= 0 && l.entries[i].key != key; i-- {
	}
	e := Entry{Level: level, key: key, Count: 1}
	if i >= 0 {
		e = l.entries[i]
		l.entries = append(l.entries[:i], l.entries[i+1:]...)
	}
	if fills != "" {
		e.fills = fills
	}
	if outcome != "" {
		e.Text, e.tail = outcome, tail
	}
	if e.fills != "" {
		e.Text = e.fills + e.tail
	}
	e.Text = text.Clean(text.HideKeys(e.Text))
	e.At = l.clock()
	l.push(e)
	return e.Text
}

func (l *Log) push(e Entry) {
	l.entries = append(l.entries, e)
	if len(l.entries) > Max {
		l.entries = l.entries[len(l.entries)-Max:]
	}
}

// Open opens the view at its top.
func (l *Log) Open() { l.shown, l.scroll = true, 0 }

// Close closes the view.
func (l *Log) Close() { l.shown = false }

// Shown reports whether the view is open.
func (l *Log) Shown() bool { return l.shown }

// Scroll moves the view by delta lines (Render keeps it in range); 0 goes back to the top.
func (l *Log) Scroll(delta int) {
	if delta == 0 {
		l.scroll = 0
		return
	}
	l.scroll += delta
}

// Render draws the view at width × height: newest first, each with its time (UTC) and its mark
// (✗ error, ! warning, ✓ information, ○ not done), wrapped, scrolling when they do not fit.
func (l *Log) Render(st *common.Styles, k *common.KeyMap, width, height int) string {
	head := []string{st.Accent.On("Messages — newest first, times in UTC"), ""}
	var body []string
	for i := len(l.entries) - 1; i >= 0; i-- {
		e := l.entries[i]
		line := e.At.UTC().Format("15:04:05") + " " + e.Level.Paint(st).On(e.Level.Mark()+" "+e.Text)
		if e.Count > 1 {
			line += st.Muted.On(" (×" + strconv.Itoa(e.Count) + ")")
		}
		body = append(body, line)
	}
	if len(body) == 0 {
		body = []string{st.Muted.On("no messages yet")}
	}
	foot := []string{"", st.Muted.On(common.KeyName(k.Messages) + " or " + common.KeyName(k.Dismiss) + " closes.")}
	return common.Box(st, k, head, body, foot, width, height, &l.scroll)
}
