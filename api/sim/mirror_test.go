package sim

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

// mirrorEnv is a mirror of a live exchange on loopback: the live exchange is a quiet simulator
// with a fee schedule of its own, its book made by a live maker's orders; the mirror follows it.
type mirrorEnv struct {
	live  *env // the live exchange
	paper *env // the mirror, as paper accounts reach it
	mr    *Mirror
	maker *api.Client // the live maker
	taker *api.Client // a live trader who trades through the live book
	exch  atomic.Int64
}

func newMirrorEnv(t *testing.T) *mirrorEnv {
	t.Helper()
	return newMirrorEnvWith(t, MirrorConfig{}, false)
}

// newMirrorEnvWith is newMirrorEnv with a config of its own (Upstream is set here), and the
// live stream refused from the start when noStream.
func newMirrorEnvWith(t *testing.T, cfg MirrorConfig, noStream bool) *mirrorEnv {
	t.Helper()
	me := &mirrorEnv{}
	clock := NewTestClock(testStart)
	up := New(WithSeed(7), WithClock(clock), WithQuietMarkets(), WithFees(dec("-0.0002"), dec("0.0005")))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/exchange") {
			me.exch.Add(1)
		}
		up.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	me.live = &env{t: t, sim: up, clock: clock, srv: srv}
	me.maker, me.taker = me.live.client("live-maker"), me.live.client("live-taker")
	place(t, me.maker, limit(1, api.SideBuy, "97000", "0.5"), limit(1, api.SideBuy, "96990", "0.3"),
		limit(1, api.SideBuy, "96980", "1"), limit(1, api.SideSell, "97010", "0.2"), limit(1, api.SideSell, "97020", "0.5"))
	up.RefuseStreams(noStream)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	mclock := NewTestClock(testStart)
	cfg.Upstream = srv.URL
	mr, err := NewMirror(ctx, cfg, WithSeed(3), WithClock(mclock))
	if err != nil {
		t.Fatal(err)
	}
	msrv := httptest.NewServer(mr)
	t.Cleanup(msrv.Close)
	go mr.Run(ctx)
	me.mr, me.paper = mr, &env{t: t, sim: mr.Sim, clock: mclock, srv: msrv}
	waitFor(t, "the mirror follows the live stream", func() bool { return mr.Status().Live })
	return me
}

// waitFor polls ok until it holds (a 10 s bound on loopback work, not a timing assertion).
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatalf("never: %s", what)
}

func top(c *api.Client) string {
	b, err := c.BBO(ctx(), "BTC-PERP")
	if err != nil {
		return "error: " + err.Error()
	}
	return b.BidPrice.String() + "x" + b.BidSize.String() + " / " + b.AskPrice.String() + "x" + b.AskSize.String()
}

// sameTop waits until the mirror's best bid and ask (with sizes) are the live exchange's.
func (me *mirrorEnv) sameTop(t *testing.T, c *api.Client) {
	t.Helper()
	waitFor(t, "the mirror's top of book is the live one's", func() bool { return top(c) == top(me.maker) })
}

// tapeLen is how many trades the mirror's tape shows.
func tapeLen(t *testing.T, c *api.Client) int {
	ts, err := c.Trades(ctx(), "BTC-PERP", 200)
	if err != nil {
		t.Fatal(err)
	}
	return len(ts)
}

