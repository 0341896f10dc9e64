package guard

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	daemon "github.com/tradedesk/tradedesk/state/guard"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
	"github.com/tradedesk/tradedesk/ui/components/alerts"
	"github.com/tradedesk/tradedesk/ui/components/algos"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

const account = "0x00000000000000000000000000000000000000aa"

// shows is where a test's guard shows: a runner and an alert engine of their own.
func shows(t *testing.T) Shows {
	t.Helper()
	keys := commontest.Keys(t)
	a, err := alerts.New(alerts.Config{Clock: time.Now}, &keys, common.NewStyles(commontest.Theme))
	if err != nil {
		t.Fatal(err)
	}
	return Shows{Algos: algos.NewRunner(nil, nil), Alerts: a, Watch: func() tea.Cmd { return nil }}
}

// noticeOf is the notice cmd sends (a batch's first).
func noticeOf(t *testing.T, cmd tea.Cmd) common.NoticeMsg {
	t.Helper()
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		msg = b[0]()
	}
	n, ok := msg.(common.NoticeMsg)
	if !ok {
		t.Fatalf("%T is no notice", msg)
	}
	return n
}

// TestTheLinkSaysWhatBecameOfTheGuard: no directory, no search; a search that failed says why
// and the banner keeps it; a guard for another account is named, not attached; :guard with
// none attached says how to start one.
func TestTheLinkSaysWhatBecameOfTheGuard(t *testing.T) {
	var l Link
	if l.Find(account, shows(t)) != nil {
		t.Fatal("a link with no directory searches")
	}
	if cmd, ok := l.Update(FoundMsg{other: "0x00000000000000000000000000000000000000bb"}); !ok || cmd != nil ||
		l.Banner() != "runs for another account (0x0000…00bb)" || l.Session() != nil {
		t.Fatalf("another account's guard: %q", l.Banner())
	}
	cmd, _ := l.Update(FoundMsg{err: errors.New("protocol version 7\x1b[2J")})
	if n := noticeOf(t, cmd); n.Level != common.LevelWarn || !strings.HasPrefix(n.Text, "guard not attached: protocol version 7") ||
		strings.Contains(n.Text, "\x1b") || !strings.HasPrefix(l.Banner(), "not attached: protocol version 7") {
		t.Fatalf("a failed search: %+v, banner %q", n, l.Banner())
	}
	cmd, _ = l.Update(cmdline.GuardMsg{Verb: "arm", After: time.Minute})
	if n := noticeOf(t, cmd); !strings.HasPrefix(n.Text, "no guard attached: start one with tradedesk guard") {
		t.Fatalf(":guard with none attached: %+v", n)
	}
}

// TestTheLinkAttachesArmsAndDetaches: a guard listening in the directory for the account is
// found and attached (the banner shows its dead-man's time left, the runner hands it new
// algorithms); :guard arm reaches it as an arm request; :guard detach ends the session and says
// so, the guard going on.
func TestTheLinkAttachesArmsAndDetaches(t *testing.T) {
	dir, err := os.MkdirTemp("", "tdg") // short: a unix socket's path is limited
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	ln, err := daemon.Listen(daemon.SocketPath(dir, account))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	arms := make(chan daemon.Request, 1)
	go daemon.Serve(ctx, ln, daemon.HandlerFunc(func(r daemon.Request) daemon.Response {
		if r.Cmd == daemon.CmdArm {
			arms <- r
		}
		st := &daemon.Status{Account: account, PID: 4242, DeadMan: daemon.DeadManState{Armed: true, Left: 29.6}}
		return daemon.Response{V: daemon.Version, OK: true, Status: st}
	}))
	l := Link{Dir: dir}
	s := shows(t)
	found := l.Find(account, s)()
	cmd, ok := l.Update(found)
	if !ok || l.Session() == nil {
		t.Fatalf("not attached: %+v, banner %q", found, l.Banner())
	}
	if n := noticeOf(t, cmd); n.Text != "guard attached: algorithms start and run in the guard (pid 4242)" {
		t.Fatalf("attached: %+v", n)
	}
	if l.Banner() != "attached · dead-man 30s left" || !s.Algos.Remote() {
		t.Fatalf("banner %q, runner remote %v", l.Banner(), s.Algos.Remote())
	}
	cmd, _ = l.Update(cmdline.GuardMsg{Verb: "arm", After: time.Minute, Flatten: true})
	if n := cmd().(common.NoticeMsg); n.Text != "guard: dead-man's switch armed for 1m0s, flattening; this console's heartbeats keep it from firing" {
		t.Fatalf(":guard arm: %+v", n)
	}
	if r := <-arms; r.After != 60 || !r.Flatten {
		t.Fatalf("the guard was asked %+v", r)
	}
	cmd, _ = l.Update(cmdline.GuardMsg{Verb: "detach"})
	if n := noticeOf(t, cmd); !strings.HasPrefix(n.Text, "guard detached") || l.Session() != nil || l.Banner() != "detached" || s.Algos.Remote() {
		t.Fatalf(":guard detach: %+v, banner %q", n, l.Banner())
	}
}
