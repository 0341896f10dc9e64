package algo

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// TestChasePriceRules: a buy chase rests at the bid, one tick inside the spread when aggressive
// and there is room (not when the spread is one tick), offset ticks further from the fill (stalk),
// never past its limit; its child follows only toward the fill (up for a buy, down for a sell),
// only once the quote moved Refresh ticks, and at most once per MinReprice.
func TestChasePriceRules(t *testing.T) {
	now := time.Date(2026, 11, 27, 1, 0, 0, 0, time.UTC)
	d := &Deps{Now: func() time.Time { return now }, MinReprice: time.Second}
	buy := &Chase{d: d, inst: btc, p: ChaseParams{Side: "buy"}}
	for _, c := range []struct {
		p                   ChaseParams
		bid, ask, want, why string
	}{
		{ChaseParams{Side: "buy"}, "97000", "97010", "97000", "at the bid"},
		{ChaseParams{Side: "buy", Aggressive: true}, "97000", "97010", "97000.1", "a tick inside"},
		{ChaseParams{Side: "buy", Aggressive: true}, "97000", "97000.1", "97000", "no room inside a one-tick spread"},
		{ChaseParams{Side: "buy", Offset: 2}, "97000", "97010", "96999.8", "two ticks off"},
		{ChaseParams{Side: "buy", Limit: dec("96990")}, "97000", "97010", "96990", "never past the limit"},
		{ChaseParams{Side: "sell", Offset: 2}, "97000", "97010", "97010.2", "a sell two ticks above the ask"},
		{ChaseParams{Side: "sell", Aggressive: true, Limit: dec("97009.95")}, "97000", "97010", "97009.95", "a sell never under its limit"},
	} {
		buy.p = c.p
		if got := buy.want(dec(c.bid), dec(c.ask)); !got.Equal(dec(c.want)) {
			t.Errorf("%s: %s, want %s", c.why, got, c.want)
		}
	}
	// An aggressive child that is the best bid itself does not outbid itself, a tick a reprice;
	// outbid by another, it goes one tick past that bid.
	buy.p = ChaseParams{Side: "buy", Aggressive: true}
	buy.live = &child{price: dec("97000.1")}
	if got := buy.want(dec("97000.1"), dec("97010")); !got.Equal(dec("97000.1")) || buy.follows(got) {
		t.Errorf("an aggressive buy resting at the best bid wants %s (follows %v), want it to stay at 97000.1", got, buy.follows(got))
	}
	if got := buy.want(dec("97000.5"), dec("97010")); !got.Equal(dec("97000.6")) {
		t.Errorf("an aggressive buy outbid at 97000.5 wants %s, want 97000.6", got)
	}
	sell := &Chase{d: d, inst: btc, p: ChaseParams{Side: "sell", Aggressive: true}, live: &child{price: dec("97009.9")}}
	if got := sell.want(dec("97000"), dec("97009.9")); !got.Equal(dec("97009.9")) {
		t.Errorf("an aggressive sell resting at the best ask wants %s, want it to stay at 97009.9", got)
	}
	buy.live = nil
	buy.p = ChaseParams{Side: "buy", Refresh: 3}
	buy.live = &child{price: dec("97000")}
	buy.lastMove = now.Add(-2 * time.Second)
	for _, c := range []struct {
		px   string
		want bool
		why  string
	}{
		{"96990", false, "away from the fill"},
		{"97000.2", false, "two ticks: under the refresh"},
		{"97000.3", true, "three ticks toward the fill"},
	} {
		if got := buy.follows(dec(c.px)); got != c.want {
			t.Errorf("buy at 97000 to %s (%s): follows %v", c.px, c.why, got)
		}
	}
	buy.lastMove = now.Add(-500 * time.Millisecond)
	if buy.follows(dec("97010")) {
		t.Error("a second reprice within MinReprice")
	}
	sell = &Chase{d: d, inst: btc, p: ChaseParams{Side: "sell"}, live: &child{price: dec("97010")}}
	if !sell.follows(dec("97009.9")) || sell.follows(dec("97010.1")) {
		t.Error("a sell follows only down, toward the fill")
	}
}

