package exec

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/state/risk"
)

// stepClock is a test's clock, stepped by hand.
type stepClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *stepClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *stepClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// riskExecutor is an executor on the rig's journal with limits l and clock c.
func (r *rig) riskExecutor(l risk.Limits, c *stepClock) *Executor {
	r.t.Helper()
	e, err := New(Config{Journal: r.j, Send: r.client, Read: r.client, Account: r.client.Address(), Limits: l, Now: c.Now,
		LookupWait: 10 * time.Millisecond, MaxLookupWait: 100 * time.Millisecond})
	must(r.t, err)
	return e
}

// market is a checked market order of size BTC-PERP.
func (r *rig) market(e *Executor, side, size string, reduce bool) Checked {
	r.t.Helper()
	ps, err := r.client.Positions(bg, r.client.Address())
	must(r.t, err)
	r.st.Apply(state.PositionsMsg{At: time.Now(), Positions: ps})
	c, errs := e.Check(r.st, state.OrderIntent{Instrument: "BTC-PERP", Side: side, Type: state.Market, Size: size, ReduceOnly: reduce, Cloid: state.NewCloid()})
	if len(errs) > 0 {
		r.t.Fatalf("check %s %s: %v", side, size, errs)
	}
	return c
}

// makerKey is the counterparty's test key (never a real one).
const makerKey = "8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63"

// maker has a second account rest a sell and a buy of 1 BTC-PERP half a percent either side of
// the mid: the quiet market's only liquidity, so fills are at known prices.
func (r *rig) maker() {
	r.t.Helper()
	signer, err := api.SignerFromHex(makerKey)
	must(r.t, err)
	c := api.New(r.client.BaseURL(), api.WithSigner(signer))
	must(r.t, r.sim.Fund(c.Address(), sim.DefaultDemoBalance))
	j, err := journal.Open(journal.Path(r.t.TempDir(), "sim", c.Address()))
	must(r.t, err)
	r.t.Cleanup(func() { _ = j.Close() })
	e, err := New(Config{Journal: j, Send: c, Read: c, Account: c.Address()})
	must(r.t, err)
	mid, _ := r.st.Mid("BTC-PERP")
	in, _ := r.st.Instrument("BTC-PERP")
	for _, q := range []struct{ side, f string }{{"sell", "1.005"}, {"buy", "0.995"}} {
		px := state.FloorToStep(mid.Mul(decimal.RequireFromString(q.f)), in.TickSize)
		ch, errs := e.Check(r.st, state.OrderIntent{Instrument: "BTC-PERP", Side: q.side, Type: state.Limit, Price: px.String(), Size: "1", Tif: api.TifGTC, Cloid: state.NewCloid()})
		if len(errs) > 0 {
			r.t.Fatalf("maker %s: %v", q.side, errs)
		}
		if res := place(r.t, e, ch); res.Kind != Placed {
			r.t.Fatalf("maker %s: %+v", q.side, res)
		}
	}
	r.st = r.store()
}

func place(t *testing.T, e *Executor, c Checked) Result {
	t.Helper()
	res, err := e.Place(bg, c, Ask{Who: journal.WhoHeadless, What: "test", Confirmed: true})
	must(t, err)
	return res
}

