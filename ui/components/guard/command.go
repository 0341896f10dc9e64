package guard

import (
	"context"
	"fmt"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api/text"
	daemon "github.com/tradedesk/tradedesk/state/guard"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// command is `:guard arm|disarm|detach`.
func (l *Link) command(c cmdline.GuardMsg) tea.Cmd {
	s := l.session
	if s == nil {
		return common.Notice(common.LevelWarn, "no guard attached: start one with tradedesk guard (the README's guard section)")
	}
	if c.Verb == "detach" {
		l.Detach()
		l.lost = "detached"
		return common.Notice(common.LevelInfo, "guard detached: it goes on running; new algorithms run in the console")
	}
	req := daemon.Request{Cmd: daemon.CmdArm, After: c.After.Seconds(), Flatten: c.Flatten}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := s.Do(ctx, req); err != nil {
			return common.NoticeMsg{Level: common.LevelError, Text: "guard: " + text.Clean(err.Error())}
		}
		if c.Verb == "disarm" {
			return common.NoticeMsg{Level: common.LevelInfo, Text: "guard: dead-man's switch disarmed"}
		}
		return common.NoticeMsg{Level: common.LevelInfo, Text: "guard: dead-man's switch armed for " + c.After.String() + map[bool]string{true: ", flattening"}[c.Flatten] +
			"; this console's heartbeats keep it from firing"}
	}
}

// show shows the guard's algorithms and alerts.
func (l *Link) show(st daemon.Status) {
	l.shows.Algos.ReportRemote(st.Algorithms)
	fired, watched := map[string]time.Time{}, map[string]bool{}
	for _, a := range st.Alerts {
		if a.LastFired != nil {
			fired[a.ID] = *a.LastFired
		}
		watched[a.ID] = a.Watched
	}
	l.shows.Alerts.FromGuard(true, watched, fired)
}

// Detach ends the session: the guard goes on; the console runs new algorithms and its alerts
// itself again.
func (l *Link) Detach() {
	if l.session == nil {
		return
	}
	l.session.Detach()
	l.session = nil
	l.shows.Algos.Attach(nil)
	l.shows.Alerts.FromGuard(false, nil, nil)
}

// Banner is the status line's word on the guard: attached (with its dead-man's time left),
// lost, or running for another account ("": no guard).
func (l *Link) Banner() string {
	switch {
	case l.session != nil:
		st, _ := l.session.Last()
		s := "attached"
		if d := st.DeadMan; d.Fired != nil {
			s += " · dead-man fired"
		} else if d.Armed {
			s += fmt.Sprintf(" · dead-man %ds left", int(d.Left+0.5))
		}
		return s
	case l.lost != "":
		return l.lost
	case l.other != "":
		return "runs for another account (" + common.ShortAddr(l.other) + ")"
	}
	return ""
}