// TestAStoppedChaseKeepsItsChildWhenAsked: a chase with keep, stopped before it filled, ends
// stopped with its last child resting at the exchange and says so; without keep the child is
// cancelled.
func TestAStoppedChaseKeepsItsChildWhenAsked(t *testing.T) {
	t.Parallel() // its own simulator and journal
	// A still book: in a live one the simulator's own takers could fill the child before it was
	// seen resting, and the loop below, waiting for a live child of a chase already done, spun.
	r := newRig(t, true)
	r.stillBook(t, "kp-quote")
	for _, keep := range []bool{true, false} {
		id := map[bool]string{true: "kp-1", false: "kp-2"}[keep]
		c, err := NewChase(bg, r.deps(nil), id, ChaseParams{Instrument: "BTC-PERP", Side: "buy", Size: dec("0.002"), Offset: 500, Keep: keep})
		must(t, err)
		for c.live == nil {
			st, err := c.step(bg)
			must(t, err)
			if st != "" {
				t.Fatalf("keep %v: the chase ended %s before its child was seen resting", keep, st)
			}
		}
		ctx, cancel := context.WithCancel(bg)
		cancel() // the trader's stop
		p, err := c.Run(ctx)
		open, _ := r.orders(id + "-")
		if err != nil || p.State != StateStopped {
			t.Fatalf("keep %v: %+v %v", keep, p, err)
		}
		if keep && (len(open) != 1 || !strings.Contains(p.Detail, "kept "+open[0].Cloid)) || !keep && len(open) != 0 {
			t.Fatalf("keep %v: %d open, detail %q", keep, len(open), p.Detail)
		}
	}
}

// TestTWAPSlicesOf: a TWAP's slices are the number given, or one every interval (rounded up: the
// last slice shorter), or one a minute; both given, or more than 1000, is refused saying why.
func TestTWAPSlicesOf(t *testing.T) {
	for _, c := range []struct {
		dur, every time.Duration
		slices     int
		want       int
		bad        string
	}{
		{30 * time.Minute, 0, 12, 12, ""},
		{30 * time.Minute, 0, 0, 30, ""},
		{30 * time.Minute, 7 * time.Minute, 0, 5, ""},
		{10 * time.Second, 0, 0, 1, ""},
		{30 * time.Minute, time.Minute, 5, 0, "not both"},
		{time.Hour, time.Second, 0, 0, "1 to 1000"},
	} {
		got, err := SlicesOf(c.dur, c.slices, c.every)
		if c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)) || c.bad == "" && (err != nil || got != c.want) {
			t.Errorf("%s every %s slices %d: %d %v", c.dur, c.every, c.slices, got, err)
		}
	}
}

// bookBefore is the market whose book is the one read before the ask in it was withdrawn: the
// TWAP prices its IOC on it, and the IOC reaches an exchange where it matches nothing.
type bookBefore struct {
	Market
	b api.OrderBook
}

func (m bookBefore) OrderBook(context.Context, string, int) (api.OrderBook, error) {
	b := m.b
	b.Time.Time = time.Now()
	return b, nil
}

// TestAnIOCThatMatchesNothingIsANoFill: a TWAP slice's IOC priced on an ask that is gone by the
// time it arrives matches nothing: an ordinary no-fill, not an error. The TWAP goes on to its last
// slice and its retries and ends expired with nothing filled and no failure.
func TestAnIOCThatMatchesNothingIsANoFill(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, true)
	must(t, r.sim.SetIndexPrice("BTC-PERP", dec("97000")))
	_, err := r.taker.PlaceOrders(bg, []api.OrderWire{{InstrumentID: 1, Side: api.SideSell, PositionSide: api.PositionSideBoth,
		Price: "97010", Size: "0.002", Tif: api.TifGTC, Cloid: "nf-ask"}, {InstrumentID: 1, Side: api.SideBuy,
		PositionSide: api.PositionSideBoth, Price: "96000", Size: "0.002", Tif: api.TifGTC, Cloid: "nf-bid"}})
	must(t, err)
	d := r.deps(nil)
	b, err := d.Market.OrderBook(bg, "BTC-PERP", 20)
	must(t, err)
	_, err = r.taker.CancelByCloid(bg, []api.CancelCloid{{InstrumentID: 1, Cloid: "nf-ask"}})
	must(t, err)
	d.Market = bookBefore{d.Market, b}
	tw, err := NewTWAP(bg, d, "nf-1", TWAPParams{Instrument: "BTC-PERP", Side: "buy", Size: dec("0.002"), Duration: 100 * time.Millisecond,
		Slices: 2, BandLo: dec("96000"), BandHi: dec("98000")})
	must(t, err)
	p, err := tw.Run(bounded(t))
	_, all := r.orders("nf-1-")
	if err != nil || p.State != StateExpired || !p.Filled.IsZero() || len(all) == 0 {
		t.Fatalf("%+v %v, %d IOCs at the exchange", p, err, len(all))
	}
	for _, o := range all {
		if o.Tif != api.TifIOC || !o.Unfilled.Equal(o.Size) {
			t.Fatalf("a slice that is not an unfilled IOC: %+v", o)
		}
	}
}
