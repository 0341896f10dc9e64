package ui

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/brokers"
)

// brokersView focuses the Funds group and switches it to the Brokers view.
func brokersView(t *testing.T, c *simConsole) *brokers.Pane {
	t.Helper()
	g, _ := fundsGroup(t, c.m)
	c.key(t, "8")
	for i := 0; i < len(g.Panes()); i++ {
		if bp, ok := g.Active().(*brokers.Pane); ok {
			return bp
		}
		c.key(t, "]")
	}
	t.Fatal("no Brokers view in the Funds group")
	return nil
}

func approvalOf(t *testing.T, c *simConsole, broker string) (api.BrokerApproval, bool) {
	t.Helper()
	pg, err := c.m.ex.BrokersCheck(t.Context(), "", broker, api.PageParams{})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range pg.Data {
		if b.Broker == broker {
			return b, true
		}
	}
	return api.BrokerApproval{}, false
}

// TestBrokerApproveAndRevoke: in the Brokers view, a opens the approval line; a bad rate is
// refused there; "0xBROKER 0.1%" is confirmed with the full address and rate and sent over HTTP;
// x on the row asks to revoke it, confirmed, and the approval is gone at the simulator.
func TestBrokerApproveAndRevoke(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 200, 60, false)
	pump(t, c.m, c.m.Init())
	const broker = "0x9908658A316D743159F001026F1ef08aa8F0b55B"
	bp := brokersView(t, c)
	c.key(t, "a")
	if !bp.Capturing() {
		t.Fatal("a did not open the approval line")
	}
	c.typeText(t, strings.ToLower(broker)+" 5%")
	c.key(t, "enter")
	if c.m.confirmation() != nil || !strings.Contains(bp.Note(), "outside 0 to 1%") {
		t.Fatalf("5%%: dialog %v note %q", c.m.confirmation() != nil, bp.Note())
	}
	c.key(t, "backspace", "backspace")
	c.typeText(t, "0.1%")
	c.key(t, "enter")
	if c.m.confirmation() == nil {
		t.Fatalf("no confirmation (note %q, notice %q)", bp.Note(), c.m.shownNotice())
	}
	v := c.m.View()
	for _, want := range []string{"APPROVE A BROKER", "  " + broker, "Max fee rate 0.1%"} {
		if !strings.Contains(v, want) {
			t.Fatalf("confirmation lacks %q:\n%s", want, v)
		}
	}
	c.key(t, "enter")
	if c.m.shownLevel() == common.LevelError || !strings.Contains(c.m.shownNotice(), "done") {
		t.Fatalf("after approving: %q", c.m.shownNotice())
	}
	if b, ok := approvalOf(t, c, broker); !ok || b.MaxFeeRate.String() != "0.001" {
		t.Fatalf("approval at the exchange: %+v %v", b, ok)
	}
	// The pane lists it: put the cursor on it and revoke.
	row := -1
	for i, b := range bp.Rows() {
		if b.Broker == broker {
			row = i
		}
	}
	if row < 0 {
		t.Fatalf("the Brokers view does not list the approval: %+v", bp.Rows())
	}
	bp.Select(row)
	c.key(t, "x")
	if c.m.confirmation() == nil || !strings.Contains(c.m.View(), "REVOKE A BROKER'S APPROVAL") {
		t.Fatalf("x asked nothing: notice %q", c.m.shownNotice())
	}
	c.key(t, "enter")
	if _, ok := approvalOf(t, c, broker); ok || c.m.shownLevel() == common.LevelError {
		t.Fatalf("still approved after revoke (notice %q)", c.m.shownNotice())
	}
}
