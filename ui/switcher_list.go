package ui

import (
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/session"
	"github.com/tradedesk/tradedesk/ui/common"
)

// listView is the profile list: each profile with its mode and equity (… until it arrives),
// the active one marked, and the combined view last.
func (s *Switcher) listView() string {
	st := s.st
	head := []string{st.Accent.On("Profiles"), ""}
	var body []string
	for i, name := range s.set.Names() {
		m := s.models[name]
		mark := "  "
		if name == s.set.Active() {
			mark = "• "
		}
		equity := "…"
		if m.store.Freshness(state.KindAccount).Loaded() {
			equity = common.FmtNum(m.store.Account().TotalAccountEquity, 2) + " USD"
		}
		line := mark + common.Pad(session.Label(name), 12) + " " + common.Pad(m.status.mode.String(), 9) + " " + common.Fit(equity, 16, true)
		if m.dialog != nil {
			line += st.Warn.On("  dialog open")
		}
		body = append(body, s.row(i, line))
	}
	body = append(body, s.row(len(s.set.Names()), "  "+common.Pad("combined", 12)+" "+common.Pad("read-only", 9)),
		s.row(len(s.set.Names())+1, "  "+common.Pad("vaults", 12)+" of "+session.Label(s.set.Active())))
	foot := []string{"", st.Bold.On(common.KeyName(s.keys.Pick)) + " switch · " + st.Bold.On(common.KeyName(s.keys.Dismiss)) + " close"}
	scroll := 0
	return common.Box(st, s.keys, head, body, foot, min(s.width-4, 64), s.height-3, &scroll)
}

// row is a list row, highlighted under the cursor.
func (s *Switcher) row(i int, line string) string {
	if i == s.cursor {
		return s.st.Selected.On(line)
	}
	return line
}
