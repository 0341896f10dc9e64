package live

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/algos"
	"github.com/tradedesk/tradedesk/ui/components/orders"
)

// Send is what the send_live key, or a paper algorithm read for it, comes to: a live action to
// confirm, a command to run, or a notice saying why nothing is sent.
type Send struct {
	// Act is the live action to confirm (nil: none).
	Act *action.Action
	// Cmd runs beside it: the read of the shadow journal (ReadAlgo), the Algos view's wait.
	Cmd tea.Cmd
	// Level and Notice say why nothing is sent (Notice "": something is).
	Level  common.NoticeLevel
	Notice string
}

// Sender is what the send_live key reads, fed by the root: the route, the store, the styles,
// the live session's runner (Session, nil: none), the shadow journal (Shadow, nil: none) and the
// Algos view's wait on the feed (Watch, algos.Pane.Watch).
type Sender struct {
	Route   Route
	Store   *state.Store
	Styles  *common.Styles
	Session *algos.Runner
	Shadow  *journal.Journal
	Watch   func() tea.Cmd
}

// Key is the send_live key on pane (a group's active page: the Algos view is a page of the
// Activity group). On the open orders pane it sends the selected paper order again as a new
// order with a fresh client id, through the live confirmation with a typed yes (Route.Order); on
// the Algos view it reads the selected paper algorithm from the shadow journal (ReadAlgo, then
// Read). Elsewhere it is not taken (false).
func (s Sender) Key(pane common.Pane) (Send, bool) {
	if g, ok := pane.(*common.Group); ok {
		pane = g.Active()
	}
	switch p := pane.(type) {
	case *algos.Pane:
		return s.algo(p.Rows(), p.Selected()), true
	case *orders.Pane:
		o, ok := p.Selected()
		return s.order(o, ok), true
	}
	return Send{}, false
}

// order is the send_live key on paper order o (selected false: none is).
func (s Sender) order(o api.OrderRecord, selected bool) Send {
	switch {
	case !selected:
		return Send{Level: common.LevelWarn, Notice: "select a paper order to send it live"}
	case s.Route.Exec == nil:
		return Send{Level: common.LevelWarn, Notice: s.Route.NoKey()}
	}
	a, why := s.Route.Order(o, s.Store, s.Styles)
	if a == nil {
		return Send{Level: common.LevelError, Notice: "not sent live: " + why}
	}
	return Send{Act: a}
}

// algo is the send_live key on the Algos view's row i of rows (out of range: none selected): a
// paper algorithm's parameters are read from the shadow journal.
func (s Sender) algo(rows []algos.Row, i int) Send {
	if i < 0 || i >= len(rows) {
		return Send{Level: common.LevelWarn, Notice: "select a paper algorithm to send it live"}
	}
	r := rows[i]
	switch {
	case r.Session != "":
		return Send{Level: common.LevelNote, Notice: r.Kind + " " + text.Clean(r.ID) + " already runs live"}
	case s.Session == nil:
		return Send{Level: common.LevelWarn, Notice: s.Route.NoKey()}
	case s.Shadow == nil:
		return Send{Level: common.LevelWarn, Notice: "not sent live: the shadow session has no journal to read the algorithm's parameters from"}
	}
	return Send{Cmd: ReadAlgo(s.Shadow, r.ID)}
}

// Read is the live confirmation of the paper algorithm msg read (Route.AlgoAction on the live
// session's runner), beside the Algos view's wait, or why it cannot be sent live.
func (s Sender) Read(msg AlgoMsg) Send {
	a, err := s.Route.AlgoAction(msg, s.Session, s.Store, s.Styles)
	if err != nil {
		return Send{Level: common.LevelError, Notice: "not sent live: " + text.Clean(err.Error())}
	}
	return Send{Act: a, Cmd: s.Watch()}
}
