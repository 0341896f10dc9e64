package report_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/state/report"
)

// otherKey is a second fixed test key: another trader on the same market.
const otherKey = "8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63"

// other is a second trader on r's simulator, with its own journal.
func (r *rig) other() *rig {
	r.t.Helper()
	signer, err := api.SignerFromHex(otherKey)
	must(r.t, err)
	c := api.New(r.url, api.WithSigner(signer), api.WithClock(r.clock.Now))
	must(r.t, r.sim.Fund(c.Address(), sim.DefaultDemoBalance))
	j, err := journal.Open(filepath.Join(r.t.TempDir(), "other.db"))
	must(r.t, err)
	r.t.Cleanup(func() { _ = j.Close() })
	e, err := exec.New(exec.Config{Journal: j, Send: c, Read: c, Account: c.Address(), Skew: 50 * time.Millisecond,
		LookupWait: 10 * time.Millisecond, MaxLookupWait: 100 * time.Millisecond, LookupGrace: 5 * time.Second})
	must(r.t, err)
	return &rig{t: r.t, url: r.url, clock: r.clock, sim: r.sim, client: c, j: j, e: e}
}

// algoAmongOthers runs an algorithm on sym whose two children buy 0.1 each while another trader
// sells and buys 0.2, that trader trading before its start and after its end too; it returns the
// algorithm's id.
func algoAmongOthers(r *rig, sym string) string {
	t := r.t
	o := r.other()
	o.send(state.OrderIntent{Instrument: sym, Side: "buy", Size: "0.3"}) // before the start
	id, err := r.j.BeginAlgo(bg, journal.Algo{Kind: "twap", Params: []byte(`{}`)})
	must(t, err)
	r.clock.Add(time.Second)
	for i, who := range []*rig{r, o, r, o} {
		side, size := "buy", "0.1"
		if who == o {
			side, size = []string{"sell", "buy"}[i/2], "0.2"
		}
		in := state.OrderIntent{Instrument: sym, Side: side, Size: size}
		if who == r {
			n, err := r.j.NextChild(bg, id)
			must(t, err)
			in.Cloid, err = journal.ChildCloid(id, n)
			must(t, err)
		}
		who.send(in)
	}
	must(t, r.j.SetAlgo(bg, id, "done", "filled"))
	r.clock.Add(time.Second)
	o.send(state.OrderIntent{Instrument: sym, Side: "sell", Size: "0.5"}) // after the end
	return id
}

// TestAlgoAgainstTheIntervalsVWAP (issue #41): an algorithm whose two children bought while
// another trader bought and sold in the market is measured against the VWAP of every trade of
// the market in its interval (not those before its start or after its end), with its
// participation its filled size over that volume; a tape that does not reach back to the start
// gives the VWAP of what it covers and no participation. Guards: the VWAP taken over the whole
// tape, the algorithm's own fills left out of the market's volume, participation over 1.
func TestAlgoAgainstTheIntervalsVWAP(t *testing.T) {
	r := newRig(t)
	const sym = "ETH-PERP"
	id := algoAmongOthers(r, sym)

	a, _, err := r.j.GetAlgo(bg, id)
	must(t, err)
	arrivals, err := r.j.Arrivals(bg)
	must(t, err)
	st := r.store()
	c, ok := report.Algo(id, r.fills(), arrivals, ticksOf(st))
	if !ok || !c.Size.Equal(decimal.RequireFromString("0.2")) {
		t.Fatalf("algorithm card %+v", c)
	}
	tape, err := r.client.Trades(bg, sym, report.TapeLimit)
	must(t, err)
	from, to := report.Interval(a, r.clock.Now())
	vol, cost := decimal.Zero, decimal.Zero
	for _, tr := range tape {
		if !tr.Time.Before(from) && !tr.Time.After(to) {
			vol, cost = vol.Add(tr.Size), cost.Add(tr.Size.Mul(tr.Price))
		}
	}
	in, _ := st.Instrument(sym)
	if !c.AgainstMarket(tape, false, from, to, in.TickSize) {
		t.Fatal("no market trade in the interval")
	}
	m := c.Market
	if !vol.Equal(decimal.RequireFromString("0.6")) || !m.Volume.Equal(vol) || !m.VWAP.Equal(cost.Div(vol)) || !m.Covered {
		t.Fatalf("market %+v, want volume %s (the algorithm's 0.2 and the other's 0.4) at %s", m, vol, cost.Div(vol))
	}
	if want := c.Size.Div(vol); !m.Participation.Equal(want) || !m.VsVWAP.Known || !m.VsVWAP.Ref.Equal(m.VWAP) {
		t.Fatalf("participation %s (want %s), vs VWAP %+v", m.Participation, want, m.VsVWAP)
	}
	var recent []api.Trade
	for _, tr := range tape {
		if !tr.Time.Before(from.Add(2 * time.Second)) {
			recent = append(recent, tr)
		}
	}
	if !c.AgainstMarket(recent, false, from, to, in.TickSize) || c.Market.Covered || !c.Market.Participation.IsZero() {
		t.Fatalf("a short tape: %+v", c.Market)
	}
}

