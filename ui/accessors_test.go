package ui

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/tradedesk/tradedesk/state/profile"
	"github.com/tradedesk/tradedesk/ui/components/help"

	rules "github.com/tradedesk/tradedesk/state/risk"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/messages"
	riskline "github.com/tradedesk/tradedesk/ui/components/risk"
)

// The tests read the root's state through these, not its fields, so a field that moves (into
// the modal stack, into the status bar's values) changes one line here, not every test. The open
// dialogs are read through the root's own finders (Model.confirmation, Model.leverageDialog,
// Model.openSheet), which look them up on the modal stack.

// shownNotice is the status line's notice now.
func (m *Model) shownNotice() string { return m.notice }

// shownLevel is the level of the status line's notice.
func (m *Model) shownLevel() common.NoticeLevel { return m.noticeLevel }

// setShownNotice puts text on the status line as the notice, as the root does with an order's
// merged line.
func (m *Model) setShownNotice(text string) { m.notice, m.dirty = text, true }

// orderOutcomeLine records an order's outcome in the messages view on the line it shares with
// its fills' total (messages.Log.OrderLine, as the pipeline does with a filled order's result)
// and returns that line.
func (m *Model) orderOutcomeLine(level common.NoticeLevel, key, outcome, tail string) string {
	return m.msgs.OrderLine(level, key, outcome, "", tail)
}

// message renders the status bar's message line for the model's current state.
func (s *statusBar) message(m *Model, width int) string {
	return s.model().Message(s.values(m, width), width)
}

// paneHelp is the focused pane's groups of keys as the help overlay shows them.
func (m *Model) paneHelp() [][]key.Binding { return help.Groups(m.slots[m.focus].pane.FullHelp()) }

// DefaultIntervals is the cadence of the design (profile.DefaultIntervals).
func DefaultIntervals() Intervals { return profile.DefaultIntervals() }

// messageEntries are the messages view's lines, oldest first.
func (m *Model) messageEntries() []messages.Entry { return m.msgs.Entries() }

// clearNotice empties the status line's notice (a test's next step then reads its own).
func (m *Model) clearNotice() { m.notice, m.dirty = "", true }

// helpOpen reports whether the help overlay is open.
func (m *Model) helpOpen() bool { return m.helpBox.Shown() }

// messagesOpen reports whether the messages view is open.
func (m *Model) messagesOpen() bool { return m.msgs.Shown() }

// riskKeptBack is when a change within riskline.Every of the last read is read, if none reads it
// first.
const riskKeptBack = riskline.KeptBack

// riskAccount is the account the risk engine observes (nil until it has loaded).
func (m *Model) riskAccount() *rules.Account { return riskline.AccountOf(m.store) }

// forgetRiskRead makes the next read of the trading state due at once, as risk.Every later.
func (m *Model) forgetRiskRead() { m.status.risk.Mark(time.Time{}) }
