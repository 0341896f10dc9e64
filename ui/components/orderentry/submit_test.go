package orderentry

import (
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestTheAlgoPreviewNamesTheBoundSubmitKey (issue #33, 5): with submit on ctrl+s, an algorithm's
// preview says ctrl+s previews what it sends, and ctrl+s on the form's button asks the root for
// that preview. It fails if the preview spells out Enter again whatever the binding.
func TestTheAlgoPreviewNamesTheBoundSubmitKey(t *testing.T) {
	clock := func() time.Time { return t0 }
	s := state.New(clock)
	s.Apply(state.InstrumentsMsg{Gen: 1, At: t0, Instruments: api.Instruments{Perps: []api.PerpInstrument{{
		ID: 1, Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001"), MinNotionalUSD: d("10"), MaxLeverage: d("20")}}}})
	c := commontest.NewCommon(t, s, clock)
	keys := commontest.Rebound(t, map[string][]string{"submit": {"ctrl+s"}})
	c.Keys = &keys
	p := New(c, "DEMO", new(bool))
	p.SetSize(46, 30)
	p.SetFocused(true)
	p.SetValue(FieldInstrument, "BTC-PERP")
	p.SetOrderType("scale")
	p.SetValue(FieldSize, "0.5")
	p.SetValue(FieldAlgo, "95000-96000 x10 inc")
	if v := strings.Join(strings.Fields(ansi.Strip(p.View())), " "); !strings.Contains(v, "ctrl+s previews what it sends") || strings.Contains(v, "Enter previews") {
		t.Fatalf("the preview does not name ctrl+s:\n%s", ansi.Strip(p.View()))
	}
	p.Focus(FieldSubmit)
	cmd := p.Update(tea.KeyMsg{Type: tea.KeyCtrlS})
	if cmd == nil {
		t.Fatal("ctrl+s on the button asked for nothing")
	}
	if _, ok := cmd().(AlgoMsg); !ok {
		t.Fatalf("ctrl+s on the button: %T, want the algorithm's preview asked of the root", cmd())
	}
}
