package algos

import (
	"net/http/httptest"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestEachChoiceHasItsStep: a pause is the journal's; a resume is the journal's while this
// console runs the algorithm, else the restart rule's; a cancel stops one it runs, else is the
// restart rule's; a flatten is refused on one it runs, else confirmed.
func TestEachChoiceHasItsStep(t *testing.T) {
	for _, c := range []struct {
		choice string
		runs   bool
		want   Step
	}{
		{"pause", true, StepSwitch}, {"pause", false, StepSwitch},
		{"resume", true, StepSwitch}, {"resume", false, StepRestart},
		{"cancel", true, StepStop}, {"cancel", false, StepRestart},
		{"flatten", true, StepRefuse}, {"flatten", false, StepFlatten},
	} {
		if got := StepOf(c.choice, c.runs); got != c.want {
			t.Errorf("StepOf(%q, runs %v) = %d, want %d", c.choice, c.runs, got, c.want)
		}
	}
}

// TestTheRunnerThatRunsItIsChosen: the live session's runner while it runs the algorithm, else
// the console's own (with no live session too).
func TestTheRunnerThatRunsItIsChosen(t *testing.T) {
	own, session := NewRunner(nil, nil), NewRunner(nil, nil)
	session.cancels["live1"] = func() {}
	if RunnerOf(own, session, "live1") != session || RunnerOf(own, session, "paper1") != own || RunnerOf(own, nil, "live1") != own {
		t.Fatal("the wrong runner runs the algorithm")
	}
}

// choiceRunner is a runner with an executor on a simulator on loopback (its journal on disk).
func choiceRunner(t *testing.T) *Runner {
	t.Helper()
	srv := httptest.NewServer(sim.New(sim.WithSeed(3)))
	t.Cleanup(srv.Close)
	signer, err := api.SignerFromHex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	if err != nil {
		t.Fatal(err)
	}
	client := api.New(srv.URL, api.WithSigner(signer))
	g := state.DefaultGuard()
	x, err := exec.Open(exec.Setup{Dir: t.TempDir(), Network: "demo", Config: exec.Config{Send: client, Read: client, Account: client.Address(), Guard: &g}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = x.Close() })
	return NewRunner(client, x)
}

// noticeOf is the notice cmd says (a batch's first).
func noticeOf(t *testing.T, cmd tea.Cmd) common.NoticeMsg {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command")
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		msg = b[0]()
	}
	n, ok := msg.(common.NoticeMsg)
	if !ok {
		t.Fatalf("%#v is no notice", msg)
	}
	return n
}

// TestAChoiceGoesToTheRunnerThatRunsIt: a read-only console does nothing and says so; a cancel
// of an algorithm the live session runs stops it there and waits on the view; a flatten of it
// is refused without a wait; a flatten of one an earlier run left asks to confirm.
func TestAChoiceGoesToTheRunnerThatRunsIt(t *testing.T) {
	st := common.NewStyles(commontest.Theme)
	watched := 0
	watch := func() tea.Cmd { watched++; return nil }
	if n := noticeOf(t, NewRunner(nil, nil).Choose(nil, ChoiceMsg{ID: "a1", Choice: "pause"}, "", st, watch)); n.Level != common.LevelWarn ||
		n.Text != "read-only: :algos pause not done" || watched != 0 {
		t.Fatalf("read-only: %+v, %d waits", n, watched)
	}
	own, session := choiceRunner(t), NewRunner(nil, nil)
	if n := noticeOf(t, own.Choose(nil, ChoiceMsg{ID: "a1", Choice: "cancel"}, "read-only: no key", st, watch)); n.Level != common.LevelWarn {
		t.Fatalf("a read-only console cancelled: %+v", n)
	}
	stopped := false
	session.cancels["live1"] = func() { stopped = true }
	if n := noticeOf(t, own.Choose(session, ChoiceMsg{ID: "live1", Choice: "flatten"}, "", st, watch)); n.Level != common.LevelError ||
		!strings.Contains(n.Text, "this console runs live1: flatten is for an algorithm an earlier run left") || stopped || watched != 0 {
		t.Fatalf("flatten of a running one: %+v (stopped %v, %d waits)", n, stopped, watched)
	}
	if n := noticeOf(t, own.Choose(session, ChoiceMsg{ID: "live1", Choice: "cancel"}, "", st, watch)); n.Text != "stopping live1…" || !stopped || watched != 1 {
		t.Fatalf("cancel of a running one: %+v (stopped %v, %d waits)", n, stopped, watched)
	}
	req, ok := own.Choose(session, ChoiceMsg{ID: "old1", Choice: "flatten"}, "", st, watch)().(action.RequestMsg)
	if !ok || !req.Act.Confirm || req.Act.What != "flatten algorithm old1" {
		t.Fatalf("flatten of one left: %#v", req)
	}
}

// TestTheRunnersWordsNameTheBoundKeys (issue #33): with the Algos view's keys rebound, the
// notice about algorithms an earlier run left and the refusal to flatten a running one name the
// rebound keys; a runner without a key map names the keys' actions. It fails if the words spell
// out r, s, f or p again whatever the binding.
func TestTheRunnersWordsNameTheBoundKeys(t *testing.T) {
	keys := commontest.Rebound(t, map[string][]string{"algo_stop": {"z"}, "algo_pause": {"y"}, "algo_resume": {"u"}, "algo_flatten": {"v"}})
	r := choiceRunner(t)
	r.Keys = &keys
	if n := r.leftNotice([]string{"c1"}, nil); !strings.Contains(n.Text, "in the Algos view u resumes one, z cancels its orders, v also closes what it opened") {
		t.Errorf("the notice of algorithms left: %q", n.Text)
	}
	r.cancels["c2"] = func() {}
	st := common.NewStyles(commontest.Theme)
	if n := noticeOf(t, r.Choose(nil, ChoiceMsg{ID: "c2", Choice: "flatten"}, "", st, nil)); !strings.HasSuffix(n.Text, "; z stops it") {
		t.Errorf("the refusal to flatten a running one: %q", n.Text)
	}
	if got := NewRunner(nil, nil).keyName(algoStop); got != "the algo_stop key" {
		t.Errorf("without a key map the stop key is %q", got)
	}
}