// TestMirrorFollowsAndWalksTheLiveBook: the mirror's top of book is the live one's, within one
// update; a paper market buy fills at the live ask levels with the live taker fee, and what it
// took is not there for a second paper buy until the live level changes; the live exchange gets
// no action from the mirror and no account of it moves.
func TestMirrorFollowsAndWalksTheLiveBook(t *testing.T) {
	t.Parallel()
	me := newMirrorEnv(t)
	alice, bob := me.paper.client("alice"), me.paper.client("bob")
	me.sameTop(t, alice)
	place(t, me.maker, limit(1, api.SideBuy, "97005", "0.05"))
	me.sameTop(t, alice)
	sentBefore := me.exch.Load()
	liveOrders := len(openOrders(t, me.maker))

	r := place(t, alice, api.OrderWire{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: "97100", Size: "0.3", Tif: api.TifIOC, IsMarket: true})
	if st := status(t, r); !st.TotalSize.Decimal.Equal(dec("0.3")) || !st.AvgPrice.Decimal.Round(2).Equal(dec("97013.33")) {
		t.Fatalf("alice's market buy: %+v, want 0.3 at 0.2@97010 + 0.1@97020", st)
	}
	fs := fillsOf(t, alice, alice.Address())
	fee := dec("0")
	for _, f := range fs {
		fee = fee.Add(f.Fee)
	}
	if want := dec("0.2").Mul(dec("97010")).Add(dec("0.1").Mul(dec("97020"))).Mul(dec("0.0005")); !fee.Equal(want) {
		t.Fatalf("alice paid %s in fees, want the live taker rate 0.05%%: %s", fee, want)
	}
	r = place(t, bob, api.OrderWire{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: "97100", Size: "0.15", Tif: api.TifIOC, IsMarket: true})
	if st := status(t, r); !st.AvgPrice.Decimal.Equal(dec("97020")) {
		t.Fatalf("bob's market buy: %+v, want 0.15 at 97020 (alice took 97010)", st)
	}
	if got := top(bob); !strings.HasSuffix(got, "97020x0.25") {
		t.Fatalf("the mirror's ask after two paper buys: %s, want 97020x0.25 left", got)
	}
	place(t, me.maker, limit(1, api.SideSell, "97010", "0.1")) // the live level changes: 0.3 there now
	me.sameTop(t, alice)
	if n := me.exch.Load() - sentBefore; n != 1 {
		t.Fatalf("the live exchange got %d /exchange requests, want only the live maker's 1: the mirror sends none", n)
	}
	if n := len(openOrders(t, me.maker)); n != liveOrders+1 {
		t.Fatalf("the live maker has %d open orders, want %d: paper trades take nothing live", n, liveOrders+1)
	}
	if fs := fillsOf(t, me.maker, me.maker.Address()); len(fs) != 0 {
		t.Fatalf("the live maker has fills %+v: paper trades must not fill live orders", fs)
	}
}

