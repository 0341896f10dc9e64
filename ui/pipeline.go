package ui

import (
	"log/slog"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/algos"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
	"github.com/tradedesk/tradedesk/ui/components/live"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
	"github.com/tradedesk/tradedesk/ui/dialogs/confirm"
)

// The signed-action pipeline. Every action that signs and sends (an order, a close, a bracket, an
// amend, a cancel, the kill switch, a transfer or a withdrawal, a leverage change, a broker
// approval; from a pane, a dialog or the command line) takes one route:
//
//	pane: action.Request(a)
//	  -> Model.onAction   read-only and agent refusals; the lane guard (one order, one money movement out)
//	  -> confirm.Dialog   when a.Confirm: Enter (or a typed word) confirms once, Esc drops it
//	  -> Model.execute    the lane is taken, the action counts as out (the quit guard), logged
//	  -> action.Send      a.Run calls the executor (state/exec): its gate, the journal committed
//	                      before signing, the send, a lost answer resolved by client id until the
//	                      request expires, fills settled; a transfer, a withdrawal, leverage or a
//	                      broker approval is a.Direct's one signed call, sent by the executor's Do
//	  -> onActionDone     the words read from the exec.Result (action.Words) or a.Read; the lane
//	                      is freed; the kinds in a.Refresh are polled at once; action.SettledMsg
//	                      to every pane.
//
// The executor is opened once per console (Config.Exec) and its Recover runs at Init, before
// anything is sent (the executor also refuses to send while an earlier intent is unresolved).
//
// To add a signed action: write one constructor that returns *action.Action beside the pane or
// dialog that asks for it (see action.NewOrder, action.NewCancel, transfer.NewAction): What, its
// confirmation, its Lane, Run (an executor call) or Direct and DoKind (a call Do journals),
// Refresh. The pane returns action.Request(a).
// Nothing else changes: refusal, guards, confirmation, the journal, lost answers and the refresh
// live here and in the executor.
//
// pipeline is the root model's bookkeeping of actions out.
type pipeline struct {
	out  [action.LaneCount]bool
	open int // actions sent whose outcome is not settled (their follow-up included)
}

// busy reports whether an action of lane l is out.
func (p *pipeline) busy(l action.Lane) bool { return l != action.LaneNone && p.out[l] }

// onAction checks a pane's request (read-only, its lane) and confirms or sends it.
func (m *Model) onAction(a *action.Action) tea.Cmd {
	if m.c.ReadOnly != "" {
		m.setNotice(common.LevelWarn, "read-only: "+a.What+" not sent ("+m.c.ReadOnly+")")
		return nil
	}
	if m.ex.IsAgent() && !a.AgentMay() {
		// Before its confirmation: the trader is not asked to confirm what cannot be signed.
		m.setNotice(common.LevelWarn, a.What+" not sent: it needs the account's own key; an agent key only places and cancels orders")
		return nil
	}
	if m.pipe.busy(a.Lane) {
		m.setNotice(common.LevelWarn, action.BusyText[a.Lane])
		return nil
	}
	if m.noticeLevel == common.LevelError || m.noticeLevel == common.LevelWarn {
		// An old failure or warning ("order not sent: ...", "select a resting limit order to
		// change") is not this action's: it would sit beside the new action's confirmation. The
		// messages view keeps it.
		m.notice = ""
	}
	if a.Confirm {
		m.openConfirm(a, "")
		return nil
	}
	return m.execute(a, false)
}

// openConfirm opens the confirmation of a, saying why when it is asked again (note).
func (m *Model) openConfirm(a *action.Action, note string) {
	if w := m.status.modeWord(); m.status.mode == ModeShadow && !strings.HasSuffix(a.Title, w) && !live.IsLive(a) {
		a.Title += " · " + w // a paper order says so where it is confirmed, not only in the top bar
	}
	if own := " · profile " + m.status.profile; m.status.profile != "" && !strings.Contains(a.Title, own) {
		named := *a // the dialog belongs to this profile, and says so (issue #42)
		named.Title += own
		a = &named
	}
	d := confirm.New(m.st, m.keys, a, m.width)
	common.PushSole(&m.modals, &confirm.Modal{D: d})
	d.At = m.clock()
	d.SetSize(m.width, m.height-3)
	if note != "" {
		d.Again(note)
	}
	m.footerDirty = true
}

// confirmed sends a confirmed action after its second check (action.CheckAgain): as confirmed
// when nothing moved, asked again with the refreshed figures when something did or the dialog
// was open too long, refused when it no longer passes.
func (m *Model) confirmed(a *action.Action, opened time.Time) tea.Cmd {
	again := action.CheckAgain(a, opened, m.clock())
	switch {
	case again.Refused != "":
		m.setNotice(common.LevelError, again.Refused)
		slog.Info("action refused on its second check", "what", a.What)
		return nil
	case again.Fresh != nil:
		m.openConfirm(again.Fresh, again.Why)
		slog.Info("action asked again", "what", a.What, "why", again.Why)
		return nil
	}
	return m.execute(a, a.Typed != "") // the dialog took the typed word
}

