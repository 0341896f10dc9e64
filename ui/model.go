package ui

import (
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/ui/components/latency"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/account"
	"github.com/tradedesk/tradedesk/ui/components/alerts"
	"github.com/tradedesk/tradedesk/ui/components/algos"
	"github.com/tradedesk/tradedesk/ui/components/chart"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/components/depth"
	"github.com/tradedesk/tradedesk/ui/components/guard"
	"github.com/tradedesk/tradedesk/ui/components/help"
	"github.com/tradedesk/tradedesk/ui/components/ladder"
	"github.com/tradedesk/tradedesk/ui/components/messages"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
	"github.com/tradedesk/tradedesk/ui/components/orders"
	"github.com/tradedesk/tradedesk/ui/components/positions"
	"github.com/tradedesk/tradedesk/ui/components/tickers"
	"github.com/tradedesk/tradedesk/ui/dialogs/confirm"
	"github.com/tradedesk/tradedesk/ui/dialogs/leverage"
)

// Config is everything the console needs; main fills it in from flags and the config file.
type Config struct {
	Exchange  api.Exchange
	Store     *state.Store     // nil: a new store on Clock
	Clock     func() time.Time // nil: time.Now
	Mode      Mode
	Network   string // mainnet, testnet, or a URL's host
	Profile   string // the config profile the console runs ("": none); the mode line names it
	Keys      common.KeyMap
	Theme     common.Theme
	Intervals Intervals // zero: profile.DefaultIntervals
	// Timers is the clock the feed's timers run on (nil: wall time, with Now from Clock). Tests
	// pass a feed.FakeClock and step it.
	Timers feed.Clock
	Guard  state.Guard // zero: state.DefaultGuard
	// Fees are the exchange's fee rates when known (the embedded demo's); nil: state.DefaultFees.
	Fees *state.Fees
	// Watchlist is the favourite instruments, shown first in the tickers pane.
	Watchlist []string
	// Instrument is the order form's first instrument ("" to pick one from the tickers).
	Instrument string
	// ReadOnlyReason says why trading is off; "" means the exchange client decides (CanTrade).
	ReadOnlyReason string
	// Stats shows frame time and messages per second in the status line.
	Stats bool
	// NoFillBell keeps the terminal bell quiet on new fills (the B key toggles it too).
	NoFillBell bool
	// Stream is the exchange's WebSocket (nil: polling only); StreamOff says why there is none
	// when it was turned off ("--no-stream"), for the status line.
	Stream    *api.Stream
	StreamOff string
	// DefaultSizes is the order size the ladder's b and s put in the form, by instrument name, so
	// Enter sends it at once (through the usual checks and the confirmation policy).
	DefaultSizes map[string]string
	// LargeTrade is the notional from which the tape marks a print as large (zero: the default).
	LargeTrade decimal.Decimal
	// CommandHistory is the base path of the `:` command line's history files, one per Network
	// (cmdline.NetworkHistoryPath; "": in memory only; main passes cmdline.DefaultHistoryPath).
	CommandHistory string
	// AgentUntil is when the agent key the exchange client signs with expires (zero: not an
	// agent, or unknown). The status line shows it and warns a day ahead.
	AgentUntil time.Time
	// Exec is the executor every order and cancel goes through, on the journal of the network
	// and account (exec.Open; main opens it with Guard's limits). nil: nothing is signed through
	// it (a read-only console opens none). Init runs its Recover before anything is sent.
	Exec *exec.Executor
	// Alerts are the config's alert rules and their delivery (ui/components/alerts).
	Alerts AlertSettings
	// GuardDir is the guards' socket directory (guard.SocketDir): the console attaches to its
	// account's guard there ("": it never looks).
	GuardDir string
	// GuardBeat is how often the console sends that guard a heartbeat (0: a second).
	GuardBeat time.Duration
	// AlgoOnRestart is the config's [on_restart] choice per kind of algorithm (profile.OnRestart),
	// applied at start to those an earlier run left running.
	AlgoOnRestart map[string]string
	// Live is the live session a shadow console holds beside its paper one (SHADOW mode only):
	// the send_live key sends a rehearsed order through it (LiveRoute).
	Live LiveRoute
}