func openOrders(t *testing.T, c *api.Client) []api.OrderRecord {
	t.Helper()
	p, err := c.OpenOrders(ctx(), c.Address(), api.PageParams{Page: 1, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return p.Data
}

func sellIOC(size string) api.OrderWire {
	return api.OrderWire{InstrumentID: 1, Side: api.SideSell, PositionSide: api.PositionSideBoth, Price: "96000", Size: size, Tif: api.TifIOC}
}

// TestMirrorRestingPaperFillsOnlyThroughTheQueue: a paper bid under the live best bid does not
// fill while live trades print above it, nor with the volume that only consumed the queue ahead
// of it, and then fills for at most the size traded through it beyond that queue.
func TestMirrorRestingPaperFillsOnlyThroughTheQueue(t *testing.T) {
	t.Parallel()
	me := newMirrorEnv(t)
	alice := me.paper.client("alice")
	me.sameTop(t, alice)
	r := place(t, alice, limit(1, api.SideBuy, "96990", "0.2")) // 0.3 live ahead of it
	oid := status(t, r).Oid
	filled := func() string {
		var s = dec("0")
		for _, f := range fillsOf(t, alice, alice.Address()) {
			s = s.Add(f.Size)
		}
		return s.String()
	}
	step := func(size string, trades int, want string) {
		t.Helper()
		n := tapeLen(t, alice)
		place(t, me.taker, sellIOC(size))
		waitFor(t, "the mirror's tape shows the live trades", func() bool { return tapeLen(t, alice) >= n+trades })
		if got := filled(); got != want {
			t.Fatalf("after a live sell of %s: paper bid filled %s, want %s", size, got, want)
		}
	}
	step("0.4", 1, "0")   // 0.4 @ 97000: above the paper bid
	step("0.4", 2, "0")   // 0.1 @ 97000, 0.3 @ 96990: the queue ahead, no more
	step("0.1", 1, "0.1") // 0.1 @ 96980: through it, 0.1 traded beyond the queue
	step("0.3", 1, "0.2")
	for _, f := range fillsOf(t, alice, alice.Address()) {
		if !f.Price.Equal(dec("96990")) || f.Crossed || !f.Fee.Equal(f.Size.Mul(f.Price).Mul(dec("-0.0002"))) {
			t.Fatalf("paper fill %+v: want at its limit 96990, as maker, with the live maker rate -0.02%%", f)
		}
	}
	if oo := openOrders(t, alice); len(oo) != 0 {
		t.Fatalf("order %d is still open: %+v", oid, oo)
	}
}

// status is the one order status of a placeOrder answer.
func status(t *testing.T, r api.TxResponse) api.OrderStatus {
	t.Helper()
	st, err := r.OrderStatuses()
	if err != nil || len(st) != 1 {
		t.Fatalf("order statuses %v: %v", st, err)
	}
	return st[0]
}

// TestMirrorLatencyDelaysPaperActions: a paper order reaches the book only after the configured
// latency (a lower bound: a loaded machine only makes it later), and the live book it meets is
// the one of that moment: the live ask that came during the wait is what it buys.
func TestMirrorLatencyDelaysPaperActions(t *testing.T) {
	t.Parallel()
	const latency = 400 * time.Millisecond
	me := newMirrorEnvWith(t, MirrorConfig{Latency: latency}, false)
	alice := me.paper.client("alice")
	me.sameTop(t, alice)
	t0 := time.Now()
	done := make(chan api.OrderStatus, 1)
	go func() {
		r, err := alice.PlaceOrders(ctx(), []api.OrderWire{marketBuy("0.1")})
		st, _ := r.OrderStatuses()
		if err != nil || len(st) != 1 {
			st = []api.OrderStatus{{Error: fmt.Sprint(err)}}
		}
		done <- st[0]
	}()
	place(t, me.maker, limit(1, api.SideSell, "97004", "0.7"))
	// The mirror's ask is 97004: the live one's 0.7, or what the paper buy left of it when the
	// latency ran out before this loop looked (a loaded machine: the two tops never match again).
	waitFor(t, "the mirror shows the new live ask", func() bool {
		return strings.HasSuffix(top(me.maker), "97004x0.7") && strings.Contains(top(alice), " / 97004x")
	})
	seen := time.Since(t0) // the mirror had the new ask by then
	st := <-done
	if el := time.Since(t0); el < latency {
		t.Fatalf("the paper order was answered after %s, before the %s latency", el, latency)
	}
	// The order was sent after t0 and waited the latency: when the ask was in the mirror before
	// the latency ran out, the order met it (on a machine too loaded for that, nothing to check).
	if seen < latency && !st.AvgPrice.Decimal.Equal(dec("97004")) {
		t.Fatalf("the paper buy %+v did not meet the live ask that came during its latency", st)
	}
}

// TestMirrorPollsWithoutAStream: a live exchange whose stream cannot be used is polled over
// /info; every poll is a whole snapshot, and a level a paper buy used up stays used up while the
// live size there is unchanged.
func TestMirrorPollsWithoutAStream(t *testing.T) {
	t.Parallel()
	me := newMirrorEnvWith(t, MirrorConfig{StreamWait: 200 * time.Millisecond, Poll: 20 * time.Millisecond}, true)
	if st := me.mr.Status(); st.Source != "poll" {
		t.Fatalf("status %+v: want source poll", st)
	}
	alice, bob := me.paper.client("alice"), me.paper.client("bob")
	me.sameTop(t, alice)
	place(t, alice, marketBuy("0.2")) // all of 97010
	place(t, me.maker, limit(1, api.SideBuy, "97001", "0.1"))
	waitFor(t, "a poll after the paper buy", func() bool { return strings.HasPrefix(top(alice), "97001x0.1 ") })
	if st := status(t, place(t, bob, marketBuy("0.1"))); !st.AvgPrice.Decimal.Equal(dec("97020")) {
		t.Fatalf("bob's buy after polls: %+v, want 97020: alice used up 97010 and its live size did not change", st)
	}
}
