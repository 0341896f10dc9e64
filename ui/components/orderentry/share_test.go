package orderentry

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/action"
)

// TestSizeAsAShareOfTheMaximum (issue #35): the size field shows the most the account can afford
// while the cursor is in it, "25%" sends a quarter of it rounded down to the lot, and a share
// over 100 % says what to fix.
func TestSizeAsAShareOfTheMaximum(t *testing.T) {
	p := newForm(t, new(bool))
	p.SetValue(FieldPrice, "96000")
	p.Focus(FieldSize)
	p.SetValue(FieldSize, "")
	max, err := p.Store.OfferedMax(state.OrderIntent{Instrument: "BTC-PERP", Side: "b", Type: state.Limit, Price: "96000", Tif: "GTC"}, p.Guard)
	if err != nil {
		t.Fatal(err)
	}
	if v := ansi.Strip(p.View()); !strings.Contains(v, "≤"+max.String()) {
		t.Fatalf("the size line does not offer the maximum %s up front:\n%s", max, v)
	}
	p.SetValue(FieldSize, "25%")
	req, ok := submit(p).(action.RequestMsg)
	want := state.FloorToStep(max.Div(d("4")), d("0.001"))
	if !ok || !req.Act.Order.Size.Equal(want) {
		t.Fatalf("25%%: %#v, want a size of %s (errors %v)", req, want, p.Errors())
	}
	p.SetValue(FieldSize, "150%")
	if _, ok := submit(p).(action.RequestMsg); ok || len(p.Errors()) == 0 || !strings.Contains(p.Errors()[0].Msg, "1 to 100%") {
		t.Fatalf("150%%: errors %v", p.Errors())
	}
}
