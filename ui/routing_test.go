package ui

import (
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
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
