package history

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
)

// TestAStreamedOrderFitsTheColumnsWhenDrawn (issue #36): a streamed order record the store takes
// into a loaded history reaches the pane, which fits its columns to the rows when it is drawn,
// not at each record: a pane behind another tab formatted every row's cells at each of an
// algorithm's cancels and places (about 6,000 cells a record for a page of 1,000 orders). Drawn,
// the new order's wider price shows whole.
func TestAStreamedOrderFitsTheColumnsWhenDrawn(t *testing.T) {
	c := paneCommon(t)
	p := New(c, &fakeEx{history: makeHistory(100, 1000)})
	p.SetSize(120, 10)
	deliver(t, c, p, p.Update(common.StartPanesMsg{}))
	if len(c.Store.History()) != 100 {
		t.Fatalf("history loaded %d orders, want 100", len(c.Store.History()))
	}
	p.View()
	n := 1000
	allocs := testing.AllocsPerRun(20, func() {
		n++
		rec := api.OrderRecord{OrderID: api.OrderID(n), Instrument: "BTC-PERP", InstrumentID: 1, Side: api.SideBuy,
			LimitPrice: d("100.5"), Size: d("2"), Unfilled: d("2"), State: api.StateOpen, Timestamp: api.Time{Time: paneNow}}
		c.Store.Apply(state.OrderUpdateMsg{At: paneNow, Record: rec})
		p.Update(common.DataMsg{Kind: state.KindOrders})
	})
	if allocs > 200 { // fitting the columns to 100 rows takes thousands
		t.Fatalf("a streamed order took %.0f allocations with the pane not drawn", allocs)
	}
	if h := p.Store.History(); len(h) < 120 || h[0].OrderID != api.OrderID(n) {
		t.Fatalf("the streamed orders are not on top of the history: %d orders", len(h))
	}
	wide := api.OrderRecord{OrderID: api.OrderID(n + 1), Instrument: "BTC-PERP", InstrumentID: 1, Side: api.SideBuy,
		LimitPrice: d("123456789.5"), Size: d("2"), Unfilled: d("2"), State: api.StateOpen, Timestamp: api.Time{Time: paneNow}}
	c.Store.Apply(state.OrderUpdateMsg{At: paneNow, Record: wide})
	p.Update(common.DataMsg{Kind: state.KindOrders})
	p.Tbl.MoveTo(0) // the cursor stayed on the order it was on
	if v := p.View(); !strings.Contains(v, "123,456,789.5") {
		t.Fatalf("the streamed order's price is not whole:\n%s", v)
	}
}
