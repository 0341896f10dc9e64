package history

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/components/fills"
)

// makeHistory makes n orders, newest first, alternating instruments and cycling states.
func makeHistory(n, top int) []api.OrderRecord {
	states := []string{api.StateFilled, api.StateCancelled, api.StateOpen, api.StateTriggered}
	out := make([]api.OrderRecord, n)
	for i := range out {
		id := top - i
		in := []string{"BTC-PERP", "ETH-PERP"}[id%2]
		out[i] = api.OrderRecord{OrderID: api.OrderID(id), Instrument: in, InstrumentID: api.InstrumentID(id%2 + 1),
			Side: api.SideBuy, LimitPrice: d("100.5"), Size: d("2"), Unfilled: d("0.5"), State: states[id%4],
			Cloid: fmt.Sprintf("cloid-%d", id), Tif: api.TifGTC, PostOnly: id%3 == 0,
			Timestamp: api.Time{Time: paneNow.Add(-time.Duration(i) * time.Second)}}
	}
	return out
}

func TestHistoryPagingAndFilters(t *testing.T) {
	t.Parallel()
	c := paneCommon(t)
	c.SetInstrument("ETH-PERP")
	ex := &fakeEx{history: makeHistory(230, 5000)}
	p := New(c, ex)
	p.SetSize(160, 14)
	p.SetFocused(true)
	deliver(t, c, p, p.Update(common.StartPanesMsg{}))
	if len(p.all) != 100 || len(p.rows) != 100 {
		t.Fatalf("page 1: %d orders, %d shown", len(p.all), len(p.rows))
	}

	// s cycles the state filter: open.
	deliver(t, c, p, p.Update(keyMsg("s")))
	for _, i := range p.rows {
		if p.all[i].State != api.StateOpen {
			t.Fatalf("state filter let %s through", p.all[i].State)
		}
	}
	if len(p.rows) != 25 || p.Title() != "Order history (25 of 100)" {
		t.Fatalf("open filter: %d rows, title %q", len(p.rows), p.Title())
	}
	// i cycles the instrument filter: the current instrument first.
	deliver(t, c, p, p.Update(keyMsg("i")))
	for _, i := range p.rows {
		if o := p.all[i]; o.Instrument != "ETH-PERP" || o.State != api.StateOpen {
			t.Fatalf("filters let %s %s through", o.Instrument, o.State)
		}
	}
	if !strings.Contains(p.View(), "filter: open ETH-PERP") {
		t.Errorf("the status line does not show the filter:\n%s", p.View())
	}

	// Scrolling to the end of the filtered rows loads the next page (filtered too).
	deliver(t, c, p, p.Update(keyMsg("end")))
	if fmt.Sprint(ex.pages) != "[1 2]" || len(p.all) != 200 {
		t.Fatalf("pages %v, %d loaded", ex.pages, len(p.all))
	}

	// New orders arrive on top; an order already held is replaced, not repeated.
	ex.history = append(makeHistory(2, 5002), ex.history...)
	ex.history[2].State = api.StateCancelled // order 5000 changed state
	deliver(t, c, p, common.Tea(p.Task().Poll()))
	ids := map[api.OrderID]bool{}
	for _, o := range p.all {
		if ids[o.OrderID] {
			t.Fatalf("order %d twice", o.OrderID)
		}
		ids[o.OrderID] = true
	}
	if len(p.all) != 202 || p.all[0].OrderID != 5002 || p.all[2].State != api.StateCancelled {
		t.Fatalf("after new orders: %d, first %d, order 5000 %s", len(p.all), p.all[0].OrderID, p.all[2].State)
	}

	// Cycling on returns to every state and every instrument.
	for range 4 {
		p.Update(keyMsg("s"))
	}
	p.Update(keyMsg("i"))
	p.Update(keyMsg("i"))
	if p.filtered() || len(p.rows) != len(p.all) {
		t.Fatalf("filters did not cycle back: instr %q state %d", p.instr, p.state)
	}
}

func TestHistoryEmptyFilter(t *testing.T) {
	t.Parallel()
	c := paneCommon(t)
	p := New(c, &fakeEx{history: makeHistory(8, 100)})
	p.SetSize(120, 6)
	deliver(t, c, p, p.Update(common.StartPanesMsg{}))
	if v := p.View(); !strings.Contains(v, "filled") || !strings.Contains(v, "limit PO") {
		t.Fatalf("view:\n%s", v)
	}
	p.instr = "SOL-PERP"
	p.refresh(true)
	if v := p.View(); !strings.Contains(v, "no SOL-PERP orders loaded: s/i change the filter") {
		t.Fatalf("empty filter view:\n%s", v)
	}
}

