package ui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/algos"
	"github.com/tradedesk/tradedesk/ui/components/live"
	"github.com/tradedesk/tradedesk/ui/components/orders"
)

// LiveRoute is the live session of a shadow console (live.Route): main fills it in
// Config.Live.
type LiveRoute = live.Route

// sendLiveKey is the send_live key on the open orders pane of a shadow console: the selected
// paper order, checked again as a new order with a fresh client id, through the live console's
// confirmation with a typed yes, sent by the live executor (live.Route.Order); on the Algos view
// the selected paper algorithm (sendLiveAlgo). Elsewhere it is not taken.
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
		m.setNotice(common.LevelWarn, m.live.NoKey())
	default:
		a, why := m.live.Order(o, m.store, m.st)
		if a == nil {
			m.setNotice(common.LevelError, "not sent live: "+why)
			return nil, true
		}
		return m.onAction(a), true
	}
	return nil, true
}
