package alert

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
)

// simKeyHex is a fixed test key (never a real account).
const simKeyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"

type simEnv struct {
	url    string
	sim    *sim.Sim
	client *api.Client
	clock  *sim.TestClock
	store  *state.Store
}

func newSimEnv(t *testing.T, funds int64) *simEnv {
	t.Helper()
	clock := sim.NewTestClock(t0)
	s := sim.New(sim.WithSeed(7), sim.WithClock(clock))
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	signer, err := api.SignerFromHex(simKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Fund(signer.Address(), decimal.NewFromInt(funds)); err != nil {
		t.Fatal(err)
	}
	c := api.New(srv.URL+"/", api.WithSigner(signer), api.WithClock(clock.Now), api.WithRetry(api.RetryPolicy{Attempts: 1}))
	return &simEnv{url: srv.URL, sim: s, client: c, clock: clock, store: state.New(clock.Now)}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// load polls what the alerts read into the store, as the feed does, and returns the messages.
func (e *simEnv) load(t *testing.T) []state.Msg {
	t.Helper()
	ctx, c, user := context.Background(), e.client, e.client.Address()
	ins, err := c.Instruments(ctx, "all")
	must(t, err)
	ts, err := c.Ticker(ctx, "")
	must(t, err)
	a, err := c.AccountSummary(ctx, user)
	must(t, err)
	ps, err := c.Positions(ctx, user)
	must(t, err)
	fs, err := c.Fills(ctx, user, api.PageParams{})
	must(t, err)
	os, err := c.OpenOrders(ctx, user, api.PageParams{})
	must(t, err)
	lev, err := c.InstrumentLeverage(ctx, user, "BTC-PERP")
	must(t, err)
	msgs := []state.Msg{state.InstrumentsMsg{Instruments: ins}, state.LeverageMsg{Leverage: lev}, state.TickersMsg{Tickers: ts}, state.AccountMsg{Summary: a},
		state.PositionsMsg{Positions: ps}, state.FillsMsg{Page: fs}, state.OrdersMsg{Orders: os.Data}}
	for _, m := range msgs {
		e.store.Apply(m)
	}
	return msgs
}

// market sends a market order through the preview's check, as the console does.
func (e *simEnv) market(t *testing.T, symbol, side, size string) {
	t.Helper()
	e.load(t)
	co, errs := e.store.CheckOrder(state.OrderIntent{Instrument: symbol, Side: side, Type: state.Market, Size: size}, state.Guard{})
	if len(errs) > 0 {
		t.Fatalf("%s %s %s: %v", side, size, symbol, errs)
	}
	_, err := e.client.PlaceOrders(context.Background(), []api.OrderWire{co.Wire})
	must(t, err)
}

// TestALiquidationAlertReassertsAtStart (issue #37): a 20x BTC long on the
// simulator using its whole margin is under 5% from liquidation; `btc liq < 5%` fires on the first
// check (a start re-asserts), names the exchange as the price's source, and a new engine (a
// restart) fires it again; `btc liq < 0.5%` does not. Mutant alert/liq-estimate-first.
func TestALiquidationAlertReassertsAtStart(t *testing.T) {
	e := newSimEnv(t, 5000)
	must(t, e.sim.SetLeverage(e.client.Address(), "BTC-PERP", api.MarginCross, decimal.NewFromInt(20)))
	e.market(t, "BTC-PERP", "b", "0.95")
	msgs := e.load(t)
	l, ok := e.store.PositionLiquidation("BTC-PERP")
	if !ok || l.Source != state.LiqFromExchange || !l.Distance.IsPositive() {
		t.Fatalf("no liquidation distance: %+v", l)
	}
	t.Logf("20x long: liquidation %s, %s%% from the mark %s (%s)", l.Price, l.Distance.StringFixed(2), l.Mark, l.Source)
	for range 2 { // the process starts twice: each start says it once
		eng := New()
		eng.Set([]Rule{mustParse(t, "btc liq < 5%"), mustParse(t, "btc liq < 0.5%")})
		evs := eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, msgs...)
		if len(evs) != 1 || evs[0].Source != state.LiqFromExchange || evs[0].Instrument != "BTC-PERP" ||
			!strings.Contains(evs[0].Text, "exchange price") {
			t.Fatalf("at start: %+v", evs)
		}
		if evs := eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, msgs...); len(evs) != 0 {
			t.Fatalf("said twice: %+v", evs)
		}
	}
}

// TestALiquidationEstimateSaysSo: without the exchange's liquidation price (null in the summary),
// the distance is tradedesk's own estimate by the preview's rule, and the alert says "estimate"
// (its source field and its text).
func TestALiquidationEstimateSaysSo(t *testing.T) {
	e := newSimEnv(t, 5000)
	must(t, e.sim.SetLeverage(e.client.Address(), "BTC-PERP", api.MarginCross, decimal.NewFromInt(20)))
	e.market(t, "BTC-PERP", "b", "0.3")
	e.load(t)
	want, _ := e.store.PositionLiquidation("BTC-PERP")
	a := e.store.Account()
	ps := a.PerpPositions["BTC-PERP"]
	ps.LiquidationPrice = decimal.Zero
	a.PerpPositions = map[string]api.PositionSummary{"BTC-PERP": ps}
	e.store.Apply(state.AccountMsg{Gen: 99, Summary: a})
	got, ok := e.store.PositionLiquidation("BTC-PERP")
	if !ok || got.Source != state.LiqFromEstimate || got.Price.Sub(want.Price).Abs().GreaterThan(decimal.NewFromInt(1)) {
		t.Fatalf("estimate %+v, exchange's %+v", got, want)
	}
	eng := New()
	eng.Set([]Rule{mustParse(t, "btc liq < 99%")})
	evs := eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, state.AccountMsg{Gen: 99, Summary: a})
	if len(evs) != 1 || evs[0].Source != state.LiqFromEstimate || !strings.Contains(evs[0].Text, "estimate price") {
		t.Fatalf("the alert does not say it is an estimate: %+v", evs)
	}
}

// TestAFillAlertFiresOncePerFill (issue #37): the same fill streamed and then polled fires once;
// the fills from before the process started fire none. Mutant alert/fill-twice.
func TestAFillAlertFiresOncePerFill(t *testing.T) {
	e := newSimEnv(t, 100000)
	e.market(t, "BTC-PERP", "b", "0.01") // before the engine: old news
	eng := New()
	eng.Set([]Rule{mustParse(t, "btc fills")})
	if evs := eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, e.load(t)...); len(evs) != 0 {
		t.Fatalf("an old fill fired: %+v", evs)
	}
	e.market(t, "BTC-PERP", "s", "0.02")
	fs, err := e.client.Fills(context.Background(), e.client.Address(), api.PageParams{})
	must(t, err)
	newest := fs.Data[0]
	e.clock.Add(time.Second)
	stream := state.FillMsg{Seq: 1, At: e.clock.Now(), Fill: newest}
	e.store.Apply(stream)
	fired := eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, stream)
	fired = append(fired, eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, e.load(t)...)...)
	if len(fired) != 1 || fired[0].Kind != KindOrder || fired[0].Instrument != "BTC-PERP" {
		t.Fatalf("one fill by stream and poll fired %+v", fired)
	}
}
