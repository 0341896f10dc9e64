package ui

import (
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/alert"
	"github.com/tradedesk/tradedesk/state/feed"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/alerts"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// AlertSettings are the config's alerts: the [[alert]] rules seeded into the journal, and the
// delivery beyond the terminal (on_alert, the webhook, the desktop notification).
type AlertSettings struct {
	Rules    []alert.Rule
	Delivery *alert.Delivery
}

// newAlerts builds the console's alerts on the executor's journal (in memory without one).
func (m *Model) newAlerts(cfg Config) {
	var j alert.Book // nil without an executor: a nil *journal.Journal would not be a nil alert.Book
	if cfg.Exec != nil {
		j = cfg.Exec.Journal()
	}
	a, err := alerts.New(alerts.Config{Store: m.store, Journal: j, Seed: cfg.Alerts.Rules, Delivery: cfg.Alerts.Delivery,
		Clock: m.clock, Bell: common.RingBell}, m.keys, m.st)
	m.alerts = a
	if err != nil {
		m.msgs.Add(common.LevelError, "alerts: "+err.Error())
	}
}

// onAlertMsg handles the command line's :alert and :alerts and the alerts' own messages.
func (m *Model) onAlertMsg(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case cmdline.AlertMsg:
		return m.alerts.Add(msg.Rule), true
	case cmdline.AlertsMsg:
		m.alerts.Open()
		m.modals.Push(m.modal.alerts)
		m.footerDirty = true
		return nil, true
	}
	if alerts.IsMsg(msg) {
		return m.alerts.Update(msg), true
	}
	return nil, false
}

// checkAlerts evaluates the alerts once the feed's result is applied to the store: the engine,
// not a pane or a timer, so the console fires what `tradedesk alerts watch` fires.
func (m *Model) checkAlerts(applied []state.Msg) tea.Cmd {
	c := m.feed.Conn()
	return m.alerts.Check(alert.Link{HasStream: c.HasStream, StreamUp: c.Stream, ExchangeUp: c.State != feed.Retrying}, applied)
}