// Model is the console's root model: it owns focus, layout and routing, runs the polls, applies
// their results to the store and sends trading actions. Keys go to a focused text input first, then
// to the global bindings, then to the focused pane.
type Model struct {
	ex    api.Exchange
	exec  *exec.Executor // nil: no journal, no order or cancel is signed
	live  LiveRoute      // a shadow console's live session (Config.Live)
	store *state.Store
	clock func() time.Time
	iv    Intervals
	c     *common.Common
	st    *common.Styles
	keys  *common.KeyMap

	slots   []*slot
	focus   int
	tickers *tickers.Pane
	form    *orderentry.Pane
	depth   *depth.Pane
	sizes   map[string]string // default order sizes by instrument (the ladder's b and s)

	width, height int
	narrow        bool
	stacked       bool // one column of panes (tall, not wide)
	tooSmall      bool
	tabs          []tabSpan

	helpBox *help.Model // the `?` overlay (open: helpBox.Shown) and the footer's keys
	// msgs are the last notices and errors in full, shown by the messages key.
	msgs         *messages.Log
	alerts       *alerts.Model // the alert engine's console side, and the Alerts view
	messagesView string
	cmdline      *cmdline.Model // the `:` command line: open, it takes every key
	status       statusBar
	// modals is the one modal stack: what opens over the panes (the confirmation, the leverage
	// dialog and a sheet with their state; the command line, the alerts view, the messages and
	// the help as the components' modals) is pushed as it opens; the top takes every key.
	modals common.Stack
	modal  modalSet // the components' modals to push (newModals)

	feed *feed.Feed // the one scheduler: the root's polls and the panes' own requests
	// stream is the exchange's WebSocket beside the polls (nil: none); streamSym is the instrument
	// whose book and trades it carries, streamSubs their subscriptions.
	stream    *api.Stream
	streamSym string
	// streamChart is the chart series the stream carries; chart is the chart pane, whose series
	// the stream follows.
	streamChart state.ChartKey
	chart       *chart.Pane
	// streamedKinds records which kinds had the streaming stale window last (syncStaleWindows).
	streamedKinds map[state.Kind]bool
	streamSubs    chan *api.Subscription
	streamOff     string
	kinds         []state.Kind         // the kinds the root polls
	lineBook      *cmdline.NeedBookMsg // the book a command-line order waits for (fetchLineBook)
	algos         *algos.Runner        // the algorithms the console runs, and the Algos view
	algoPane      *algos.Pane
	liveAlgos     *algos.Runner   // a shadow console's live session's algorithms (nil: none)
	guard         guard.Link      // the account's guard, when one runs
	lat           *latency.Routes // each order's route from the keystroke to the screen (:latency)

	pipe        pipeline
	quitArmed   bool // quit was pressed once while an action was out
	notice      string
	noticeLevel common.NoticeLevel
	lastErr     string
	lastErrAt   time.Time
	lastErrKind state.Kind // the kind whose failure lastErr is: its next success clears it
	// dropNote says how many bad rows the last answer that had any left out, and why (shown
	// for 30 s after dropAt).
	dropNote string
	dropAt   time.Time

	footer      string
	footerDirty bool
	// view is the frame drawn last, viewChanges the store's changes it was drawn from; dirty says
	// a message since may have changed it (View).
	view        string
	viewChanges uint64
	dirty       bool
	// hold keeps the frame drawn last while a poll's reply waits for the rest of its round
	// (feed.Result.Hold), so the round's replies draw one frame; any message that is not the
	// feed's or the trading state's ends it.
	hold bool

	stats        bool
	fixedLatency bool // tests: do not show measured latency (it varies run to run)
	frameTime    time.Duration
	msgCount     int
	msgRate      int
	rateAt       time.Time
}

