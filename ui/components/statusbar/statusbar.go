// Package statusbar is the console's status bar: the top line (mode, account, connection,
// staleness, banners, the account summary) and the message line under the panes. It is fed
// values (Values) that the root builds from its state each frame; it reads nothing else.
package statusbar

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Mode is how the console is connected: to the embedded simulator, read-only, or live.
type Mode int

// Modes.
const (
	ModeDemo Mode = iota
	ModeReadOnly
	ModeLive
	// ModeShadow: a paper wallet on the embedded mirror of a live exchange (sim.Mirror). Set
	// only when the client's transport is that mirror, never from a flag.
	ModeShadow
)

// String names the mode: demo, read-only or live.
func (m Mode) String() string {
	switch m {
	case ModeDemo:
		return "demo"
	case ModeReadOnly:
		return "read-only"
	case ModeShadow:
		return "shadow"
	}
	return "live"
}

// Identity is what the console is connected as; it does not change while it runs.
type Identity struct {
	Mode    Mode
	Network string
	Address string // the account watched ("" when none)
	// Agent: the client signs with an agent key (orders and cancels only) until AgentUntil.
	Agent      bool
	AgentUntil time.Time
	// Profile is the config profile the console runs ("": none), named after the badge.
	Profile string
}

// ModeWord is the mode in plain words, for the order form's title.
func (id Identity) ModeWord() string {
	switch id.Mode {
	case ModeDemo:
		return "DEMO"
	case ModeReadOnly:
		return "READ-ONLY"
	case ModeShadow:
		return "SHADOW " + ShadowOf(id.Network) + " · paper"
	}
	if id.Agent {
		return "LIVE " + strings.ToUpper(id.Network) + " · agent"
	}
	return "LIVE " + strings.ToUpper(id.Network)
}

// Stale is one kind of data gone stale: its name and age (Loaded false: it never loaded).
type Stale struct {
	Name   string
	Age    time.Duration
	Loaded bool
}

// Account is the account summary's figures, as of Version (the account, tickers and positions
// versions: the summary is drawn again only when one moves or Loaded changes).
type Account struct {
	Loaded                      bool
	Version                     [3]uint64
	Equity, Available, UPnL, IM decimal.Decimal
}

// Banners are the top line's markers of what runs beside the trader (each shown when set): a
// shadow run, the algorithms running, the risk state, an attached guard daemon.
type Banners struct {
	Shadow     string // what the shadow run mirrors ("" when none)
	Algorithms int    // algorithms running
	Risk       string // a risk lock-out ("" when trading is open)
	Guard      string // the attached guard daemon ("" when none)
}

// Values is everything the status bar shows, built by the root each frame.
type Values struct {
	Identity
	Now  time.Time
	Wide bool // the screen is wide: the console's name goes after the badge
	// The connection, whether to leave its measured latency out (tests), and why the stream is off.
	Conn        feed.Conn
	HideLatency bool
	StreamOff   string
	Stale       []Stale
	// Stats shows the frame time and the messages a second.
	Stats     bool
	FrameTime time.Duration
	MsgRate   int
	Account   Account
	Banners   Banners
	// The message line: the last notice (NoticeLines: how many lines it may take when urgent),
	// the panes with no room, a dropped row and the last error, each with when it came.
	Notice      string
	NoticeLevel common.NoticeLevel
	NoticeLines int
	Hidden      []string
	DropNote    string
	DropAt      time.Time
	LastErr     string
	LastErrAt   time.Time
	// Overlay: a dialog, the help or the messages view is open (the footer keeps its line).
	Overlay bool
	// MessagesKey is the key of the messages view, named where a message is cut.
	MessagesKey string
}

// recent is how long a dropped row's note and the last error stay on the message line.
const recent = 30 * time.Second

// Model draws the status bar; it keeps the account summary drawn for its version.
type Model struct {
	st      *common.Styles
	version [3]uint64
	loaded  bool
	forms   [3]string // the account summary in each form (summaryLong...)
}