// TestALosingRoundPutsTheAccountInReducing: with max_daily_loss set, a losing round of trades
// puts the account in REDUCING: an opening order is refused with the reason (a typed yes does not
// override it), nothing of it journaled; a close still goes; the state survives a restart and
// clears the next UTC day.
func TestALosingRoundPutsTheAccountInReducing(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	clock := &stepClock{t: time.Now().UTC()}
	r.maker()
	// The round: 0.02 bought half a percent over the mid, 0.01 sold half a percent under it
	// (about 1 % of 0.01 BTC lost), 0.01 held under its entry.
	limits := risk.Limits{risk.DailyLoss: r.midTimes("0.01").Mul(decimal.RequireFromString("0.01"))}
	e := r.riskExecutor(limits, clock)
	if res := place(t, e, r.market(e, "buy", "0.02", false)); res.Kind != Filled {
		t.Fatalf("open: %+v", res)
	}
	if res := place(t, e, r.market(e, "sell", "0.01", true)); res.Kind != Filled {
		t.Fatalf("half the position closed: %+v", res)
	}
	before, _ := r.j.Recent(bg, 100)
	open := place(t, e, r.market(e, "buy", "0.001", false))
	if open.Kind != Refused || open.Sent || !strings.Contains(open.Reason, "REDUCING") || !strings.Contains(open.Reason, "max_daily_loss") {
		t.Fatalf("an opening order while the day's loss is over the limit: %+v", open)
	}
	if after, _ := r.j.Recent(bg, 100); len(after) != len(before) {
		t.Fatalf("a refused order was journaled: %d then %d intents", len(before), len(after))
	}
	if s, why, err := e.Risk().State(bg); s != risk.Reducing || err != nil {
		t.Fatalf("state %s (%s) %v", s, why, err)
	}
	if err := e.Risk().Resume(bg); err == nil {
		t.Fatal("resumed while a loss limit has tripped")
	}
	if res := place(t, e, r.market(e, "sell", "0.005", true)); res.Kind != Filled {
		t.Fatalf("a close while REDUCING: %+v", res)
	}
	// A restart: the journal opened again, a new executor with the same limits.
	r.reopen()
	e = r.riskExecutor(limits, clock)
	if s, _, _ := e.Risk().State(bg); s != risk.Reducing {
		t.Fatalf("after a restart the state is %s", s)
	}
	if res := place(t, e, r.market(e, "sell", "0.01", false)); res.Kind != Refused {
		t.Fatalf("a sell that flips the position while REDUCING: %+v", res)
	}
	y, m, d := clock.Now().Date()
	clock.Add(time.Date(y, m, d+1, 0, 0, 1, 0, time.UTC).Sub(clock.Now()))
	if s, why, _ := e.Risk().State(bg); s != risk.Active {
		t.Fatalf("the next UTC day the state is %s (%s)", s, why)
	}
	if res := place(t, e, r.market(e, "buy", "0.001", false)); res.Kind != Filled {
		t.Fatalf("an opening order the next day: %+v", res)
	}
}

// TestABuyIsValuedAtTheMarketNotItsLimit: a buy limit far under the market is valued at the best
// ask (it can fill there), so a cap its own price would pass refuses it; an order under the cap
// goes.
func TestABuyIsValuedAtTheMarketNotItsLimit(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	clock := &stepClock{t: time.Now().UTC()}
	mid, _ := r.st.Mid("BTC-PERP")
	// The cap sits between the order at half the mid and the order at the market.
	limits := risk.Limits{risk.OrderNotional: mid.Mul(decimal.RequireFromString("0.0015")).Round(0)}
	e := r.riskExecutor(limits, clock)
	low := state.FloorToStep(mid.Div(decimal.NewFromInt(2)), decimal.NewFromInt(1))
	c, errs := e.Check(r.st, state.OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: state.Limit, Price: low.String(), Size: "0.002", Tif: api.TifGTC, Cloid: state.NewCloid()})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if res := place(t, e, c); res.Kind != Refused || !strings.Contains(res.Reason, "max_order_notional") {
		t.Fatalf("a buy valued at its own low price passed: %+v", res)
	}
	if res := place(t, e, r.bid(e, state.NewCloid(), api.TifGTC)); res.Kind != Placed {
		t.Fatalf("an order under the cap: %+v", res)
	}
}

