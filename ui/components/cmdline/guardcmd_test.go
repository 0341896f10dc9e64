package cmdline

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/ui/common"
)

// TestGuardLine: :guard arm, disarm and detach are read with their span and flatten; a wrong
// one says what to give; other lines are not guard lines.
func TestGuardLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want GuardMsg
		err  string
	}{
		{line: "guard arm 10s", want: GuardMsg{Verb: "arm", After: 10 * time.Second}},
		{line: "GUARD arm 2m flatten", want: GuardMsg{Verb: "arm", After: 2 * time.Minute, Flatten: true}},
		{line: "guard disarm", want: GuardMsg{Verb: "disarm"}},
		{line: "guard detach", want: GuardMsg{Verb: "detach"}},
		{line: "guard", err: "arm 30s [flatten], disarm or detach"},
		{line: "guard arm", err: "arm 30s"},
		{line: "guard arm 500ms", err: "at least 1s"},
		{line: "guard arm soon", err: "at least 1s"},
		{line: "guard arm 10s now", err: "disarm or detach"},
		{line: "guard detach now", err: "disarm or detach"},
	} {
		msg, ok, err := guardLine(tc.line)
		if !ok {
			t.Fatalf("%q: not a guard line", tc.line)
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("%q: error %v, want %q", tc.line, err, tc.err)
			}
			continue
		}
		if err != nil || msg != tc.want {
			t.Fatalf("%q: %+v %v, want %+v", tc.line, msg, err, tc.want)
		}
	}
	if _, ok, _ := guardLine("guards"); ok {
		t.Fatal("guards is not a guard line")
	}
}

// TestEnterSendsTheParsedCommand: Enter on a guard, risk or algorithm line sends the root that
// command's message (enterParsed), and on a wrong one the refusal, not a message. Guards the one
// handling the three share: a line its parser owns must neither fall through to the order
// grammar nor be sent when refused.
func TestEnterSendsTheParsedCommand(t *testing.T) {
	for _, tc := range []struct {
		line string
		want func(tea.Msg) bool
	}{
		{"guard arm 30s", func(m tea.Msg) bool { g, ok := m.(GuardMsg); return ok && g.Verb == "arm" && g.After == 30*time.Second }},
		{"risk halt lunch", func(m tea.Msg) bool { r, ok := m.(RiskMsg); return ok && r.Verb == "halt" && r.Why == "lunch" }},
		{"chase buy 0.1 btc", func(m tea.Msg) bool { a, ok := m.(AlgoMsg); return ok && a.Cmd.Kind != "" }},
		{"guard sideways", func(m tea.Msg) bool { n, ok := m.(common.NoticeMsg); return ok && strings.HasPrefix(n.Text, NotSent) }},
		{"risk max_daily_loss", func(m tea.Msg) bool { n, ok := m.(common.NoticeMsg); return ok && strings.HasPrefix(n.Text, NotSent) }},
	} {
		m := newLine(t, OpenHistory(""))
		m.Open()
		typeIn(m, tc.line)
		cmd := press(m, tea.KeyEnter)
		if cmd == nil {
			t.Errorf("%q: Enter sent nothing", tc.line)
			continue
		}
		if got := cmd(); !tc.want(got) {
			t.Errorf("%q: Enter sent %#v", tc.line, got)
		}
	}
}
