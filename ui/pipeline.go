package ui

import (
	"context"
	"log/slog"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/kit"
)

// The signed-action pipeline. Every action that signs and sends (an order, a close, a cancel, the
// kill switch, a transfer or a withdrawal; next leverage, agents, broker approvals and the command
// line) takes one route:
//
//	pane: requestAction(a)
//	  -> Model.onAction   read-only refusal; the lane guard (one order, one money movement out)
//	  -> confirmDialog    when a.confirm: Enter (or a typed word) confirms once, Esc drops it
//	  -> Model.execute    the lane is taken, the action counts as out (the quit guard), logged
//	  -> send             a.run signs and sends it once against api.Trader
//	  -> onActionDone     a.followUp when the answer needs finding out (a lost order is looked up
//	                      by cloid, a failed cancel is checked against the open orders)
//	  -> settle           a.read's words in the status line and the log; the lane is freed; the
//	                      kinds in a.refresh are polled at once; actionSettledMsg to every pane.
//
// To add a signed action (leverage, an agent, a broker approval, a command-line action): write one
// constructor that returns *action beside the pane or dialog that asks for it (see orderAction,
// cancelAction, transferAction): what, its confirmation, its lane, run, read, refresh, and a
// followUp when a lost answer can be found out. The pane returns requestAction(a). Nothing else
// changes: refusal, guards, confirmation, logging, lost answers and the refresh live here.

// lane is what an action may not overlap with: one order at a time (the order form is locked
// while it is out), one money movement at a time. Cancels take no lane: they are safe to repeat
// and must work while an order is out.
type lane int

const (
	laneNone lane = iota
	laneOrder
	laneFunds
	laneCount
)

// busyText is the refusal when an action's lane is taken.
var busyText = [laneCount]string{
	laneOrder: "an order is in flight: wait for its result before sending another",
	laneFunds: "a movement of collateral is in flight: wait for its result before sending another",
}

// pipeline is the root model's bookkeeping of actions out.
type pipeline struct {
	out  [laneCount]bool
	open int // actions sent whose outcome is not settled (their follow-up included)
}

// busy reports whether an action of lane l is out.
func (p *pipeline) busy(l lane) bool { return l != laneNone && p.out[l] }

// actionMsg carries a pane's request for an action to the root model.
type actionMsg struct{ act *action }

func requestAction(a *action) tea.Cmd { return func() tea.Msg { return actionMsg{act: a} } }

// actionDoneMsg is the answer to a sent action.
type actionDoneMsg struct {
	act     *action
	resp    api.TxResponse
	err     error
	latency time.Duration
}

// followUpMsg is the end of an action's follow-up: what it found, in words.
type followUpMsg interface {
	settled() (act *action, text string, level kit.NoticeLevel)
}

// actionSentMsg tells every pane that an action was confirmed and is being sent.
type actionSentMsg struct{ act *action }

// actionSettledMsg tells every pane how an action ended (the pane that asked for it shows it).
type actionSettledMsg struct {
	act    *action
	text   string
	failed bool
}

// onAction checks a pane's request (read-only, its lane) and confirms or sends it.
func (m *Model) onAction(a *action) tea.Cmd {
	if m.c.ReadOnly != "" {
		m.setNotice(kit.LevelWarn, "read-only: "+a.what+" not sent ("+m.c.ReadOnly+")")
		return nil
	}
	if m.pipe.busy(a.lane) {
		m.setNotice(kit.LevelWarn, busyText[a.lane])
		return nil
	}
	if a.confirm {
		m.dialog = newConfirmDialog(m.st, m.keys, a, m.width)
		return nil
	}
	return m.execute(a)
}

// execute sends a confirmed action once.
func (m *Model) execute(a *action) tea.Cmd {
	if m.pipe.busy(a.lane) {
		return nil
	}
	m.pipe.out[a.lane] = a.lane != laneNone
	m.pipe.open++
	m.setNotice(kit.LevelInfo, "sending: "+a.what+"…")
	slog.Info("action sent", "what", a.what)
	return tea.Batch(send(m.ex, a, m.iv.Timeout), m.broadcast(actionSentMsg{act: a}))
}

// send runs the action against the exchange with its own timeout; it returns one actionDoneMsg.
func send(ex api.Exchange, a *action, timeout time.Duration) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		start := time.Now()
		resp, err := a.run(ctx, ex)
		return actionDoneMsg{act: a, resp: resp, err: err, latency: time.Since(start)}
	}
}

// onActionDone settles the action, or starts its follow-up when the answer needs finding out.
func (m *Model) onActionDone(d actionDoneMsg) tea.Cmd {
	m.latency = d.latency
	if d.act.followUp != nil {
		if cmd, waiting := d.act.followUp(m.ex, d, m.iv.Timeout); cmd != nil {
			m.setNotice(kit.LevelWarn, waiting)
			slog.Warn("action answer needs a follow-up", "what", d.act.what, "err", d.err)
			return cmd
		}
	}
	text, failed := d.act.read(d)
	level := kit.LevelInfo
	if failed {
		level = kit.LevelError
	}
	return m.settle(d.act, text, level)
}

// onFollowUp settles an action with what its follow-up found.
func (m *Model) onFollowUp(msg followUpMsg) tea.Cmd {
	return m.settle(msg.settled())
}

// settle ends an action: its words, the log, the lane freed, a refresh of what it changed.
func (m *Model) settle(a *action, text string, level kit.NoticeLevel) tea.Cmd {
	m.pipe.out[a.lane] = false
	m.pipe.open--
	m.setNotice(level, text)
	if level == kit.LevelInfo {
		slog.Info("action done", "result", text)
	} else {
		slog.Warn("action failed", "result", text)
	}
	done := actionSettledMsg{act: a, text: text, failed: level == kit.LevelError}
	return tea.Batch(m.broadcast(done), m.refreshNow(a.refresh...))
}

// tradeKinds are the kinds an order or a cancel changes.
var tradeKinds = []state.Kind{state.KindOrders, state.KindPositions, state.KindAccount}
