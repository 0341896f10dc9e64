package brokers

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestReboundApprovalKeys (issue #33, 5): with broker_approve on p, broker_revoke on r,
// text_submit on ctrl+s and dismiss on ctrl+g, the pane's line names p and r, the approval line
// names ctrl+s and ctrl+g, Enter does not send the line and ctrl+s does. It fails if the pane
// reads Enter as a hard-coded key again or its hints spell out the default keys.
func TestReboundApprovalKeys(t *testing.T) {
	signer, err := api.NewRandomSigner()
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := func() time.Time { return t0 }
	c := commontest.NewCommon(t, state.New(clock), clock)
	keys := commontest.Rebound(t, map[string][]string{"broker_approve": {"p"}, "broker_revoke": {"r"},
		"text_submit": {"ctrl+s"}, "dismiss": {"ctrl+g"}})
	c.Keys = &keys
	p := New(c, api.New("http://127.0.0.1:1/", api.WithSigner(signer)))
	p.SetSize(200, 8)
	p.SetFocused(true)
	if v := ansi.Strip(p.View()); !strings.Contains(v, "p approve a broker · r revoke") {
		t.Errorf("the pane's line does not name p and r:\n%s", v)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("p")})
	for _, r := range "0x7d2b6a4b38bfe8f3bf4a1ec0f2a3e5da1c9b4e10 0.1%" {
		p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	if v := ansi.Strip(p.View()); !strings.Contains(v, "ctrl+s review · ctrl+g back") {
		t.Errorf("the approval line does not name ctrl+s and ctrl+g:\n%s", v)
	}
	if cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter}); cmd != nil || !p.Capturing() {
		t.Fatal("Enter sent the approval though text_submit is ctrl+s")
	}
	cmd := p.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
	if cmd == nil {
		t.Fatal("ctrl+s did not send the approval")
	}
	if _, ok := cmd().(action.RequestMsg); !ok || p.Capturing() {
		t.Errorf("ctrl+s: %T, still typing %v", cmd(), p.Capturing())
	}
}
