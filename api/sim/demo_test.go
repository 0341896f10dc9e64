package sim

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api"
)

// seededDemo is a moving simulator (makers quote, as in the demo) with bob's account opened and
// seeded by SeedDemo, as the demo's is.
func seededDemo(t *testing.T) (*env, *api.Client) {
	t.Helper()
	e := newEnv(t)
	if err := e.sim.SeedDemo(nameAddr(t, "bob")); err != nil {
		t.Fatal(err)
	}
	return e, e.client("bob") // bob is known: the client adds no deposit
}

// The seeded demo wallet holds a BTC-PERP long in profit with a position take-profit and stop,
// an ETH-PERP short within 10% of its liquidation price (the positions pane's amber), and resting
// orders including a bracket entry with its two children; the books still balance to the unit.
// Guards a seed that writes a balance (the books would not balance) and a long bought at or
// above the mark (no profit).
func TestSeedDemo(t *testing.T) {
	t.Parallel()
	e, bob := seededDemo(t)
	s := summary(t, bob)
	byName := map[string]api.PositionSummary{}
	for name, p := range s.PerpPositions {
		byName[name] = p
	}
	btc, eth := byName["BTC-PERP"], byName["ETH-PERP"]
	if len(btc.Legs) != 1 || !btc.Legs[0].Size.IsPositive() || !btc.Upnl.IsPositive() {
		t.Errorf("BTC-PERP: want a long in profit, got %+v", btc)
	}
	if len(eth.Legs) != 1 || eth.Legs[0].Side == "" || !eth.LiquidationPrice.IsPositive() {
		t.Fatalf("ETH-PERP: want a short with a liquidation price, got %+v", eth)
	}
	ts, err := bob.Ticker(ctx(), "ETH-PERP")
	if err != nil || len(ts) != 1 {
		t.Fatal(err)
	}
	dist := eth.LiquidationPrice.Sub(ts[0].MarkPrice).Div(ts[0].MarkPrice)
	if !dist.IsPositive() || dist.GreaterThan(decimal.RequireFromString("0.1")) {
		t.Errorf("ETH-PERP short: liquidation %s is %s of the mark %s away, want within 10%%", eth.LiquidationPrice, dist, ts[0].MarkPrice)
	}
	t.Logf("BTC-PERP long uPnL %s; ETH-PERP short liquidation %s, %s%% from the mark %s", btc.Upnl, eth.LiquidationPrice,
		dist.Mul(decimal.NewFromInt(100)).StringFixed(2), ts[0].MarkPrice)
	open := openOf(t, bob)
	kinds := map[string]int{}
	for _, o := range open {
		kinds[o.Instrument+" "+o.Grouping+" "+o.Tpsl]++
	}
	want := map[string]int{"BTC-PERP  ": 1, "SOL-PERP  ": 1, "BTC-PERP position tp": 1, "BTC-PERP position sl": 1,
		"SOL-PERP normal ": 1, "SOL-PERP normal tp": 1, "SOL-PERP normal sl": 1}
	for k, n := range want {
		if kinds[k] != n {
			t.Errorf("open orders %q: %d, want %d (all: %v)", k, kinds[k], n, kinds)
		}
	}
	if len(fills(t, bob)) == 0 {
		t.Error("no fills")
	}
	b := checkBooks(t, e.sim)
	checkFlows(t, b, map[string]decimal.Decimal{"USDC": DefaultDemoBalance.Mul(decimal.NewFromInt(2))}, nil)
	e.sim.Advance(time.Minute) // the market moves on with it
	checkBooks(t, e.sim)
}

// The same seed gives the same demo: positions and orders alike.
func TestSeedDemoReproducible(t *testing.T) {
	t.Parallel()
	_, a := seededDemo(t)
	_, b := seededDemo(t)
	pa, pb := positions(t, a), positions(t, b)
	if len(pa) != 2 || len(pa) != len(pb) {
		t.Fatalf("positions %d and %d, want 2 each", len(pa), len(pb))
	}
	for i := range pa {
		if !pa[i].Size.Equal(pb[i].Size) || !pa[i].EntryPrice.Equal(pb[i].EntryPrice) {
			t.Errorf("position %d: %+v vs %+v", i, pa[i], pb[i])
		}
	}
}

