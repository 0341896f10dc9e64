package alerts

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/alert"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// Open shows the Alerts view.
func (m *Model) Open() { m.open, m.cur = true, 0 }

// Active reports whether the Alerts view is shown (it takes the keys).
func (m *Model) Active() bool { return m.open }

// Key handles a key while the view is shown: move, delete (the cancel key), edit (the amend key:
// the definition goes and the command line opens on it), close (dismiss).
func (m *Model) Key(msg tea.KeyMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Dismiss, k.Quit):
		m.open = false
	case key.Matches(msg, k.Up):
		m.cur = max(m.cur-1, 0)
	case key.Matches(msg, k.Down):
		m.cur = min(m.cur+1, max(len(m.defs)-1, 0))
	case key.Matches(msg, k.Cancel):
		if d, ok := m.selected(); ok {
			if err := m.remove(d.ID); err != nil {
				return common.Notice(common.LevelError, "alert not removed: "+text.Clean(err.Error()))
			}
			m.cur = min(m.cur, max(len(m.defs)-1, 0))
			return common.Notice(common.LevelInfo, "alert "+d.ID+" removed")
		}
	case key.Matches(msg, k.Amend):
		if d, ok := m.selected(); ok {
			if err := m.remove(d.ID); err != nil {
				return common.Notice(common.LevelError, "alert not edited: "+text.Clean(err.Error()))
			}
			m.open = false
			return cmdline.Prefill("alert " + d.Canon())
		}
	}
	return nil
}

func (m *Model) selected() (alert.Stored, bool) {
	if m.cur < 0 || m.cur >= len(m.defs) {
		return alert.Stored{}, false
	}
	return m.defs[m.cur], true
}

// View draws the Alerts view in at most w x h cells.
func (m *Model) View(w, h int) string {
	status := map[string]alert.Status{}
	for _, s := range m.Rules() {
		status[s.ID] = s
	}
	head := []string{m.st.Bold.On("ALERTS"), ""}
	var body []string
	if len(m.defs) == 0 {
		body = append(body, m.st.Muted.On("no alerts: type :alert btc > 100000, or A on a ticker or a position"))
	}
	for i, d := range m.defs {
		line := fmt.Sprintf("%-13s %-34s %-8s %s", d.ID, text.Clean(d.Canon()), m.state(status[d.ID]), m.last(d))
		if i == m.cur {
			line = m.st.Selected.On(line)
		}
		body = append(body, line)
	}
	k := m.keys
	foot := []string{"", m.st.Muted.On(fmt.Sprintf("%s/%s move · %s delete · %s edit · %s close",
		common.KeyName(k.Up), common.KeyName(k.Down), common.KeyName(k.Cancel), common.KeyName(k.Amend), common.KeyName(k.Dismiss)))}
	scroll := max(m.cur-h/2, 0)
	return common.Box(m.st, m.keys, head, body, foot, w, h, &scroll)
}

func (m *Model) state(s alert.Status) string {
	switch {
	case s.Done:
		return "done"
	case s.Cooling:
		return "cooling"
	case s.Armed:
		return "armed"
	}
	return "waiting"
}

func (m *Model) last(d alert.Stored) string {
	at := d.Def.LastFired
	if t, ok := m.fired[d.ID]; ok {
		at = t
	}
	if at.IsZero() {
		return "never fired"
	}
	return "fired " + at.Local().Format("01-02 15:04:05")
}
