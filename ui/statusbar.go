package ui

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
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
	accountVersion            [3]uint64 // account, tickers and positions versions
	accountLoaded             bool
	summaryLong, summaryShort string
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
	for _, short := range []bool{false, true} {
		right := s.summary(m, short)
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
// reconcile), else "polling" and why.
func (s *statusBar) transport(m *Model, c feed.Conn) string {
	st := s.st
	switch {
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

// summary is the account in one line, on the right of the top line: equity, available balance
// and margin used, so it stays in view when the account pane is a tab away. It is worked out
// again only when the account's version moves.
func (s *statusBar) summary(m *Model, short bool) string {
	// uPnL is at the freshest mark, so the tickers and positions move it too.
	v := [3]uint64{m.store.Version(state.KindAccount), m.store.Version(state.KindTickers), m.store.Version(state.KindPositions)}
	loaded := m.store.Freshness(state.KindAccount).Loaded()
	if v != s.accountVersion || loaded != s.accountLoaded {
		s.accountVersion, s.accountLoaded = v, loaded
		s.summaryLong, s.summaryShort = s.renderSummary(m.store)
	}
	if short {
		return s.summaryShort
	}
	return s.summaryLong
}

// renderSummary draws the account summary long and short ("" until the account has loaded).
func (s *statusBar) renderSummary(store *state.Store) (long, short string) {
	if !store.Freshness(state.KindAccount).Loaded() {
		return "", ""
	}
	st := s.st
	a := store.Account()
	upnl := store.UnrealizedPnL() // the positions pane's figure: one mark on the screen
	im := state.MarginUtilizationAfter(a, decimal.Zero)
	short = st.Muted.On("eq ") + common.FmtNum(a.TotalAccountEquity, 0) + st.Muted.On(" IM ") + common.UtilPaint(st, im).On(state.FormatPercent(im, 0)) + " "
	long = st.Muted.On("equity ") + common.FmtNum(a.TotalAccountEquity, 2) + st.Muted.On(" · avail ") + common.FmtNum(a.AvailableBalance, 2) +
		st.Muted.On(" · uPnL ") + common.SignPaint(st, upnl).On(common.FmtSigned(upnl, 2)) +
		st.Muted.On(" · IM ") + common.UtilPaint(st, im).On(state.FormatPercent(im, 1)) + " "
	return long, short
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

// message renders the message line: the last action's result, then the last error with its age.
func (s *statusBar) message(m *Model, width int) string {
	st := s.st
	var b strings.Builder
	if m.notice != "" {
		b.WriteString(m.noticeLevel.Paint(st).On(m.noticeLevel.Mark() + " " + m.notice))
	}
	if h := m.hiddenPanes(); len(h) > 0 {
		if b.Len() > 0 {
			b.WriteString(st.Muted.On("  ·  "))
		}
		b.WriteString(st.Muted.On("no room for " + strings.Join(h, ", ") + " (press its number)"))
	}
	if m.dropNote != "" && m.clock().Sub(m.dropAt) < 30*time.Second {
		if b.Len() > 0 {
			b.WriteString(st.Muted.On("  ·  "))
		}
		b.WriteString(st.Warn.On("! " + m.dropNote))
	}
	if m.lastErr != "" && m.clock().Sub(m.lastErrAt) < 30*time.Second {
		if b.Len() > 0 {
			b.WriteString(st.Muted.On("  ·  "))
		}
		b.WriteString(st.Danger.On("last error: " + m.lastErr + " (" + common.FmtAge(m.clock().Sub(m.lastErrAt)) + " ago)"))
	}
	return common.FitStyled(b.String(), width)
}