// The seeded wallet opened its positions before the last funding time and was paid that funding
// by the exchange's own funding run: the long pays, the short receives, stamped on the hour, and
// the books still balance. A second seeded wallet does not make the exchange pay that hour twice.
// Guards a seed without funding (an empty funding view), a funding row written by hand (the
// books would not balance), a flipped sign, and a payment per seeded wallet.
func TestSeedDemoPaysFunding(t *testing.T) {
	t.Parallel()
	e, bob := seededDemo(t)
	pays := func(c *api.Client) map[api.InstrumentID]api.FundingPayment {
		p, err := c.FundingHistory(ctx(), "", api.PageParams{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[api.InstrumentID]api.FundingPayment{}
		for _, f := range p.Data {
			if _, dup := out[f.InstrumentID]; dup {
				t.Errorf("%s paid funding twice: %+v", c.Address(), p.Data)
			}
			out[f.InstrumentID] = f
		}
		return out
	}
	got := pays(bob)
	btc, eth := got[1], got[2]
	if len(got) != 2 || !btc.Payment.IsNegative() || !eth.Payment.IsPositive() {
		t.Fatalf("funding rows %+v: want the BTC-PERP long paying and the ETH-PERP short receiving", got)
	}
	if want := testStart.Truncate(time.Hour); !btc.Time.Equal(want) {
		t.Errorf("funding paid at %s, want the hour before the start, %s", btc.Time, want)
	}
	if f := fills(t, bob); len(f) == 0 || !f[len(f)-1].BlockTime.Before(btc.Time.Time) {
		t.Errorf("the wallet's first fill is not before the funding it was paid: %+v", f)
	}
	alice := e.client("alice")
	if err := e.sim.SeedDemo(alice.Address()); err != nil {
		t.Fatal(err)
	}
	if len(pays(alice)) != 0 {
		t.Errorf("the hour's funding was paid again for a second seeded wallet: %+v", pays(alice))
	}
	pays(bob)
	b := checkBooks(t, e.sim)
	checkFlows(t, b, map[string]decimal.Decimal{"USDC": DefaultDemoBalance.Mul(decimal.NewFromInt(4))}, nil)
}

// A wallet SeedDemo opens is funded through the exchange's deposit path before it trades: its
// two deposits of the demo balance (spot and derivatives) are dated before its first fill and
// its first funding, they are the only money that came in (the books balance), and its account
// history runs forward in time. Guards deposits dated at the start (after the fills and funding
// they paid for, the order the Transfers view showed), a balance written without a deposit (the
// books would not balance), and a second funding of a wallet already funded.
func TestSeedDemoDepositsBeforeItsFirstFill(t *testing.T) {
	t.Parallel()
	e, bob := seededDemo(t)
	xs, err := bob.TransferHistory(ctx(), "", 50)
	if err != nil {
		t.Fatal(err)
	}
	f := fills(t, bob)
	if len(xs) != 2 || len(f) == 0 {
		t.Fatalf("transfers %+v and %d fills: want the two deposits and fills", xs, len(f))
	}
	first := f[len(f)-1].BlockTime.Time // newest first
	for _, x := range xs {
		if x.Type != "deposit" || !x.Amount.Equal(DefaultDemoBalance) {
			t.Errorf("transfer %+v: want a deposit of %s", x, DefaultDemoBalance)
		}
		if !x.Time.Before(first) {
			t.Errorf("deposit dated %s, not before the first fill at %s", x.Time, first)
		}
	}
	hist, err := bob.AccountHistory(ctx(), "", 100)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(hist); i++ {
		if hist[i].Time.Before(hist[i-1].Time.Time) {
			t.Errorf("account history goes back in time at %d: %s after %s", i, hist[i].Time, hist[i-1].Time)
		}
	}
	if len(hist) == 0 || hist[0].Time.After(first) {
		t.Errorf("account history %+v: want its first point at the deposits, before the first fill", hist)
	}
	e.sim.Advance(time.Minute)
	b := checkBooks(t, e.sim)
	checkFlows(t, b, map[string]decimal.Decimal{"USDC": DefaultDemoBalance.Mul(decimal.NewFromInt(2))}, nil)
}