// New builds the console.
func New(cfg Config) *Model {
	if cfg.Clock == nil {
		cfg.Clock = time.Now
	}
	if cfg.Store == nil {
		cfg.Store = state.New(cfg.Clock)
	}
	if cfg.Fees != nil {
		cfg.Store.SetFees(*cfg.Fees)
	}
	cfg.Intervals = cfg.Intervals.WithDefaults()
	if cfg.Guard == (state.Guard{}) {
		cfg.Guard = state.DefaultGuard()
	}
	readOnly := readOnlyReason(cfg)
	if readOnly != "" {
		cfg.Mode = ModeReadOnly // the mode line says what can sign, whatever mode was asked for
	}
	keys := cfg.Keys
	st := common.NewStyles(cfg.Theme)
	m := &Model{
		ex: cfg.Exchange, store: cfg.Store, clock: cfg.Clock, msgs: messages.New(cfg.Clock), iv: cfg.Intervals, st: st, keys: &keys,
		helpBox: help.New(st, &keys), stats: cfg.Stats, footerDirty: true, sizes: cfg.DefaultSizes, lat: latency.NewRoutes(cfg.Clock),
		status: statusBar{st: st, mode: cfg.Mode, network: cfg.Network, address: cfg.Exchange.Address(),
			agent: cfg.Exchange.IsAgent(), agentUntil: cfg.AgentUntil, profile: cfg.Profile},
	}
	m.feed = newFeed(cfg)
	m.c = &common.Common{Store: cfg.Store, Styles: st, Keys: m.keys, Clock: cfg.Clock, Guard: cfg.Guard, Intervals: cfg.Intervals,
		ReadOnly: readOnly, Account: cfg.Exchange.Address(), Feed: m.feed}
	m.c.SetInstrument(cfg.Instrument)
	m.cmdline = cmdline.New(st, m.keys, cfg.Store, cmdline.OpenHistory(cmdline.NetworkHistoryPath(cfg.CommandHistory, cfg.Network)))
	m.modal = m.newModals()
	m.addPolls()
	m.streamOff = cfg.StreamOff
	if cfg.Stream != nil {
		m.addStream(cfg.Stream)
	}
	m.addPanes(cfg)
	if cfg.Instrument != "" {
		m.form.Update(common.InstrumentMsg{Symbol: cfg.Instrument})
	}
	m.setFocus(0)
	m.useExecutor(cfg.Exec, cfg.Guard)
	m.live = cfg.Live
	m.newAlerts(cfg)
	m.guard.Dir, m.guard.Beat = cfg.GuardDir, cfg.GuardBeat
	if cfg.ReadOnlyReason != "" {
		m.setNotice(common.LevelWarn, "read-only: "+cfg.ReadOnlyReason) // why, before any key is refused
	}
	return m
}

// addPanes builds the panes and places them. Adding one is one line here (see common.Pane).
func (m *Model) addPanes(cfg Config) {
	m.tickers = tickers.New(m.c, cfg.Watchlist)
	m.form = orderentry.New(m.c, m.status.modeWord(), &m.pipe.out[action.LaneOrder])
	accountEmpty := "waiting for the account…"
	if cfg.Exchange.Address() == "" {
		accountEmpty = common.NoAccount("")
	}
	pos, open := positions.New(m.c), orders.New(m.c)
	if cfg.Exchange.Address() == "" {
		pos.EmptyText, open.EmptyText = accountEmpty, accountEmpty
	}
	m.addPane(m.tickers, colLeft, 5, 0).beside = true
	m.addPane(pos, colLeft, 3, 0)
	m.addPane(open, colLeft, 3, 0)
	m.addPane(m.form, colRight, 0, formHeight)
	m.addPane(account.New(m.c, accountEmpty), colRight, 1, 0)
	m.chart = chart.New(m.c, cfg.Exchange)
	m.addPane(newMarketGroup(m.c, cfg.Exchange, m.chart), colLeft, 4, 0).beside = true
	m.algos = algos.NewRunner(cfg.Exchange, cfg.Exec)
	m.algos.OnRestart, m.algos.GuardDir, m.algos.Keys = cfg.AlgoOnRestart, cfg.GuardDir, m.keys
	if cfg.Stream != nil {
		m.algos.Streamed(cfg.Stream)
	}
	m.liveAlgos = cfg.Live.Runner(m.algos)
	m.algoPane = algos.New(m.c, m.algos.Feed, m.algos.Journal(), m.stopAlgo)
	m.addPane(newActivityGroup(m.c, cfg.Exchange, !cfg.NoFillBell, m.algoPane), colLeft, 3, 0)
	m.addPane(newFundsGroup(m.c, cfg.Exchange), colRight, 2, 0)
	m.depth = depth.New(m.c, cfg.LargeTrade)
	m.addPane(m.depth, colMid, 3, 0)
}

// Store is the model's store (tests and the headless commands read it).
func (m *Model) Store() *state.Store { return m.store }

// Watchlist is the tickers pane's favourites, for main to save.
func (m *Model) Watchlist() []string { return m.tickers.Watchlist() }

// Init starts every poll.
func (m *Model) Init() tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(m.kinds)+1)
	for _, k := range m.kinds {
		cmds = append(cmds, common.Tea(m.feed.Task(k).Start()))
	}
	cmds = append(cmds, startPanes) // the panes' own polls (fills, history, chart, brokers, leverage)
	// The journal's answer starts LeftRunning (journalMsg), after its recovery.
	cmds = append(cmds, m.startStream(), m.recoverJournal(), m.readRisk(), m.findGuard())
	return tea.Batch(cmds...)
}

