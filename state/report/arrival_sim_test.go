package report_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/state/report"
)

// TestBatchAndBracketKeepArrivalsAndRoutes (issue #41): a batch of two market orders and a
// bracket (a market entry with its take-profit and stop-loss) journal every order's arrival as
// Place does (the entry's and each batch order's mid and preview average; a leg's mid and mark,
// no expected average), so each order's card measures its slippage; with a keystroke, each order's
// route keeps the keystroke, the signing and the answer in that order. Guards: a batch's or a
// bracket's orders left without an arrival (their cards say nothing of slippage), a leg given the
// entry's expected average, the route stamped for the first order only.
func TestBatchAndBracketKeepArrivalsAndRoutes(t *testing.T) {
	r := newRig(t)
	st := r.withBook("ETH-PERP")
	var cs []exec.Checked
	for _, side := range []string{"buy", "sell"} {
		c, errs := r.e.Check(st, state.OrderIntent{Instrument: "ETH-PERP", Side: side, Type: state.Market, Size: "0.05"})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		cs = append(cs, c)
	}
	key := r.clock.Now()
	b, err := r.e.PlaceBatch(bg, cs, exec.Ask{Who: journal.WhoHeadless, What: "batch", Confirmed: true, Keystroke: key, Clock: r.clock.Now})
	must(t, err)
	if len(b.Orders) != 2 || !b.Orders[1].Arrival.Expected.IsPositive() || b.Route.Keystroke != key {
		t.Fatalf("batch: %+v", b)
	}
	r.clock.Add(time.Second)
	st = r.withBook("BTC-PERP")
	mid, _ := st.Mid("BTC-PERP")
	in, _ := st.Instrument("BTC-PERP")
	cb, errs := r.e.CheckBracket(st, state.BracketIntent{Entry: state.OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: state.Market, Size: "0.002"},
		TakeProfit: state.FloorToStep(mid.Mul(decimal.RequireFromString("1.05")), in.TickSize).String(),
		StopLoss:   state.FloorToStep(mid.Mul(decimal.RequireFromString("0.95")), in.TickSize).String()})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	br, err := r.e.PlaceBracket(bg, cb, exec.Ask{Who: journal.WhoHeadless, What: "bracket", Confirmed: true, Keystroke: key, Clock: r.clock.Now})
	must(t, err)
	if len(br.Legs) != 2 || !br.Outcome.Filled.IsPositive() {
		t.Fatalf("bracket: %+v", br)
	}
	arrivals, err := r.j.Arrivals(bg)
	must(t, err)
	routes, err := r.j.Routes(bg)
	must(t, err)
	ids := []string{cs[0].Order().Wire.Cloid, cs[1].Order().Wire.Cloid, br.Cloid, br.Legs[0].Cloid, br.Legs[1].Cloid}
	for i, id := range ids {
		a, rt := arrivals[id], routes[id]
		leg := i >= 3
		if !a.Mid.IsPositive() || !a.Mark.IsPositive() || a.Expected.IsPositive() != !leg || a.At.IsZero() {
			t.Errorf("order %d (%s): arrival %+v", i, id, a)
		}
		if rt.Keystroke != key || rt.Signed.Before(rt.Keystroke) || rt.Answered.Before(rt.Signed) || rt.Answered.IsZero() {
			t.Errorf("order %d (%s): route %+v", i, id, rt)
		}
	}
	cards := report.Orders(r.fills(), arrivals, ticksOf(st))
	for _, c := range cards {
		if !c.VsArrival.Known || !c.VsPreview.Known {
			t.Errorf("card of %s: arrival %+v preview %+v", c.Cloid, c.VsArrival, c.VsPreview)
		}
	}
	if len(cards) != 3 {
		t.Errorf("%d cards, want the batch's two and the entry", len(cards))
	}
}