// New is a status bar drawn in st.
func New(st *common.Styles) *Model { return &Model{st: st} }

// badge is the always-visible mode: DEMO, READ-ONLY or LIVE with the network.
func (s *Model) badge(id Identity) string {
	switch id.Mode {
	case ModeDemo:
		return s.st.Demo.On(" DEMO ")
	case ModeReadOnly:
		return s.st.ReadOnly.On(" READ-ONLY " + strings.ToUpper(id.Network) + " ")
	case ModeShadow:
		return s.st.Demo.On(" SHADOW " + ShadowOf(id.Network) + " · paper ")
	}
	agent := ""
	if id.Agent {
		agent = "· agent "
	}
	if strings.EqualFold(id.Network, "mainnet") {
		return s.st.Mainnet.On(" LIVE MAINNET " + agent)
	}
	return s.st.Live.On(" LIVE " + strings.ToUpper(id.Network) + " " + agent)
}

// agentLine says when the agent key expires, as a warning from a day ahead.
func (s *Model) agentLine(id Identity, now time.Time) string {
	if !id.Agent || id.AgentUntil.IsZero() {
		return ""
	}
	left := state.AgentLeft(id.AgentUntil, now)
	if !now.Before(id.AgentUntil) {
		return s.st.Danger.On("agent expired: orders are refused; tradedesk agent add")
	}
	if id.AgentUntil.Sub(now) < state.AgentWarnAhead {
		return s.st.Danger.On("agent expires in " + left + ": tradedesk agent add")
	}
	return s.st.Muted.On("agent " + left + " left")
}

// Top renders the top line of width cells.
func (s *Model) Top(v Values, width int) string {
	st := s.st
	var b strings.Builder
	b.WriteString(s.badge(v.Identity))
	b.WriteString(" ")
	if v.Wide {
		b.WriteString(st.Accent.On("tradedesk"))
		b.WriteString(st.Muted.On(" · "))
	}
	if v.Profile != "" {
		b.WriteString(st.Accent.On("profile " + v.Profile))
		b.WriteString(st.Muted.On(" · "))
	}
	if v.Address != "" {
		b.WriteString(common.ShortAddr(v.Address))
		b.WriteString(st.Muted.On(" · "))
	}
	b.WriteString(s.connection(v))
	for _, part := range []string{s.agentLine(v.Identity, v.Now), s.stale(v.Stale), s.banners(v.Banners)} {
		if part != "" {
			b.WriteString(st.Muted.On(" · "))
			b.WriteString(part)
		}
	}
	if v.Stats {
		b.WriteString(st.Muted.On(" · frame " + v.FrameTime.Round(time.Microsecond).String() +
			" · " + strconv.Itoa(v.MsgRate) + " msg/s"))
	}
	left := b.String()
	for _, form := range []int{summaryLong, summaryMid, summaryShort} {
		right := s.summary(v.Account, form)
		if right == "" {
			break
		}
		if gap := width - ansi.StringWidth(left) - ansi.StringWidth(right); gap >= 2 {
			return left + strings.Repeat(" ", gap) + right
		}
	}
	return common.FitStyled(left, width)
}

func (s *Model) connection(v Values) string {
	st := s.st
	c := v.Conn
	switch c.State {
	case feed.Offline:
		return st.Muted.On("offline")
	case feed.Retrying:
		return st.Danger.On("● reconnecting (" + strconv.Itoa(c.Fails) + " failed)")
	case feed.Connecting:
		return st.Warn.On("● connecting…")
	}
	word := st.Good.On("● connected")
	if !v.HideLatency {
		word += st.Muted.On(" " + fmtLatency(c.Latency))
	}
	return word + s.transport(c, v.StreamOff)
}

