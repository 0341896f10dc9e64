// Package guard is the console's side of its account's guard (state/guard.Session): found at
// start, its algorithms shown in the Algos view and new ones handed to it (algos.Runner.Attach),
// its alerts shown in the Alerts view, a heartbeat every second while the console runs, the
// `:guard` command and the status line's word on it (Link.Banner). Quitting closes the
// connection; the guard goes on. The root feeds it values: the socket directory, the account,
// and where the guard's algorithms and alerts show (Shows).
package guard

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/tradedesk/tradedesk/api/text"
	daemon "github.com/tradedesk/tradedesk/state/guard"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/alerts"
	"github.com/tradedesk/tradedesk/ui/components/algos"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// beat is how often an attached console sends the guard a heartbeat (and reads its status),
// unless Link.Beat says otherwise.
const beat = time.Second

// Shows is where an attached guard shows in the console: its algorithms on the runner (which
// hands it the new ones), its alerts in the alert engine, and the Algos view's wait on its feed.
type Shows struct {
	Algos  *algos.Runner
	Alerts *alerts.Model
	Watch  func() tea.Cmd
}

// Link is the console's link to its account's guard: none, attached, lost, or a guard that
// runs for another account.
type Link struct {
	// Dir is the guards' socket directory ("": never attach).
	Dir string
	// Beat is the heartbeat's interval (0: a second); a test shortens it.
	Beat    time.Duration
	shows   Shows
	session *daemon.Session
	updates chan daemon.Status // the session's statuses, the latest kept
	other   string             // a guard runs for another account
	lost    string             // why the session ended
}

// FoundMsg is the search for the account's guard at start.
type FoundMsg struct {
	s     *daemon.Session
	other string
	err   error
}

// StatusMsg is a heartbeat's answer (ok false: the session ended with err).
type StatusMsg struct {
	st  daemon.Status
	err error
	ok  bool
}

// Session is the session with the guard while attached (nil: none).
func (l *Link) Session() *daemon.Session { return l.session }

// Find looks for account's guard in Dir and attaches to it (FoundMsg); what it runs shows on
// shows. nil when there is no directory or no account.
func (l *Link) Find(account string, shows Shows) tea.Cmd {
	if l.Dir == "" || account == "" {
		return nil
	}
	l.shows = shows
	l.updates = make(chan daemon.Status, 1)
	dir, updates, every := l.Dir, l.updates, cmp.Or(l.Beat, beat)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		mine, other, err := daemon.Find(ctx, dir, account)
		if err != nil {
			return FoundMsg{err: err}
		}
		if mine.Path == "" {
			return FoundMsg{other: other.Account}
		}
		s, err := open(ctx, mine.Path, account, every, updates)
		return FoundMsg{s: s, err: err}
	}
}

// open attaches to the guard at path, a heartbeat every every: its statuses reach updates (the
// latest wins), and the end of the session reaches them as a last status with PID -1.
func open(ctx context.Context, path, account string, every time.Duration, updates chan daemon.Status) (*daemon.Session, error) {
	lost := make(chan error, 1)
	s, err := daemon.Open(ctx, path, account, fmt.Sprintf("console pid %d", os.Getpid()), every, func(st daemon.Status, err error) {
		if err != nil {
			lost <- err
			return
		}
		select { // the latest status wins
		case <-updates:
		default:
		}
		updates <- st
	})
	go func() { // the end of the session reaches the model as a last update
		err := <-lost
		select {
		case <-updates:
		default:
		}
		updates <- daemon.Status{PID: -1, Account: err.Error()}
	}()
	return s, err
}

// wait is the wait on the session's next status.
func (l *Link) wait() tea.Cmd {
	ch := l.updates
	return func() tea.Msg {
		st := <-ch
		if st.PID == -1 {
			return StatusMsg{err: fmt.Errorf("%s", st.Account)}
		}
		return StatusMsg{st: st, ok: true}
	}
}

// Update handles the guard's messages (FoundMsg, StatusMsg and the command line's
// cmdline.GuardMsg); ok false for any other.
func (l *Link) Update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case FoundMsg:
		switch {
		case msg.err != nil:
			l.lost = "not attached: " + text.Clean(msg.err.Error())
			return common.Notice(common.LevelWarn, "guard "+l.lost), true
		case msg.s == nil:
			l.other = msg.other
			return nil, true
		}
		l.session = msg.s
		l.shows.Algos.Attach(msg.s)
		st, _ := msg.s.Last()
		l.show(st)
		return tea.Batch(common.Notice(common.LevelInfo, "guard attached: algorithms start and run in the guard (pid "+fmt.Sprint(st.PID)+")"),
			l.shows.Watch(), l.wait()), true
	case StatusMsg:
		if !msg.ok {
			l.Detach()
			l.lost = "lost: " + text.Clean(msg.err.Error())
			return common.Notice(common.LevelWarn, "guard "+l.lost+"; new algorithms run in the console"), true
		}
		l.show(msg.st)
		return l.wait(), true
	case cmdline.GuardMsg:
		return l.command(msg), true
	}
	return nil, false
}
