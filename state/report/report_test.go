package report_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state/report"
)

// TestAMarketOrderOverSeveralLevels (issue #41): a market buy larger than the best ask fills over
// several levels; its card's average is the volume-weighted average of its fills to the tick, its
// slippage against the arrival mid is within a tick of the book walk's figure and against the
// preview within a tick of zero, its fees are its fills' fees, all taker. Guards: the average
// taken as the last (or a simple mean of) fill prices, the arrival not journaled at send, the sign
// of a buy's slippage, fees not summed.
func TestAMarketOrderOverSeveralLevels(t *testing.T) {
	r := newRig(t)
	const sym = "ETH-PERP"
	b, err := r.client.OrderBook(bg, sym, 0)
	must(t, err)
	size := b.Asks[0].Size.Add(b.Asks[1].Size).Add(b.Asks[2].Size.Div(decimal.NewFromInt(2)).Truncate(2))
	co, res := r.market(sym, "buy", size)

	arrivals, err := r.j.Arrivals(bg)
	must(t, err)
	st := r.store()
	cards := report.Orders(r.fills(), arrivals, ticksOf(st))
	var c report.Card
	var mine []api.Fill
	for _, f := range r.fills() {
		if f.OrderID == res.Outcome.Oid {
			mine = append(mine, f)
		}
	}
	for _, x := range cards {
		if x.OrderID == res.Outcome.Oid {
			c = x
		}
	}
	if len(mine) < 3 || c.Fills != len(mine) {
		t.Fatalf("want fills over 3 levels: %d fills, card %+v", len(mine), c)
	}
	tick := co.Instrument.TickSize
	cost, sz, fee := decimal.Zero, decimal.Zero, decimal.Zero
	for _, f := range mine {
		cost, sz, fee = cost.Add(f.Price.Mul(f.Size)), sz.Add(f.Size), fee.Add(f.Fee)
	}
	if vwap := cost.Div(sz); c.AvgPrice.Sub(vwap).Abs().GreaterThanOrEqual(tick) || !c.Size.Equal(sz) {
		t.Errorf("average %s of %s, fills' VWAP %s of %s", c.AvgPrice, c.Size, vwap, sz)
	}
	if !c.Fee.Equal(fee) || !c.MakerShare.IsZero() {
		t.Errorf("fee %s maker share %s, fills' fees %s, all taker", c.Fee, c.MakerShare, fee)
	}
	w := co.Preview.Walk
	if !c.VsArrival.Known || !c.VsArrival.Ref.Equal(w.Mid) || c.VsArrival.Ticks.Sub(w.SlippageTicks).Abs().GreaterThan(decimal.NewFromInt(1)) {
		t.Errorf("slippage vs arrival %+v, the walk's %s ticks from %s", c.VsArrival, w.SlippageTicks, w.Mid)
	}
	if !c.VsPreview.Known || !c.VsPreview.Ref.Equal(w.AvgPrice) || c.VsPreview.Ticks.Abs().GreaterThan(decimal.NewFromInt(1)) {
		t.Errorf("slippage vs preview %+v, expected average %s", c.VsPreview, w.AvgPrice)
	}
	if !c.VsArrival.Bp.IsPositive() || !c.VsArrival.USD.Equal(c.AvgPrice.Sub(w.Mid).Mul(c.Size)) {
		t.Errorf("a buy over several asks pays above the mid: %+v", c.VsArrival)
	}
	if c.ToFirst < 0 || c.ToLast < c.ToFirst || c.Arrival.At.IsZero() {
		t.Errorf("times: sent %v, first +%v, last +%v", c.Arrival.At, c.ToFirst, c.ToLast)
	}
}

// TestRoundTrips (issue #41): a position opened in three fills, added to, partly closed,
// reversed and closed gives two round trips (the long, closed by the reversal; the short), with
// the sizes a trader writes by hand, realised PnL equal to the fills' closed_pnl sum and each
// trip's funding the funding_history payments made while it was open. Guards:
// a reversal left inside one trip, closed_pnl of the reversing fill given to the new trip, fees
// of the reversing fill counted twice, a reversal counted as an add.
func TestRoundTrips(t *testing.T) {
	r := newRig(t)
	const sym = "BTC-PERP"
	d := decimal.RequireFromString
	for i, step := range []struct {
		side, size string
	}{{"buy", "0.001"}, {"buy", "0.001"}, {"buy", "0.001"}, {"buy", "0.002"}, {"sell", "0.002"}, {"sell", "0.005"}, {"buy", "0.002"}} {
		r.market(sym, step.side, d(step.size))
		if i == 3 || i == 5 {
			r.sim.Advance(time.Hour) // a funding settlement while the long, then the short, is open
		}
	}
	fills := r.fills()
	funding, err := report.Funding(bg, r.client, r.client.Address(), time.Time{})
	must(t, err)
	trips := report.Trips(fills, funding)
	if len(trips) != 2 {
		t.Fatalf("want 2 round trips, got %d: %+v", len(trips), trips)
	}
	long, short := trips[0], trips[1]
	if !long.Long || long.Open || !long.MaxSize.Equal(d("0.005")) || !long.SizeIn.Equal(d("0.005")) || !long.SizeOut.Equal(d("0.005")) {
		t.Errorf("long trip %+v", long)
	}
	if long.Adds != 3 || long.Closes != 2 || short.Adds != 0 || short.Closes != 1 || long.Fills != 6 || short.Fills != 2 {
		t.Errorf("open, adds, closes: long %d+%d of %d fills, short %d+%d of %d", long.Adds, long.Closes, long.Fills, short.Adds, short.Closes, short.Fills)
	}
	if short.Long || short.Open || !short.MaxSize.Equal(d("0.002")) || !short.SizeIn.Equal(d("0.002")) || !short.SizeOut.Equal(d("0.002")) {
		t.Errorf("short trip %+v", short)
	}
	pnl, fee, fund := decimal.Zero, decimal.Zero, decimal.Zero
	for _, f := range fills {
		pnl, fee = pnl.Add(f.ClosedPnl), fee.Add(f.Fee)
	}
	for _, p := range funding {
		fund = fund.Add(p.Payment)
	}
	if got := long.Realised.Add(short.Realised); !got.Equal(pnl) || pnl.IsZero() {
		t.Errorf("realised %s + %s, fills' closed_pnl %s", long.Realised, short.Realised, pnl)
	}
	if got := long.Fees.Add(short.Fees); !got.Equal(fee) {
		t.Errorf("fees %s + %s, fills' fees %s", long.Fees, short.Fees, fee)
	}
	if len(funding) < 2 || long.Funding.IsZero() || short.Funding.IsZero() {
		t.Errorf("funding: %d payments, long %s, short %s: want each trip's own", len(funding), long.Funding, short.Funding)
	}
	if got := long.Funding.Add(short.Funding); !got.Equal(fund) {
		t.Errorf("funding %s + %s, payments %s", long.Funding, short.Funding, fund)
	}
	days := report.Daily(fills, funding, 2, time.Now())
	if last := days[len(days)-1]; !last.Realised.Add(days[0].Realised).Equal(pnl) || last.Fills+days[0].Fills != len(fills) {
		t.Errorf("daily %+v, closed_pnl %s over %d fills", days, pnl, len(fills))
	}
}