// transport says how data arrives: "stream" while the WebSocket is up (the polls only
// reconcile), else "polling" and why: the stream down, turned off (off), or a market topic
// silent behind live pings ("polling (ticker stream silent 5s)").
func (s *Model) transport(c feed.Conn, off string) string {
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
	case off != "":
		return st.Muted.On(" · polling (stream off: " + off + ")")
	}
	return ""
}

func fmtLatency(d time.Duration) string {
	if d < time.Millisecond {
		return "<1ms"
	}
	return d.Round(time.Millisecond).String()
}

// stale lists the kinds whose data is stale, with their age ("" when none is).
func (s *Model) stale(kinds []Stale) string {
	if len(kinds) == 0 {
		return ""
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		if k.Loaded {
			parts[i] = k.Name + " " + common.FmtAge(k.Age)
		} else {
			parts[i] = k.Name + " never loaded"
		}
	}
	return s.st.Warn.On("stale: " + strings.Join(parts, ", "))
}

// banners are the markers of what runs beside the trader, in the order of Banners' fields.
func (s *Model) banners(b Banners) string {
	st := s.st
	var parts []string
	if b.Shadow != "" {
		parts = append(parts, st.Warn.On("SHADOW "+b.Shadow))
	}
	if b.Algorithms > 0 {
		parts = append(parts, st.Accent.On(strconv.Itoa(b.Algorithms)+" algo"+map[bool]string{true: "s"}[b.Algorithms > 1]))
	}
	if b.Risk != "" {
		parts = append(parts, st.Danger.On("RISK "+b.Risk))
	}
	if b.Guard != "" {
		parts = append(parts, st.Muted.On("guard "+b.Guard))
	}
	return strings.Join(parts, st.Muted.On(" · "))
}

// The summary's forms, longest first: the top line takes the longest that fits.
const (
	summaryLong  = iota // perp equity, available, uPnL, IM utilization
	summaryMid          // without the uPnL (the positions pane has it)
	summaryShort        // perp equity and IM utilization, whole numbers
)

// summary is the account in one line, on the right of the top line: perp equity, available balance
// and margin used, so it stays in view when the account pane is a tab away. It is drawn again only
// when the account's version moves.
func (s *Model) summary(a Account, form int) string {
	if a.Version != s.version || a.Loaded != s.loaded {
		s.version, s.loaded = a.Version, a.Loaded
		s.forms = s.renderSummary(a)
	}
	return s.forms[form]
}

// renderSummary draws the account summary in each form ("" until the account has loaded). The
// equity is the perp (derivative) account's, said so: the equity view's value adds the spot
// account's balances.
func (s *Model) renderSummary(a Account) (forms [3]string) {
	if !a.Loaded {
		return forms
	}
	st := s.st
	eq := st.Muted.On("perp equity ") + common.FmtNum(a.Equity, 2) + st.Muted.On(" · avail ") + common.FmtNum(a.Available, 2)
	imText := st.Muted.On(" · IM ") + common.UtilPaint(st, a.IM).On(state.FormatPercent(a.IM, 1)) + " "
	forms[summaryLong] = eq + st.Muted.On(" · uPnL ") + common.SignPaint(st, a.UPnL).On(common.FmtSigned(a.UPnL, 2)) + imText
	forms[summaryMid] = eq + imText
	forms[summaryShort] = st.Muted.On("perp eq ") + common.FmtNum(a.Equity, 0) + st.Muted.On(" IM ") + common.UtilPaint(st, a.IM).On(state.FormatPercent(a.IM, 0)) + " "
	return forms
}

// ShadowNetwork is the network name a shadow session journals under ("shadow-mainnet"), so its
// journal, history and exports are never a live session's.
func ShadowNetwork(live string) string { return "shadow-" + live }

// ShadowOf is the live network a shadow session's network mirrors, upper case ("MAINNET").
func ShadowOf(network string) string {
	return strings.ToUpper(strings.TrimPrefix(network, "shadow-"))
}
