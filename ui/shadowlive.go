package ui

import (
	"context"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/algos"
	"github.com/tradedesk/tradedesk/ui/components/orders"
)

// LiveRoute is the live session of a shadow console: an executor on the live exchange, signing
// with the trader's key, on the live network's journal (never the shadow's). The send_live key
// sends a rehearsed paper order's parameters through it, never its client id or journal entry.
type LiveRoute struct {
	// Exec is the live executor (nil: no key was given, Missing says what to set).
	Exec *exec.Executor
	// Ex is the live exchange, signing with the same key: the live session's algorithms read
	// its market and account (nil: its algorithms cannot be started).
	Ex api.Exchange
	// Network is the live network ("mainnet"), named in the confirmation's title.
	Network string
	// Missing says how to give the console a live session when Exec is nil.
	Missing string
}

// liveTitle starts the title of every order the send_live key confirms: the dialog says LIVE,
// and the shadow badge is not added to it (openConfirm).
const liveTitle = "Send LIVE"

// isLive reports whether a is an order for the live session of a shadow console.
func isLive(a *action.Action) bool { return strings.HasPrefix(a.Title, liveTitle) }

// sendLiveKey is the send_live key on the open orders pane of a shadow console: the selected
// paper order, checked again as a new order with a fresh client id, through the live console's
// confirmation with a typed yes, sent by the live executor. Elsewhere it is not taken.
func (m *Model) sendLiveKey(pane common.Pane, msg tea.KeyMsg) (tea.Cmd, bool) {
	if m.status.mode != ModeShadow || !key.Matches(msg, m.keys.SendLive) {
		return nil, false
	}
	if g, ok := pane.(*common.Group); ok {
		pane = g.Active() // the Algos view is a page of the Activity group
	}
	if ap, onAlgos := pane.(*algos.Pane); onAlgos {
		return m.sendLiveAlgo(ap), true
	}
	op, onOrders := pane.(*orders.Pane)
	if !onOrders {
		return nil, false
	}
	o, ok := op.Selected()
	switch {
	case !ok:
		m.setNotice(common.LevelWarn, "select a paper order to send it live")
	case m.live.Exec == nil:
		m.setNotice(common.LevelWarn, m.liveMissing())
	default:
		a, why := m.liveOrder(o)
		if a == nil {
			m.setNotice(common.LevelError, "not sent live: "+why)
			return nil, true
		}
		return m.onAction(a), true
	}
	return nil, true
}

// liveMissing is the notice of a send_live key on a shadow console with no live session.
func (m *Model) liveMissing() string {
	why := m.live.Missing
	if why == "" {
		why = "start tradedesk --shadow with --keystore FILE (or --agent-keystore FILE) to hold a live session beside the paper one"
	}
	return "not sent live: no live key; " + why
}

// liveOrder is the live action of a paper order o: its instrument, side, type, price, size,
// time in force and flags as a new intent (a fresh client id), checked with the live executor's
// guard on the mirrored market, confirmed with a typed yes, run by the live executor.
func (m *Model) liveOrder(o api.OrderRecord) (*action.Action, string) {
	in := state.OrderIntent{Instrument: o.Instrument, Side: o.Side, Type: state.Limit, Price: o.LimitPrice.String(),
		Size: o.Size.String(), Tif: o.Tif, ReduceOnly: o.ReduceOnly, PostOnly: o.PostOnly}
	switch {
	case o.TriggerPx.Valid && o.TriggerPx.Decimal.IsPositive():
		in.Type, in.TriggerPx, in.Tpsl = state.Trigger, o.TriggerPx.Decimal.String(), o.Tpsl
		if o.IsMarket {
			in.Price = ""
		}
	case o.IsMarket:
		in.Type, in.Price = state.Market, ""
	}
	live := m.live.Exec
	co, errs := m.store.CheckOrder(in, live.Guard())
	if len(errs) > 0 {
		return nil, errs[0].Error()
	}
	a := action.NewOrder(action.KindPlace, co, m.st)
	a.What = "LIVE " + a.What
	a.Confirm, a.Typed, a.Recheck = true, "yes", nil
	net := strings.ToUpper(m.live.Network)
	a.Title = liveTitle + " · " + a.Title + " · LIVE " + net
	a.Lines = append([]string{m.st.Bold.On(strings.ToUpper(a.What)), m.st.Warn.On("! sent to " + net + " with your live key, in the live journal")},
		a.Lines[1:]...)
	a.Lines = append(a.Lines, m.st.Warn.On("! margin rows are the paper account's: the live exchange checks its own"))
	run := a.Run
	a.Run = func(ctx context.Context, _ *exec.Executor, ask exec.Ask) (action.Outcome, error) {
		return run(ctx, live, ask) // never the shadow's executor: its journal and key are paper
	}
	return a, ""
}
