package ui

import (
	"context"
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/guard"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// guardBeat is how often an attached console sends the guard a heartbeat (and reads its status).
var guardBeat = time.Second

// guardLink is the console's side of its account's guard (state/guard.Session): found at start,
// its algorithms shown in the Algos view and new ones handed to it (algos.Runner.Attach), its
// alerts shown in the Alerts view, a heartbeat every guardBeat while the console runs. Quitting
// closes the connection; the guard goes on.
type guardLink struct {
	dir     string // the guards' socket directory ("": never attach)
	session *guard.Session
	updates chan guard.Status // the session's statuses, the latest kept
	other   string            // a guard runs for another account
	lost    string            // why the session ended
}

// guardFoundMsg is the search for the account's guard at start.
type guardFoundMsg struct {
	s     *guard.Session
	other string
	err   error
}

// guardStatusMsg is a heartbeat's answer (ok false: the session ended with err).
type guardStatusMsg struct {
	st  guard.Status
	err error
	ok  bool
}

// findGuard looks for the account's guard and attaches to it.
func (m *Model) findGuard() tea.Cmd {
	g := &m.guard
	account := m.ex.Address()
	if g.dir == "" || account == "" {
		return nil
	}
	g.updates = make(chan guard.Status, 1)
	lost := make(chan error, 1)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		mine, other, err := guard.Find(ctx, g.dir, account)
		if err != nil {
			return guardFoundMsg{err: err}
		}
		if mine.Path == "" {
			return guardFoundMsg{other: other.Account}
		}
		s, err := guard.Open(ctx, mine.Path, account, fmt.Sprintf("console pid %d", os.Getpid()), guardBeat, func(st guard.Status, err error) {
			if err != nil {
				lost <- err
				return
			}
			select { // the latest status wins
			case <-g.updates:
			default:
			}
			g.updates <- st
		})
		go func() { // the end of the session reaches the model as a last update
			err := <-lost
			select {
			case <-g.updates:
			default:
			}
			g.updates <- guard.Status{PID: -1, Account: err.Error()}
		}()
		return guardFoundMsg{s: s, err: err}
	}
}

// waitGuard is the wait on the session's next status.
func (m *Model) waitGuard() tea.Cmd {
	ch := m.guard.updates
	return func() tea.Msg {
		st := <-ch
		if st.PID == -1 {
			return guardStatusMsg{err: fmt.Errorf("%s", st.Account)}
		}
		return guardStatusMsg{st: st, ok: true}
	}
}

// onGuardMsg handles the guard's messages.
func (m *Model) onGuardMsg(msg tea.Msg) (tea.Cmd, bool) {
	g := &m.guard
	switch msg := msg.(type) {
	case guardFoundMsg:
		switch {
		case msg.err != nil:
			g.lost = "not attached: " + text.Clean(msg.err.Error())
			return common.Notice(common.LevelWarn, "guard "+g.lost), true
		case msg.s == nil:
			g.other = msg.other
			return nil, true
		}
		g.session = msg.s
		m.algos.Attach(msg.s)
		st, _ := msg.s.Last()
		m.showGuard(st)
		return tea.Batch(common.Notice(common.LevelInfo, "guard attached: algorithms start and run in the guard (pid "+fmt.Sprint(st.PID)+")"),
			m.algoPane.Watch(), m.waitGuard()), true
	case guardStatusMsg:
		if !msg.ok {
			m.detachGuard()
			g.lost = "lost: " + text.Clean(msg.err.Error())
			return common.Notice(common.LevelWarn, "guard "+g.lost+"; new algorithms run in the console"), true
		}
		m.showGuard(msg.st)
		return m.waitGuard(), true
	case cmdline.GuardMsg:
		return m.guardCommand(msg), true
	}
	return nil, false
}

// guardCommand is `:guard arm|disarm|detach`.
func (m *Model) guardCommand(c cmdline.GuardMsg) tea.Cmd {
	s := m.guard.session
	if s == nil {
		return common.Notice(common.LevelWarn, "no guard attached: start one with tradedesk guard (the README's guard section)")
	}
	if c.Verb == "detach" {
		m.detachGuard()
		m.guard.lost = "detached"
		return common.Notice(common.LevelInfo, "guard detached: it goes on running; new algorithms run in the console")
	}
	req := guard.Request{Cmd: guard.CmdArm, After: c.After.Seconds(), Flatten: c.Flatten}
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

// showGuard shows the guard's algorithms and alerts.
func (m *Model) showGuard(st guard.Status) {
	m.algos.ReportRemote(st.Algorithms)
	fired, watched := map[string]time.Time{}, map[string]bool{}
	for _, a := range st.Alerts {
		if a.LastFired != nil {
			fired[a.ID] = *a.LastFired
		}
		watched[a.ID] = a.Watched
	}
	m.alerts.FromGuard(true, watched, fired)
}

// detachGuard ends the session: the guard goes on; the console runs new algorithms and its
// alerts itself again.
func (m *Model) detachGuard() {
	if m.guard.session == nil {
		return
	}
	m.guard.session.Detach()
	m.guard.session = nil
	m.algos.Attach(nil)
	m.alerts.FromGuard(false, nil, nil)
}

// guardBanner is the status line's word on the guard: attached (with its dead-man's time
// left), lost, or running for another account.
func (m *Model) guardBanner() string {
	g := &m.guard
	switch {
	case g.session != nil:
		st, _ := g.session.Last()
		s := "attached"
		if d := st.DeadMan; d.Fired != nil {
			s += " · dead-man fired"
		} else if d.Armed {
			s += fmt.Sprintf(" · dead-man %ds left", int(d.Left+0.5))
		}
		return s
	case g.lost != "":
		return g.lost
	case g.other != "":
		return "runs for another account (" + common.ShortAddr(g.other) + ")"
	}
	return ""
}