// TestListsFitEightyColumns: at 80x24 (78 cells inside the border) the essential columns show.
func TestListsFitEightyColumns(t *testing.T) {
	t.Parallel()
	c := paneCommon(t)
	h := New(c, &fakeEx{history: makeHistory(3, 10)})
	h.SetSize(78, 10)
	deliver(t, c, h, h.Update(common.StartPanesMsg{}))
	header := strings.Split(h.View(), "\n")[0]
	for _, col := range []string{"Time", "Instrument", "Side", "Type", "Price", "Size", "State"} {
		if !strings.Contains(header, col) {
			t.Errorf("history at 78 cells lacks %s: %q", col, header)
		}
	}
	f := fills.New(c, &fakeEx{fills: makeFills(3, 10)}, false)
	f.SetSize(78, 10)
	deliver(t, c, f, f.Update(common.StartPanesMsg{}))
	header = strings.Split(f.View(), "\n")[0]
	for _, col := range []string{"Time", "Instrument", "Side", "Price", "Size", "Fee", "Closed PnL"} {
		if !strings.Contains(header, col) {
			t.Errorf("fills at 78 cells lack %s: %q", col, header)
		}
	}
}

// BenchmarkHistoryPane renders the order-history pane (200x60's share) with 10 and with 10,000
// orders loaded, unfiltered and filtered by state: the frame's cost depends on the rows shown.
func BenchmarkHistoryPane(b *testing.B) {
	for _, n := range []int{10, 10000} {
		for _, filter := range []bool{false, true} {
			b.Run(fmt.Sprintf("loaded=%d/filtered=%v", n, filter), func(b *testing.B) {
				c := paneCommon(b)
				p := New(c, &fakeEx{})
				p.SetSize(196, 24)
				recs := makeHistory(n, n)
				c.Store.Apply(state.HistoryMsg{Gen: 1, At: paneNow, Page: api.Page[api.OrderRecord]{Data: recs, Page: 1, TotalCount: n, TotalPages: 1}})
				p.Update(common.DataMsg{Kind: state.KindHistory})
				if filter {
					p.Update(keyMsg("s"))
				}
				p.Tbl.MoveTo(len(p.rows) / 2)
				p.View()
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					_ = p.View()
				}
			})
		}
	}
}

// TestHistoryTypeTakesTheFreeWidth: a bracket's stop ("sl @179.830 bracket RO") shows whole when
// the shown columns leave room for it (86 cells, the 200x60 Activity pane), rather than cut to
// its 13-cell minimum while the room sits unused (QA 13b #9); the columns shown at 78 cells stay.
// Guards dropping the fit (SetSize or refresh not calling fitWidths) and a fit that pushes
// State out.
func TestHistoryTypeTakesTheFreeWidth(t *testing.T) {
	t.Parallel()
	c := paneCommon(t)
	recs := makeHistory(3, 10)
	recs[0].IsMarket, recs[0].Tpsl, recs[0].Grouping, recs[0].ReduceOnly = true, api.TpslStopLoss, api.GroupingNormal, true
	recs[0].TriggerPx = api.OptDecimal{Decimal: d("179.83"), Valid: true}
	p := New(c, &fakeEx{history: recs})
	p.SetSize(86, 10)
	deliver(t, c, p, p.Update(common.StartPanesMsg{}))
	typ, _ := p.cell(0, colType)
	if len(typ) < 20 {
		t.Fatalf("the stop's type is %q", typ)
	}
	v := p.View()
	if !strings.Contains(v, typ) || !strings.Contains(strings.Split(v, "\n")[0], "State") {
		t.Fatalf("at 86 cells the type %q is not whole, or State is gone:\n%s", typ, v)
	}
	p.SetSize(78, 10)
	v = p.View()
	header := strings.Split(v, "\n")[0]
	for _, col := range []string{"Time", "Instrument", "Side", "Type", "Price", "Size", "State"} {
		if !strings.Contains(header, col) {
			t.Errorf("history at 78 cells lacks %s: %q", col, header)
		}
	}
	if !strings.Contains(v, typ[:8]) {
		t.Errorf("at 78 cells the type is not shown cut:\n%s", v)
	}
}

// TestHistorySaysPartlyFilled (issue #31, 12): a market order that filled 29.25 of 291.01 ETH and
// had the rest cancelled reads "partly filled 29.25" in the history at 120 cells, and "partly
// filled" beside its sizes at 78, where the size would push State out; an order cancelled with
// nothing filled still reads "cancelled". Guards the exchange's bare "cancelled" for an order
// that made a position.
func TestHistorySaysPartlyFilled(t *testing.T) {
	t.Parallel()
	c := paneCommon(t)
	recs := makeHistory(2, 10)
	recs[0].Instrument, recs[0].InstrumentID, recs[0].IsMarket = "ETH-PERP", 2, true
	recs[0].Size, recs[0].Unfilled, recs[0].State = d("291.01"), d("261.76"), api.StateCancelled
	recs[1].Size, recs[1].Unfilled, recs[1].State = d("1"), d("1"), api.StateCancelled
	p := New(c, &fakeEx{history: recs})
	for w, want := range map[int]string{78: "partly filled ", 120: "partly filled 29.25 "} {
		p.SetSize(w, 10)
		deliver(t, c, p, p.Update(common.StartPanesMsg{}))
		lines := strings.Split(p.View(), "\n")
		if !strings.Contains(lines[1], want) || strings.Contains(lines[1], "cancelled") {
			t.Errorf("%d cells: the partly filled order reads:\n%s", w, lines[1])
		}
		if !strings.Contains(lines[2], "cancelled") || strings.Contains(lines[2], "partly") {
			t.Errorf("%d cells: the order that filled nothing reads:\n%s", w, lines[2])
		}
	}
}