// findGuard looks for the account's guard and attaches to it: its algorithms run on m.algos,
// its alerts show in m.alerts.
func (m *Model) findGuard() tea.Cmd {
	return m.guard.Find(m.ex.Address(), guard.Shows{Algos: m.algos, Alerts: m.alerts, Watch: m.algoPane.Watch})
}

// Update routes one message, then writes the latency routes the last frame completed.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	model, cmd := m.update(msg)
	return model, tea.Batch(cmd, m.lat.Flush(m.routeBook()))
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m.stats {
		m.countMsg()
	}
	if m.stats || !quietMsg(msg) {
		m.dirty = true
	}
	if !quietMsg(msg) {
		m.hold = false
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case tea.KeyMsg:
		m.footerDirty = true
		m.lat.Key()
		cmd := m.routeKey(msg)
		m.clearFixedRefusal()
		return m, tea.Batch(cmd, m.followInstrument()) // a chart key may have changed its series
	case tea.MouseMsg:
		m.footerDirty = true
		return m, m.routeMouse(msg)
	case feed.Msg:
		return m, m.onFeed(msg)
	}
	return m, m.onComponentMsg(msg)
}

// onComponentMsg routes what the panes, dialogs and the pipeline send the root; every other
// message goes to the panes.
func (m *Model) onComponentMsg(msg tea.Msg) tea.Cmd {
	if cmd, ok := m.onAlertMsg(msg); ok {
		return cmd
	}
	if cmd, ok := m.onAlgoMsg(msg); ok {
		return cmd
	}
	if cmd, ok := m.guard.Update(msg); ok {
		return cmd
	}
	if cmd, ok := m.onSheetMsg(msg); ok {
		return cmd
	}
	if cmd, ok := m.onModalMsg(msg); ok {
		return cmd
	}
	if cmd, ok := m.onRiskMsg(msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case action.RequestMsg:
		m.footerDirty = true
		return m.onAction(msg.Act)
	case action.DoneMsg:
		return m.onActionDone(msg)
	case journalMsg:
		return m.onJournal(msg)
	case common.InstrumentMsg:
		return m.onInstrument(msg)
	case common.FocusPaneMsg:
		m.showPane(msg.Pane)
		return nil
	case common.NoticeMsg:
		m.onNotice(msg)
		return nil
	case cmdline.NeedBookMsg:
		return m.fetchLineBook(msg)
	case common.NoticesMsg:
		for _, n := range msg {
			m.onNotice(n)
		}
		return nil
	case ladder.TradeMsg:
		return m.onLadderTrade(msg)
	}
	// Anything else is a component's own (a timer, an export's progress, a request between
	// panes): every pane is handed it and takes what it owns, so no message is lost for want
	// of a case here.
	return m.broadcast(msg)
}

// onDialogResult closes the confirmation dialog and sends its action if it was confirmed.
func (m *Model) onDialogResult(msg confirm.ResultMsg) tea.Cmd {
	if md, ok := common.Find[*confirm.Modal](&m.modals); ok {
		m.modals.Pop(md)
	}
	m.footerDirty = true
	if !msg.Confirmed {
		m.setNotice(common.LevelNote, "not sent: "+msg.Act.What)
		return nil
	}
	return m.confirmed(msg.Act, msg.Opened)
}

// onInstrument makes msg's instrument the current one: the order form takes it (and the focus
// when asked), and the panes that follow it move.
func (m *Model) onInstrument(msg common.InstrumentMsg) tea.Cmd {
	m.footerDirty = true
	m.c.SetInstrument(msg.Symbol)
	cmd := m.form.Update(msg)
	if msg.Focus {
		m.focusPane(m.form)
	}
	// Panes that follow the current instrument (the chart, instrument details) pick it up
	// when told the market changed; the others find their data unchanged.
	// The book and the tape follow the current instrument: poll the new one's at once.
	return tea.Batch(cmd, m.broadcast(common.DataMsg{Kind: state.KindTickers}), m.refreshNow(state.KindBook, state.KindTrades),
		m.followInstrument())
}

