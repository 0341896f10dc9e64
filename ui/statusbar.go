package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/account"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/components/risk"
	"github.com/tradedesk/tradedesk/ui/components/statusbar"
)

// Mode is how the console is connected: to the embedded simulator, read-only, or live.
type Mode = statusbar.Mode

// Modes.
const (
	ModeDemo     = statusbar.ModeDemo
	ModeReadOnly = statusbar.ModeReadOnly
	ModeLive     = statusbar.ModeLive
	ModeShadow   = statusbar.ModeShadow
)

// readOnlyReason is why the console cannot trade ("" when it can): the reason main gave, else a
// client holding no key.
func readOnlyReason(cfg Config) string {
	if cfg.ReadOnlyReason == "" && !cfg.Exchange.CanTrade() {
		return "no key: watching " + common.ShortAddr(cfg.Exchange.Address()) + "; start with --keystore or TRADEDESK_PRIVATE_KEY to trade"
	}
	return cfg.ReadOnlyReason
}

// statusBar feeds the status bar component (statusbar.Model) the values it shows: who the
// console is connected as (set in New), and each frame the connection, staleness, account
// figures and messages read from the root.
type statusBar struct {
	st      *common.Styles
	mode    Mode
	network string
	address string
	// agent: the client signs with an agent key (orders and cancels only) until agentUntil.
	agent      bool
	agentUntil time.Time
	profile    string // the config profile ("": none)
	bar        *statusbar.Model
	// The account's figures as of version acctVersion (and whether it had loaded): worked out
	// again only when a version moves.
	acct statusbar.Account
	// risk is the trading state shown when not ACTIVE, and when it was last read (Model.readRisk).
	risk risk.Line
}

func (s *statusBar) identity() statusbar.Identity {
	return statusbar.Identity{Mode: s.mode, Network: s.network, Address: s.address, Agent: s.agent, AgentUntil: s.agentUntil, Profile: s.profile}
}

// modeWord is the mode in plain words, for the order form's title.
func (s *statusBar) modeWord() string { return s.identity().ModeWord() }

// model is the component, made on first use.
func (s *statusBar) model() *statusbar.Model {
	if s.bar == nil {
		s.bar = statusbar.New(s.st)
	}
	return s.bar
}

// values are what the status bar shows of the root's state now.
func (s *statusBar) values(m *Model, width int) statusbar.Values {
	now := m.clock()
	v := statusbar.Values{
		Identity: s.identity(), Now: now, Wide: width >= wideWidth,
		Conn: m.feed.Conn(), HideLatency: m.fixedLatency, StreamOff: m.streamOff, Stale: staleNow(m),
		Stats: m.stats, FrameTime: m.frameTime, MsgRate: m.msgRate, Account: s.account(m.store),
		Notice: m.notice, NoticeLevel: m.noticeLevel, NoticeLines: 2, Hidden: m.hiddenPanes(),
		DropNote: m.dropNote, DropAt: m.dropAt, LastErr: m.lastErr, LastErrAt: m.lastErrAt,
		Overlay:     slices.ContainsFunc(m.modals.Shown(), common.Modal.KeepsFooter),
		MessagesKey: m.keys.Messages.Help().Key,
	}
	v.Banners.Risk = s.risk.Text()
	v.Banners.Guard = m.guard.Banner()
	if strings.HasPrefix(m.notice, cmdline.NotSent) {
		// A refused command's notice wraps on up to three lines, over the panes' last rows
		// (they keep their size, the screen its height), so its way out reads whole.
		v.NoticeLines = cmdRefusalLines
	}
	return v
}

// cmdRefusalLines is the most lines a refused command's notice takes (its way out is often at its
// end: "or drop post", "or close it first").
const cmdRefusalLines = 3

// account is the account summary's figures; uPnL is at the freshest mark, so the tickers and
// positions versions move it too.
func (s *statusBar) account(store *state.Store) statusbar.Account {
	v := [3]uint64{store.Version(state.KindAccount), store.Version(state.KindTickers), store.Version(state.KindPositions)}
	loaded := store.Freshness(state.KindAccount).Loaded()
	if v == s.acct.Version && loaded == s.acct.Loaded {
		return s.acct
	}
	s.acct = statusbar.Account{Loaded: loaded, Version: v}
	if loaded {
		a := store.Account()
		s.acct.Equity, s.acct.Available = a.TotalAccountEquity, a.AvailableBalance
		s.acct.UPnL = store.UnrealizedPnL() // the positions pane's figure: one mark on the screen
		s.acct.IM = state.MarginUtilizationAfter(a, decimal.Zero)
	}
	return s.acct
}

// staleNow are the root's kinds whose data is stale, with their age.
func staleNow(m *Model) []statusbar.Stale {
	var out []statusbar.Stale
	for _, k := range m.kinds {
		if f := m.store.Freshness(k); f.Stale {
			out = append(out, statusbar.Stale{Name: k.String(), Age: f.Age, Loaded: f.Loaded()})
		}
	}
	return out
}

// commandLines is the open command line and, under it, its hint on one line, so the line does not
// jump while it is typed (a refusal closes the line: bottom says it).
func (s *statusBar) commandLines(m *Model, width int) []string {
	hint, p := m.cmdline.Hint(width)
	return []string{m.cmdline.Line(width), common.FitStyled(p.On(hint), width)}
}

// readRisk reads the trading state from the executor's engine at most every risk.Every: at
// start, after an action settles and as the engine applies account, position, order or fill
// data (Model.onFeed), so a loss limit the account reaches shows on the status line with no order
// tried. nil without an executor.
func (m *Model) readRisk() tea.Cmd {
	if m.exec == nil {
		return nil
	}
	cmd, due := m.status.risk.Due(time.Now(), m.feed)
	if !due {
		return cmd
	}
	return tea.Batch(cmd, risk.Read(m.exec.Risk(), risk.AccountOf(m.store)))
}

// onRiskMsg handles the trading state's messages and the `:risk` command (risk.Command, on the
// executor's engine).
func (m *Model) onRiskMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case risk.TickMsg:
		if !m.status.risk.Tick() {
			return nil, true // a change since read it
		}
		return m.readRisk(), true
	case risk.Msg:
		rep, changed := m.status.risk.Show(msg)
		if !changed {
			return nil, true // the same words and report: nothing to draw (quietMsg)
		}
		m.dirty = true
		if rep != nil {
			return m.broadcast(account.RiskMsg{Report: *rep}), true
		}
		return nil, true
	case risk.DoneMsg:
		level := common.LevelInfo
		if msg.Failed {
			level = common.LevelError
		}
		m.setNotice(level, msg.Notice)
		m.status.risk.Mark(time.Now())
		cmd, _ := m.onRiskMsg(msg.Read)
		return cmd, true
	case cmdline.RiskMsg:
		if m.exec == nil {
			return common.Notice(common.LevelError, "risk: no executor in this console (read-only): tradedesk risk reads the journal"), true
		}
		return risk.Command(m.exec.Risk(), risk.AccountOf(m.store), msg), true
	}
	return nil, false
}
