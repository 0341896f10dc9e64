package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/cmdline"
)

// ownMsg is a message only ownPane knows (a timer's or an async result's, say).
type ownMsg struct{ n int }

// ownPane is the least pane: it counts the ownMsgs it is handed.
type ownPane struct{ got int }

func (p *ownPane) Title() string { return "Own" }
func (p *ownPane) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(ownMsg); ok {
		p.got += m.n
	}
	return nil
}
func (p *ownPane) View() string              { return "" }
func (p *ownPane) SetSize(int, int)          {}
func (p *ownPane) SetFocused(bool)           {}
func (p *ownPane) ShortHelp() []key.Binding  { return nil }
func (p *ownPane) FullHelp() [][]key.Binding { return nil }

// TestAComponentsOwnMessageReachesIt: a message the root has no case for reaches the pane that
// owns it, alone in its slot or inside a pane group, so a new pane's timer or async result is not
// dropped for want of a case in the root (the common.Pane recipe adds none).
func TestAComponentsOwnMessageReachesIt(t *testing.T) {
	t.Parallel()
	clock := func() time.Time { return benchNow }
	m := New(Config{Exchange: api.New("http://127.0.0.1:1/"), Store: state.New(clock), Clock: clock,
		Keys: mustKeys(t), Theme: testTheme, Mode: ModeDemo})
	alone, grouped := &ownPane{}, &ownPane{}
	m.addPane(alone, colLeft, 1, 0)
	m.addPane(common.NewGroup(m.c, "Mine", &ownPane{}, grouped), colLeft, 1, 0)
	m.Update(ownMsg{n: 2})
	if alone.got != 2 || grouped.got != 2 {
		t.Fatalf("the pane alone got %d, the one in a group %d: want 2 each", alone.got, grouped.got)
	}
}

// TestCtrlCClosesTheTopModal: the command line, the help, the messages and the alerts view are
// on the one modal stack: Ctrl+C closes whichever is open and does not quit (the alerts view
// quit the console); with none open it quits. While one is open the panes get no key (a pane
// number does not move the focus).
func TestCtrlCClosesTheTopModal(t *testing.T) {
	t.Parallel()
	clock := func() time.Time { return benchNow }
	m := New(Config{Exchange: api.New("http://127.0.0.1:1/"), Store: state.New(clock), Clock: clock,
		Keys: mustKeys(t), Theme: testTheme, Mode: ModeDemo})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	quits := func(cmd tea.Cmd) bool {
		if cmd == nil {
			return false
		}
		_, ok := cmd().(tea.QuitMsg)
		return ok
	}
	for _, open := range []string{m.keys.CommandLine.Keys()[0], m.keys.Help.Keys()[0], m.keys.Messages.Keys()[0], ":alerts"} {
		if open == ":alerts" {
			m.Update(cmdline.AlertsMsg{})
		} else {
			m.Update(keyMsg(open))
		}
		if m.modals.Top() == nil {
			t.Fatalf("%q opened nothing", open)
		}
		focus := m.focus
		m.Update(keyMsg("3"))
		if m.focus != focus {
			t.Fatalf("with %q open, a pane number moved the focus", open)
		}
		if _, cmd := m.Update(keyMsg("ctrl+c")); quits(cmd) || m.modals.Top() != nil {
			t.Fatalf("Ctrl+C with %q open: quit %v, still open %v", open, quits(cmd), m.modals.Top() != nil)
		}
	}
	if _, cmd := m.Update(keyMsg("ctrl+c")); !quits(cmd) {
		t.Fatal("Ctrl+C with nothing open does not quit")
	}
}

// TestTheTopModalDrawsOverTheRest: the modals draw from the stack, bottom to top: the alerts
// view opened over the help is on screen (a fixed order drew the help over whatever opened
// after it, while the keys went to the other). While a modal covers the panes a click is
// dropped; the command line covers none, so a click still focuses the pane under it.
func TestTheTopModalDrawsOverTheRest(t *testing.T) {
	t.Parallel()
	clock := func() time.Time { return benchNow }
	m := New(Config{Exchange: api.New("http://127.0.0.1:1/"), Store: state.New(clock), Clock: clock,
		Keys: mustKeys(t), Theme: testTheme, Mode: ModeDemo})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(keyMsg(m.keys.Help.Keys()[0]))
	m.Update(cmdline.AlertsMsg{})
	if !strings.Contains(m.View(), "ALERTS") {
		t.Fatalf("the alerts view opened over the help is not drawn:\n%s", m.View())
	}
	other := (m.focus + 1) % len(m.slots)
	r := m.slots[other].r
	click := tea.MouseMsg{X: r.x + 1, Y: r.y + 1, Action: tea.MouseActionPress, Button: tea.MouseButtonLeft}
	m.Update(click)
	if m.focus == other {
		t.Fatal("a click under the alerts view reached the pane")
	}
	m.Update(keyMsg(m.keys.Dismiss.Keys()[0]))
	m.Update(keyMsg("ctrl+c"))
	m.Update(keyMsg(m.keys.CommandLine.Keys()[0]))
	m.Update(click)
	if m.focus != other || m.modals.Top() == nil {
		t.Fatalf("with the command line open a click did not focus the pane under it (focus %d, want %d)", m.focus, other)
	}
}
