package alerts

import (
	"fmt"
	"slices"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/alert"
	"github.com/tradedesk/tradedesk/ui/common"
)

// Open shows the Alerts view.
func (m *Model) Open() { m.open, m.cur, m.editing = true, 0, "" }

// Close closes the view (Ctrl+C); a row being edited keeps its old rule.
func (m *Model) Close() { m.open, m.editing, m.editErr = false, "", "" }

// Active reports whether the Alerts view is shown (it takes the keys).
func (m *Model) Active() bool { return m.open }

// Key handles a key while the view is shown: move, delete (the cancel key), edit (the amend key:
// the row becomes a line to edit; entered, the edited rule replaces the old one; dismissed, the
// old one stays), close (dismiss).
func (m *Model) Key(msg tea.KeyMsg) tea.Cmd {
	if m.editing != "" {
		return m.editKey(msg)
	}
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
			m.editing, m.editErr = d.ID, ""
			m.edit = common.NewField("btc > 100000", 200)
			m.edit.SetValue(d.Canon())
			m.edit.CursorEnd()
			m.edit.Focus()
		}
	}
	return nil
}

// editKey handles a key while a row is edited: enter replaces the rule (a rule that does not
// parse says why and stays open), dismiss keeps the old one, the rest edit the line.
func (m *Model) editKey(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.Dismiss):
		m.editing, m.editErr = "", ""
		return nil
	case key.Matches(msg, m.keys.TextSubmit):
		old := m.editing
		r, err := alert.Parse(m.edit.Value())
		if err == nil && r.ID != old {
			if err = m.save(r); err == nil {
				err = m.remove(old)
			}
		}
		if err != nil {
			m.editErr = text.Clean(text.HideKeys(err.Error()))
			return nil
		}
		m.editing, m.editErr = "", ""
		if i := slices.IndexFunc(m.defs, func(s alert.Stored) bool { return s.ID == r.ID }); i >= 0 {
			m.cur = i
		}
		return common.Notice(common.LevelInfo, "alert "+old+" is now "+r.ID+": "+text.Clean(r.Canon()))
	}
	var cmd tea.Cmd
	m.edit, cmd = m.edit.Update(msg)
	m.editErr = ""
	return cmd
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
		switch {
		case d.ID == m.editing:
			line = fmt.Sprintf("%-13s %s", d.ID, m.edit.View())
		case i == m.cur:
			line = m.st.Selected.On(line)
		}
		body = append(body, line)
	}
	k := m.keys
	foot := []string{"", m.st.Muted.On(fmt.Sprintf("%s/%s move · %s delete · %s edit · %s close",
		common.KeyName(k.Up), common.KeyName(k.Down), common.KeyName(k.Cancel), common.KeyName(k.Amend), common.KeyName(k.Dismiss)))}
	if m.editing != "" {
		hint := m.st.Muted.On(fmt.Sprintf("%s sets the edited rule · %s keeps it as it was", common.KeyName(k.TextSubmit), common.KeyName(k.Dismiss)))
		if m.editErr != "" {
			hint = m.st.Danger.On("! " + m.editErr)
		}
		foot = []string{"", hint}
	}
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