// TestAMakerFillsCard (issue #41): a resting limit buy inside the spread, filled by another
// trader's market sell, gives a card whose maker share is 1 (all its size filled as maker), its
// fee the fill's (a maker's rate), its average its limit price. Guards: the maker share counted
// from the taker's side (Crossed), a maker card at 0.
func TestAMakerFillsCard(t *testing.T) {
	r := newRig(t)
	o := r.other()
	const sym = "ETH-PERP"
	st := r.withBook(sym)
	b, err := r.client.OrderBook(bg, sym, 0)
	must(t, err)
	in, _ := st.Instrument(sym)
	price := b.Bids[0].Price.Add(in.TickSize)
	c, errs := r.e.Check(st, state.OrderIntent{Instrument: sym, Side: "buy", Type: state.Limit, Price: price.String(), Size: "0.05", Tif: api.TifGTC})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	res, err := r.e.Place(bg, c, exec.Ask{Who: journal.WhoHeadless, What: "rest", Confirmed: true})
	must(t, err)
	o.send(state.OrderIntent{Instrument: sym, Side: "sell", Size: "0.05"})
	arrivals, err := r.j.Arrivals(bg)
	must(t, err)
	var card report.Card
	for _, x := range report.Orders(r.fills(), arrivals, ticksOf(st)) {
		if x.OrderID == res.Outcome.Oid {
			card = x
		}
	}
	if card.Fills == 0 || !card.MakerShare.Equal(decimal.NewFromInt(1)) || !card.AvgPrice.Equal(price) || !card.Size.Equal(decimal.RequireFromString("0.05")) {
		t.Fatalf("maker card %+v, limit %s", card, price)
	}
	if !card.VsArrival.Known || card.VsPreview.Known {
		t.Errorf("a resting limit: vs arrival %+v, vs preview %+v (it walked no book)", card.VsArrival, card.VsPreview)
	}
}

// movedOn is the exchange's tape as it reads once the market has moved on: only the trades after
// since are still on it, and it is full (as long as asked for), the rest being later trades.
type movedOn struct {
	c     *api.Client
	since time.Time
}

func (m movedOn) Trades(ctx context.Context, symbol string, limit int) ([]api.Trade, error) {
	all, err := m.c.Trades(ctx, symbol, limit)
	var out []api.Trade
	for _, t := range all {
		if t.Time.After(m.since) {
			out = append(out, t)
		}
	}
	later := api.Trade{Instrument: symbol, Price: decimal.NewFromInt(1), Size: decimal.NewFromInt(1), Time: api.Time{Time: m.since.Add(24 * time.Hour)}}
	for len(out) < limit {
		out = append(out, later)
	}
	return out, err
}

// TestAlgoMarketKeptInTheJournal (issue #41): an ended algorithm's market, measured over a tape
// that covers its interval, is kept in the journal, and a later report whose tape has moved on
// reads it from there (the same VWAP and volume, participation known); a running algorithm's
// is not kept (its interval is not over), nor one over a tape that misses its start. Guards: the measure lost once the tape moves on, a
// partial (uncovered) measure kept as if whole.
func TestAlgoMarketKeptInTheJournal(t *testing.T) {
	r := newRig(t)
	o := r.other()
	const sym = "BTC-PERP"
	o.send(state.OrderIntent{Instrument: sym, Side: "buy", Size: "0.01"})
	id, err := r.j.BeginAlgo(bg, journal.Algo{Kind: "twap", Params: []byte(`{}`)})
	must(t, err)
	r.clock.Add(time.Second)
	n, err := r.j.NextChild(bg, id)
	must(t, err)
	child, err := journal.ChildCloid(id, n)
	must(t, err)
	r.send(state.OrderIntent{Instrument: sym, Side: "buy", Size: "0.002", Cloid: child})
	o.send(state.OrderIntent{Instrument: sym, Side: "sell", Size: "0.01"})
	st := r.store()
	in, _ := st.Instrument(sym)
	measure := func(tape report.Tape) report.Card {
		a, _, err := r.j.GetAlgo(bg, id)
		must(t, err)
		c, ok := report.Algo(id, r.fills(), nil, ticksOf(st))
		if !ok {
			t.Fatal("no card")
		}
		report.MeasureAlgo(bg, tape, r.j, a, &c, r.clock.Now(), in.TickSize)
		return c
	}
	if c := measure(r.client); c.Market == nil || !c.Market.Covered {
		t.Fatalf("running: %+v", c.Market)
	}
	if _, kept, _ := r.j.AlgoMarketOf(bg, id); kept {
		t.Fatal("a running algorithm's market was kept")
	}
	must(t, r.j.SetAlgo(bg, id, "done", "filled"))
	r.clock.Add(time.Second)
	a, _, err := r.j.GetAlgo(bg, id)
	must(t, err)
	if c := measure(movedOn{c: r.client, since: a.Created}); c.Market == nil || c.Market.Covered {
		t.Fatalf("a tape that misses the start: %+v", c.Market)
	}
	if _, kept, _ := r.j.AlgoMarketOf(bg, id); kept {
		t.Fatal("a measure of part of the interval was kept")
	}
	first := measure(r.client)
	if first.Market == nil || !first.Market.Covered || first.Market.Trades != 2 {
		t.Fatalf("ended: %+v", first.Market)
	}
	later := measure(movedOn{c: r.client, since: r.clock.Now()})
	if m := later.Market; m == nil || !m.Covered || !m.VWAP.Equal(first.Market.VWAP) || !m.Volume.Equal(first.Market.Volume) ||
		!m.Participation.Equal(first.Market.Participation) || !m.Participation.IsPositive() {
		t.Fatalf("after the tape moved on: %+v, first %+v", later.Market, first.Market)
	}
}
