package ui

import (
	"fmt"
	"github.com/tradedesk/tradedesk/ui/components/orders"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// TestOrderIdsAreShown (#13 QA 2): `cancel ID` takes an order's id, and the orders pane shows it:
// every order's in its column at 200x60 (and wherever it fits), and the selected order's at
// every size. Guards the id column dropped first (it was shown at no size).
func TestOrderIdsAreShown(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		c := newDemoConsole(t, size[0], size[1])
		pump(t, c.m, c.m.Init())
		c.key(t, "3")
		v := ansi.Strip(c.m.View())
		p := ordersOf(c.m)
		if len(p.Orders()) < 2 {
			t.Fatalf("%dx%d: the demo has %d open orders", size[0], size[1], len(p.Orders()))
		}
		for i, o := range p.Orders() {
			if i >= p.Table().Height {
				break // scrolled out of view
			}
			if id := fmt.Sprint(o.OrderID); (i == 0 || size[0] == 200) && !strings.Contains(v, id) {
				t.Errorf("%dx%d: order %d (row %d) has no id on the screen:\n%s", size[0], size[1], o.OrderID, i, v)
			}
		}
	}
}

// TestOrdersDetailLineGivesTheId: an orders pane too narrow for the id column keeps its last line
// for the selected order's id (and its type when cut), however many orders fill it, and the line
// follows the cursor. Guards an id shown nowhere when narrow, and a detail line only over a
// blank row.
func TestOrdersDetailLineGivesTheId(t *testing.T) {
	t.Parallel()
	clock := func() time.Time { return simStart }
	s := state.New(clock)
	s.Apply(state.InstrumentsMsg{Gen: 1, At: simStart, Instruments: api.Instruments{Perps: []api.PerpInstrument{{
		ID: 1, Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.0001"), MinNotionalUSD: d("10"), MaxLeverage: d("20")}}}})
	var recs []api.OrderRecord
	for i := range 8 {
		recs = append(recs, api.OrderRecord{OrderID: api.OrderID(4_200_000_000 + i), Instrument: "BTC-PERP", InstrumentID: 1,
			Side: api.SideSell, State: api.StateOpen, Tpsl: api.TpslStopLoss, ReduceOnly: true, IsMarket: true,
			TriggerPx: api.OptDecimal{Decimal: d("94439.5"), Valid: true}, Grouping: api.GroupingPosition,
			Size: d("0.1"), Unfilled: d("0.1"), Timestamp: api.Time{Time: simStart}})
	}
	s.Apply(state.OrdersMsg{Gen: 1, At: simStart, Orders: recs})
	p := orders.New(commontest.NewCommon(t, s, clock))
	p.SetSize(56, 6)
	p.Update(common.DataMsg{Kind: state.KindOrders})
	for _, row := range []int{0, 6} {
		p.Table().MoveTo(row)
		lines := strings.Split(ansi.Strip(p.View()), "\n")
		want := fmt.Sprintf("BTC-PERP  Order id %d", 4_200_000_000+row)
		if len(lines) != 6 || !strings.HasPrefix(strings.TrimSpace(lines[5]), want) {
			t.Errorf("cursor on row %d: want the last of 6 lines to start %q:\n%s", row, want, strings.Join(lines, "\n"))
		}
	}
}

// ordersOf is the console's open orders pane.
func ordersOf(m *Model) *orders.Pane {
	for _, s := range m.slots {
		if p, ok := s.pane.(*orders.Pane); ok {
			return p
		}
	}
	return nil
}
