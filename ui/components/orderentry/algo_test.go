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

// TestTheFormsAlgorithmTypes: the form offers chase, twap, scale and trail as types (the type
// line fits its width, ‹ › marking the options off it); an algorithm's words that do not read are
// refused next to the Algo field with the grammar's reason and nothing is asked of the root; a
// scale that reads asks the root for its preview (AlgoMsg, the command line's command); a trail
// takes no side or size (it protects the whole position).
func TestTheFormsAlgorithmTypes(t *testing.T) {
	clock := func() time.Time { return t0 }
	s := state.New(clock)
	s.Apply(state.InstrumentsMsg{Gen: 1, At: t0, Instruments: api.Instruments{Perps: []api.PerpInstrument{{
		ID: 1, Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.001"), MinNotionalUSD: d("10"), MaxLeverage: d("20")}}}})
	p := New(commontest.NewCommon(t, s, clock), "DEMO", new(bool))
	p.SetSize(46, 24)
	p.SetFocused(true)
	p.SetValue(FieldInstrument, "BTC-PERP")
	for _, typ := range []string{"chase", "twap", "scale", "trail"} {
		if !p.SetOrderType(typ) {
			t.Fatalf("no type %s", typ)
		}
		for _, l := range strings.Split(ansi.Strip(p.View()), "\n") {
			if strings.Contains(l, "Type") && (!strings.Contains(l, "["+strings.ToUpper(typ)+"]") || ansi.StringWidth(l) > 46) {
				t.Fatalf("%s: the type line %q", typ, l)
			}
		}
	}
	p.SetOrderType("scale")
	p.SetValue(FieldSize, "0.5")
	p.SetValue(FieldAlgo, "95000-96000 x500")
	p.Focus(FieldSubmit)
	if cmd := p.Update(tea.KeyMsg{Type: tea.KeyEnter}); cmd == nil || p.Valid() {
		t.Fatal("a bad scale was not refused")
	} else if _, asked := cmd().(AlgoMsg); asked {
		t.Fatal("a bad scale reached the root")
	}
	if v := ansi.Strip(p.View()); !strings.Contains(v, "x2 to x100") {
		t.Fatalf("the Algo field's problem is not shown:\n%s", v)
	}
	p.SetValue(FieldAlgo, "95000-96000 x10 inc")
	p.Focus(FieldSubmit)
	msg, ok := p.Update(tea.KeyMsg{Type: tea.KeyEnter})().(AlgoMsg)
	if !ok || msg.Cmd.Kind != "scale" || msg.Cmd.Count != 10 || msg.Cmd.Distribution != "inc" || !msg.Cmd.Size.Equal(d("0.5")) || msg.Cmd.Side != "buy" {
		t.Fatalf("scale: %+v", msg)
	}
	p.SetOrderType("trail")
	p.SetValue(FieldAlgo, "1.5%")
	if v := ansi.Strip(p.View()); strings.Contains(v, "Side") || strings.Contains(v, "Size") || !strings.Contains(v, "trail BTC-PERP 1.5%") {
		t.Fatalf("the trail's form:\n%s", v)
	}
}