// TestHaltedRefusesEveryOrderButCancels: a halt (from another process: the same journal) refuses
// every order, a bracket, a batch and a move alike (the moved order stays); a cancel goes; resume lets orders through again.
func TestHaltedRefusesEveryOrderButCancels(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	clock := &stepClock{t: time.Now().UTC()}
	e := r.riskExecutor(nil, clock)
	resting := place(t, e, r.bid(e, state.NewCloid(), api.TifGTC))
	other := r.riskExecutor(nil, clock)
	must(t, other.Risk().Halt(bg, "a break"))
	if res := place(t, e, r.bid(e, state.NewCloid(), api.TifGTC)); res.Kind != Refused || !strings.Contains(res.Reason, "HALTED (a break)") {
		t.Fatalf("an order while HALTED: %+v", res)
	}
	b, err := e.PlaceBatch(bg, []Checked{r.bid(e, state.NewCloid(), api.TifGTC)}, Ask{Who: journal.WhoHeadless, Confirmed: true})
	if err != nil || b.Kind != Refused {
		t.Fatalf("a batch while HALTED: %+v %v", b, err)
	}
	mid, _ := r.st.Mid("BTC-PERP")
	in, _ := r.st.Instrument("BTC-PERP")
	entry := r.bid(e, state.NewCloid(), api.TifGTC).Order()
	bi := state.BracketIntent{Entry: state.OrderIntent{Instrument: "BTC-PERP", Side: "buy", Type: state.Limit, Price: entry.Price.String(), Size: "0.001", Tif: api.TifGTC, Cloid: state.NewCloid()},
		TakeProfit: state.FloorToStep(mid.Mul(decimal.RequireFromString("1.05")), in.TickSize).String(),
		StopLoss:   state.FloorToStep(mid.Mul(decimal.RequireFromString("0.9")), in.TickSize).String()}
	cb, errs := e.CheckBracket(r.st, bi)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if br, err := e.PlaceBracket(bg, cb, Ask{Who: journal.WhoHeadless, Confirmed: true}); err != nil || br.Kind != Refused || len(br.Legs) != 0 {
		t.Fatalf("a bracket while HALTED: %+v %v", br, err)
	}
	old, err := r.client.OpenOrders(bg, r.client.Address(), api.PageParams{})
	must(t, err)
	mv, err := e.Modify(bg, old.Data[0], r.bid(e, state.NewCloid(), api.TifGTC), Ask{Who: journal.WhoHeadless, Confirmed: true})
	if err != nil || mv.Cancel.ID != "" || mv.Place == nil || mv.Place.Kind != Refused || !strings.Contains(mv.Stopped, "HALTED") {
		t.Fatalf("a move while HALTED (the old order must stay): %+v %v", mv, err)
	}
	if c, err := e.Cancel(bg, Cancel{InstrumentID: 1, Cloid: resting.Cloid}, Ask{Who: journal.WhoHeadless}); err != nil || c.Kind != Cancelled {
		t.Fatalf("a cancel while HALTED: %+v %v", c, err)
	}
	must(t, e.Risk().Resume(bg))
	if res := place(t, e, r.bid(e, state.NewCloid(), api.TifGTC)); res.Kind != Placed {
		t.Fatalf("after resume: %+v", res)
	}
}

// TestTheOrderRateIsRefusedNotQueued: max_orders_per_minute = 2 lets two orders through and
// refuses the third at once; a minute later one goes again.
func TestTheOrderRateIsRefusedNotQueued(t *testing.T) {
	t.Parallel() // owns its simulator, journal and executor
	r := newRig(t)
	clock := &stepClock{t: time.Now().UTC()}
	e := r.riskExecutor(risk.Limits{risk.OrdersPerMinute: decimal.NewFromInt(2)}, clock)
	for i := range 2 {
		if res := place(t, e, r.bid(e, state.NewCloid(), api.TifGTC)); res.Kind != Placed {
			t.Fatalf("order %d: %+v", i+1, res)
		}
	}
	if res := place(t, e, r.bid(e, state.NewCloid(), api.TifGTC)); res.Kind != Refused || !strings.Contains(res.Reason, "max_orders_per_minute") {
		t.Fatalf("the third order in a minute: %+v", res)
	}
	clock.Add(31 * time.Second)
	if res := place(t, e, r.bid(e, state.NewCloid(), api.TifGTC)); res.Kind != Placed {
		t.Fatalf("half a minute later: %+v", res)
	}
}

// midTimes is BTC-PERP's mid times f.
func (r *rig) midTimes(f string) decimal.Decimal {
	mid, _ := r.st.Mid("BTC-PERP")
	return mid.Mul(decimal.RequireFromString(f))
}
