package transfer

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/state/funds"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestReboundTransferMax (issue #33, 5): with transfer_max on ctrl+o, the amount's hint names
// ctrl+o, ctrl+a no longer fills the amount and ctrl+o does. It fails if the hint spells out
// ctrl+a again whatever the binding.
func TestReboundTransferMax(t *testing.T) {
	p := newForm(t)
	keys := commontest.Rebound(t, map[string][]string{"transfer_max": {"ctrl+o"}})
	p.Keys = &keys
	p.Update(OpenMsg{Op: funds.DerivativeWithdraw})
	if v := ansi.Strip(p.View()); !strings.Contains(v, "ctrl+o all") || strings.Contains(v, "ctrl+a") {
		t.Fatalf("the amount's hint does not name ctrl+o:\n%s", v)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlA})
	if v := p.amount.Value(); v != "" {
		t.Fatalf("ctrl+a filled the amount (%q) though transfer_max is ctrl+o", v)
	}
	p.Update(tea.KeyMsg{Type: tea.KeyCtrlO})
	if v := p.amount.Value(); v == "" {
		t.Fatal("ctrl+o did not fill the amount")
	}
}