// execute sends a confirmed action once; typed says the trader typed its confirmation word.
func (m *Model) execute(a *action.Action, typed bool) tea.Cmd {
	if m.pipe.busy(a.Lane) {
		return nil
	}
	m.pipe.out[a.Lane] = a.Lane != action.LaneNone
	m.pipe.open++
	m.setNotice(common.LevelInfo, "sending: "+a.What+"…")
	slog.Info("action sent", "what", a.What)
	who := a.Who
	if who == "" {
		who = journal.WhoForm
	}
	ask := exec.Ask{Who: who, What: a.What, Confirmed: typed, Keystroke: m.lat.Sent(a), Clock: m.clock}
	var e action.Executor // nil without an executor: a nil *exec.Executor would not be a nil action.Executor
	if m.exec != nil {
		e = m.exec
	}
	return tea.Batch(action.Send(m.ex, e, a, ask), m.broadcast(action.SentMsg{Act: a}))
}

// onActionDone settles the action with what the executor found (action.Words), or, for one
// sent directly, its answer's words (a.Read).
func (m *Model) onActionDone(d action.DoneMsg) tea.Cmd {
	m.feed.NoteLatency(d.Latency)
	m.lat.Answered(d)
	if d.Act.Run == nil || d.Act.Read != nil { // sent directly, or read its own way (an algorithm's start)
		text, failed := d.Act.Read(d)
		level := common.LevelInfo
		if failed {
			level = common.LevelError
		}
		for _, l := range d.Out.Lines { // a batch's one line per order, before their sum
			m.msgs.Add(level, l)
		}
		return m.settle(d.Act, text, level)
	}
	text, level := action.Words(d)
	if key, tail, ok := action.FilledOrder(d); ok {
		// An order that filled shares one line with its fills' total (the fills pane's notices
		// of the same key), so one order is reported once, not per fill.
		m.notice, m.noticeLevel = m.msgs.OrderLine(level, key, text, "", tail), level
		m.refreshMessages()
		return m.finish(d.Act, text, level)
	}
	return m.settle(d.Act, text, level)
}

// settle ends an action: its words, the log, the lane freed, a refresh of what it changed.
func (m *Model) settle(a *action.Action, text string, level common.NoticeLevel) tea.Cmd {
	m.setNotice(level, text)
	return m.finish(a, text, level)
}

// finish frees the action's lane, logs its end, tells the panes and refreshes what it changed.
func (m *Model) finish(a *action.Action, text string, level common.NoticeLevel) tea.Cmd {
	m.pipe.out[a.Lane] = false
	m.pipe.open--
	if level == common.LevelInfo {
		slog.Info("action done", "result", text)
	} else {
		slog.Warn("action failed", "result", text)
	}
	done := action.SettledMsg{Act: a, Text: text, Failed: level == common.LevelError}
	return tea.Batch(m.broadcast(done), m.refreshNow(a.Refresh...), m.readRisk())
}

// LiveRoute is the live session of a shadow console (live.Route): main fills it in
// Config.Live.
type LiveRoute = live.Route

// onAlgoMsg routes the algorithms' messages: an algorithm command (its preview, or a choice on
// one), the Algos view's progress and journal reads (to every pane), and a paper algorithm read
// for the send_live key.
func (m *Model) onAlgoMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case cmdline.AlgoMsg:
		return m.startAlgo(msg.Cmd), true
	case orderentry.AlgoMsg:
		return m.startAlgo(msg.Cmd), true
	case algos.ChoiceMsg:
		return m.algos.Choose(m.liveAlgos, msg, m.c.ReadOnly, m.st, m.algoPane.Watch), true
	case algos.ProgressMsg:
		return tea.Batch(m.broadcast(msg), algos.Failed(msg.Row)), true
	case algos.HistoryMsg, algos.LeftMsg:
		return m.broadcast(msg), true
	case live.AlgoMsg:
		return m.sendLive(m.liveSender().Read(msg)), true
	}
	return nil, false
}

// startAlgo previews an algorithm command through the confirmation (algos.Runner.Preview), or
// applies `:algos CHOICE ID` (algos.Runner.Choose).
func (m *Model) startAlgo(c state.AlgoCommand) tea.Cmd {
	if c.Kind == "algos" {
		return m.algos.Choose(m.liveAlgos, algos.ChoiceMsg{ID: c.ID, Choice: c.Choice}, m.c.ReadOnly, m.st, m.algoPane.Watch)
	}
	return m.algos.Preview(c, m.store, m.st)
}

// stopAlgo is the Algos view's stop key: it goes to the runner that runs the algorithm.
func (m *Model) stopAlgo(id string, live bool) {
	algos.RunnerOf(m.algos, m.liveAlgos, id).Stop(id, live)
}

// liveSender is what the send_live key reads (live.Sender).
func (m *Model) liveSender() live.Sender {
	return live.Sender{Route: m.live, Store: m.store, Styles: m.st, Session: m.liveAlgos, Shadow: m.algos.Journal(), Watch: m.algoPane.Watch}
}

// sendLive shows why nothing is sent live, or asks to confirm the live action, beside its
// command.
func (m *Model) sendLive(s live.Send) tea.Cmd {
	if s.Notice != "" {
		m.setNotice(s.Level, s.Notice)
		return nil
	}
	if s.Act == nil {
		return s.Cmd
	}
	return tea.Batch(m.onAction(s.Act), s.Cmd)
}