// onLadderTrade opens the order form from the ladder: the instrument, side and price (a limit
// order), and the instrument's default size when one is configured, the cursor on the submit
// button so Enter sends it (reviewed first when the policy asks); without one, the cursor waits in
// the size.
func (m *Model) onLadderTrade(msg ladder.TradeMsg) tea.Cmd {
	cmd := m.onInstrument(common.InstrumentMsg{Symbol: msg.Symbol, Side: msg.Side, Focus: true})
	m.form.SetOrderType("limit")
	m.form.SetValue(orderentry.FieldPrice, msg.Price.String())
	if size := m.sizes[strings.ToUpper(msg.Symbol)]; size != "" {
		m.form.SetValue(orderentry.FieldSize, size)
		m.form.Focus(orderentry.FieldSubmit)
	} else {
		m.form.Focus(orderentry.FieldSize)
	}
	return cmd
}

// onNotice shows a pane's notice; a keyed one (an order's fills) replaces its earlier line.
func (m *Model) onNotice(n common.NoticeMsg) {
	if n.Key != "" {
		m.notice, m.noticeLevel = m.msgs.OrderLine(n.Level, n.Key, "", n.Text, ""), n.Level
		m.refreshMessages()
		return
	}
	m.setNotice(n.Level, n.Text)
}

// clearFixedRefusal clears the form's refusal ("order not sent: ...") from the status line once
// the trader has fixed the form: it no longer says anything true. The messages view keeps it.
func (m *Model) clearFixedRefusal() {
	if m.noticeLevel == common.LevelError && strings.HasPrefix(m.notice, orderentry.NotSent) && m.form.Valid() {
		m.notice, m.noticeLevel = "", common.LevelInfo
	}
}

// setNotice shows a notice in the status line. Notices quote server text (rejections, cloids
// of orders found), so they are cleaned here, once, not when the status line is drawn.
func (m *Model) setNotice(level common.NoticeLevel, msg string) {
	m.notice, m.noticeLevel, m.dirty = text.Clean(msg), level, true
	m.msgs.Add(level, msg)
	m.refreshMessages()
}

func (m *Model) countMsg() {
	m.msgCount++
	if now := time.Now(); now.Sub(m.rateAt) >= time.Second {
		m.msgRate, m.msgCount, m.rateAt = m.msgCount, 0, now
	}
}

// broadcast sends a message to every pane.
func (m *Model) broadcast(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for _, s := range m.slots {
		if cmd := s.pane.Update(msg); cmd != nil {
			cmds = append(cmds, cmd)
		}
	}
	return tea.Batch(cmds...)
}

func (m *Model) setFocus(i int) {
	m.focus = i
	for j, s := range m.slots {
		s.pane.SetFocused(j == i)
	}
	m.footerDirty = true
	if !m.narrow && m.slots[i].hidden {
		m.layout() // a hidden pane takes the place of another
	}
}

// showPane focuses the slot that holds p, directly or inside a group (which then shows it).
func (m *Model) showPane(p common.Pane) {
	for i, s := range m.slots {
		if s.pane == p {
			m.setFocus(i)
		} else if g, ok := s.pane.(*common.Group); ok && g.Show(p) {
			m.setFocus(i)
		}
	}
}

func (m *Model) focusPane(p common.Pane) {
	for i, s := range m.slots {
		if s.pane == p {
			m.setFocus(i)
			return
		}
	}
}

// renderMessages draws the messages view at the screen's size.
func (m *Model) renderMessages() { m.messagesView = m.msgs.Render(m.st, m.keys, m.width, m.height-3) }

// refreshMessages redraws the messages view when it is open (a message was added).
func (m *Model) refreshMessages() {
	if m.msgs.Shown() {
		m.renderMessages()
	}
}

// openLeverage opens the leverage dialog on a perpetual (positions pane: L; order form: ctrl+l),
// or says why it cannot.
func (m *Model) openLeverage(symbol string) tea.Cmd {
	if m.confirmation() != nil {
		return nil
	}
	if why := leverage.Refusal(m.store, m.c.ReadOnly, m.ex.IsAgent(), symbol); why != "" {
		m.setNotice(common.LevelWarn, why)
		return nil
	}
	common.PushSole(&m.modals, &leverage.Modal{D: leverage.New(m.st, m.keys, m.store, symbol, m.width)})
	m.footerDirty = true
	return nil
}

// onLeverageDone closes the dialog and sends the change through the pipeline.
func (m *Model) onLeverageDone(msg leverage.DoneMsg) tea.Cmd {
	if md, ok := common.Find[*leverage.Modal](&m.modals); ok {
		m.modals.Pop(md)
	}
	m.footerDirty = true
	if msg.Act == nil {
		return nil
	}
	return m.onAction(msg.Act)
}
