package algo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// TestATWAPFillsItsSizeInSlices: a buy TWAP of 0.01 over a second in 5 slices, in a market that
// moves between its slices, ends done with exactly its size filled, as the sum of its slices'
// fills, in at most 5 IOC orders (and the last slice's retries); its schedule's slices add up to
// the size, randomised or not. The market moves at the TWAP's book reads (stepOnReads): with the
// simulator's own loop, a loaded machine had most slices meet a book that moved away from the
// price they were given, and the TWAP expired at 0.004 of 0.01 after its retries.
func TestATWAPFillsItsSizeInSlices(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, false)
	r.stepOnReads()
	d := r.deps(nil)
	size := dec("0.01")
	tw, err := NewTWAP(bg, d, "tw-1", TWAPParams{Instrument: "BTC-PERP", Side: "buy", Size: size, Duration: time.Second, Slices: 5})
	must(t, err)
	p, err := tw.Run(bounded(t))
	if err != nil || p.State != StateDone || !p.Filled.Equal(size) || !r.filledOf("tw-1-").Equal(p.Filled) || p.Children > 5+lastTries {
		t.Fatalf("%+v %v (at the exchange %s)", p, err, r.filledOf("tw-1-"))
	}
	_, all := r.orders("tw-1-")
	for _, o := range all {
		if o.Tif != api.TifIOC {
			t.Fatalf("a slice that is not IOC: %+v", o)
		}
	}
	for _, rnd := range []bool{false, true} {
		cum := schedule(TWAPParams{Size: dec("1.0003"), Slices: 7, Randomize: rnd, Seed: 9}, btc.LotSize)
		for i := 1; i < len(cum); i++ {
			if cum[i].LessThan(cum[i-1]) {
				t.Fatalf("the schedule goes back: %v", cum)
			}
		}
		if !cum[6].Equal(dec("1.0003")) {
			t.Fatalf("the last slice is not the whole size: %v", cum)
		}
	}
}

// TestATWAPOutsideItsBandSendsNothing: a buy TWAP whose band lies under the market skips every
// slice (nothing is sent) and ends expired saying the band could not fill it.
func TestATWAPOutsideItsBandSendsNothing(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, false)
	d := r.deps(nil)
	tw, err := NewTWAP(bg, d, "tw-2", TWAPParams{Instrument: "BTC-PERP", Side: "buy", Size: dec("0.01"), Duration: 300 * time.Millisecond,
		Slices: 3, BandLo: dec("50000"), BandHi: dec("60000")})
	must(t, err)
	p, err := tw.Run(bounded(t))
	if _, all := r.orders("tw-2-"); err != nil || p.State != StateExpired || !p.Filled.IsZero() || len(all) != 0 || p.Slices != 3 {
		t.Fatalf("%+v %v, %d orders", p, err, len(all))
	}
}

// staleBook is a market whose book is a minute old.
type staleBook struct{ Market }

func (s staleBook) OrderBook(ctx context.Context, sym string, n int) (api.OrderBook, error) {
	b, err := s.Market.OrderBook(ctx, sym, n)
	b.Time.Time = time.Now().Add(-time.Minute)
	return b, err
}

// TestATWAPPausesOnAStaleBook: with a book a minute old the TWAP spends no slice: stopped, it has
// sent nothing and says it was paused.
func TestATWAPPausesOnAStaleBook(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, false)
	d := r.deps(nil)
	tw, err := NewTWAP(bg, d, "tw-3", TWAPParams{Instrument: "BTC-PERP", Side: "buy", Size: dec("0.01"), Duration: 200 * time.Millisecond, Slices: 2})
	must(t, err)
	d.Market = staleBook{d.Market}
	ctx, cancel := context.WithTimeout(bg, 500*time.Millisecond)
	defer cancel()
	p, err := tw.Run(ctx)
	if _, all := r.orders("tw-3-"); err != nil || p.State != StateStopped || len(all) != 0 || p.Slices != 0 {
		t.Fatalf("%+v %v, %d orders", p, err, len(all))
	}
}

// TestAKilledTWAPResumesToExactlyItsSize: TWAPs killed at a random action and resumed by a new
// process end done at exactly their size, no client id twice. They run one after another on one
// simulator whose market moves at their book reads (stepOnReads): a slice is an IOC priced on the
// book it read, and with the simulator's own loop an answer on a loaded machine came later than
// the market's 50 ms step, so the resumed TWAP's last slice missed all six tries ("the band could
// not fill", seen at load 15, and again at load 27 with the TWAPs one after another).
func TestAKilledTWAPResumesToExactlyItsSize(t *testing.T) {
	t.Parallel() // its own simulator and journal
	type kill struct {
		size    decimal.Decimal
		at      int32
		deliver bool
	}
	rng := rand.New(rand.NewPCG(6, 6))
	kills := make([]kill, 8)
	for i := range kills {
		size := decimal.New(int64(60+rng.IntN(60)), -4)
		kills[i] = kill{size: size, at: int32(1 + rng.IntN(4)), deliver: rng.IntN(2) == 0}
	}
	acrossSims(t, len(kills), 1, func(t *testing.T, r *rig, _ int) func(int) {
		r.stepOnReads()
		return func(i int) { r.killTWAP(t, fmt.Sprintf("kt-%d", i), kills[i].size, kills[i].at, kills[i].deliver) }
	})
}

// killTWAP runs TWAP id of size in a process killed at its at-th action (delivered or not),
// resumes it in a new one when it was killed, and checks it filled exactly its size.
func (r *rig) killTWAP(t *testing.T, id string, size decimal.Decimal, at int32, deliver bool) {
	t.Helper()
	net := &crashNet{Client: r.trader, r: r, at: at, deliver: deliver}
	r.send = net
	d := r.deps(nil)
	d.Read, d.Market = net, deadMarket{m: r.market, net: net}
	tw, err := NewTWAP(bg, d, id, TWAPParams{Instrument: "BTC-PERP", Side: "buy", Size: size, Duration: 400 * time.Millisecond, Slices: 5, Randomize: true})
	must(t, err)
	p, err := tw.Run(bounded(t))
	if net.dead.Load() {
		r.reopen()
		r.send = r.trader
		d = r.deps(nil)
		run, err := Running(bg, d)
		if err != nil || len(run) != 1 {
			t.Fatalf("%s: %+v %v", id, run, err)
		}
		rn, _, err := Restart(bg, d, run[0], OnRestartResume)
		must(t, err)
		p, err = rn.Run(bounded(t))
		must(t, err)
	} else {
		must(t, err)
	}
	if p.State != StateDone || !p.Filled.Equal(size) || !r.filledOf(id+"-").Equal(size) {
		_, all := r.orders(id + "-")
		for _, o := range all {
			t.Logf("%s %s %s %s unfilled %s", o.Cloid, o.State, o.LimitPrice, o.Size, o.Unfilled)
		}
		t.Logf("killed %v at %d deliver %v", net.dead.Load(), net.at, net.deliver)
		t.Fatalf("%s: %+v (at the exchange %s)", id, p, r.filledOf(id+"-"))
	}
	r.onceEach(t, id+"-")
}
