package alert

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// control moves a market through the simulator's loopback market control (POST /control) and
// returns the mark it left.
func (e *simEnv) control(t *testing.T, body string) decimal.Decimal {
	t.Helper()
	resp, err := http.Post(e.url+"/control", "application/json", strings.NewReader(body))
	must(t, err)
	defer resp.Body.Close()
	var r struct{ Mark string }
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /control %s: %d %v", body, resp.StatusCode, err)
	}
	return decimal.RequireFromString(r.Mark)
}

// tickers polls the tickers into the store, as the feed does, and checks the engine.
func (e *simEnv) tickers(t *testing.T, eng *Engine, gen uint64) []Event {
	t.Helper()
	ts, err := e.client.Ticker(context.Background(), "")
	must(t, err)
	m := state.TickersMsg{Gen: gen, At: e.clock.Now(), Tickers: ts}
	e.store.Apply(m)
	return eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, m)
}

// TestAPriceAlertFiresOncePerCrossingOnTheSimulator (issue #37): the simulator's BTC mark moved
// through its market control to straddle 100,000 for a minute (a second a step, the test's clock)
// fires `btc > 100000` once; back under by more than its rearm margin and over again fires it a
// second time.
func TestAPriceAlertFiresOncePerCrossingOnTheSimulator(t *testing.T) {
	e := newSimEnv(t, 5000)
	e.control(t, `{"instrument":"BTC-PERP","pause":true}`)
	e.load(t)
	eng := New()
	eng.Set([]Rule{mustParse(t, "btc > 100000")})
	var gen uint64
	step := func(index string) []Event {
		e.control(t, `{"instrument":"BTC-PERP","index":"`+index+`"}`)
		e.clock.Add(time.Second)
		gen++
		evs := e.tickers(t, eng, gen)
		for _, ev := range evs {
			eng.Delivered(ev, e.clock.Now())
		}
		return evs
	}
	var fired []Event
	fired = append(fired, step("99500")...)
	marks := map[bool]int{}
	for i := range 60 {
		idx := "99990"
		if i%2 == 0 {
			idx = "100010"
		}
		fired = append(fired, step(idx)...)
		tk, _ := e.store.Ticker("BTC-PERP")
		marks[tk.MarkPrice.GreaterThan(decimal.NewFromInt(100000))]++
	}
	if marks[true] == 0 || marks[false] == 0 {
		t.Fatalf("the mark did not straddle the level: %v", marks)
	}
	if len(fired) != 1 || fired[0].Instrument != "BTC-PERP" || fired[0].Threshold != "100000" {
		t.Fatalf("a minute straddling 100,000 (%d marks over, %d under) fired %+v", marks[true], marks[false], fired)
	}
	fired = append(fired, step("99000")...)  // back past the 0.1% margin: re-armed
	fired = append(fired, step("100500")...) // a new crossing
	if len(fired) != 2 {
		t.Fatalf("a second crossing: %d alerts in all, want 2", len(fired))
	}
}

// TestALiquidationAlertFiresWhenTheDistanceFalls (issue #37): a 20x BTC long some 7% from its
// liquidation does not fire `btc liq < 5%`; the market moved down through the control until the
// distance is under 5% fires it once, and a new engine (a restart) says it again at once.
func TestALiquidationAlertFiresWhenTheDistanceFalls(t *testing.T) {
	e := newSimEnv(t, 5000)
	must(t, e.sim.SetLeverage(e.client.Address(), "BTC-PERP", api.MarginCross, decimal.NewFromInt(20)))
	e.control(t, `{"instrument":"BTC-PERP","pause":true}`)
	e.market(t, "BTC-PERP", "b", "0.6")
	eng := New()
	eng.Set([]Rule{mustParse(t, "btc liq < 5%")})
	l0, _ := e.store.PositionLiquidation("BTC-PERP")
	if evs := eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, e.load(t)...); len(evs) != 0 {
		t.Fatalf("fired at %s%%: %+v", l0.Distance, evs)
	}
	l, _ := e.store.PositionLiquidation("BTC-PERP")
	var fired []Event
	var dist []string
	for px := l.Mark; len(fired) == 0 && px.GreaterThan(l.Price); px = px.Sub(decimal.NewFromInt(500)) {
		e.control(t, `{"instrument":"BTC-PERP","index":"`+px.String()+`"}`)
		e.clock.Add(time.Second)
		fired = eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, e.load(t)...)
		now, _ := e.store.PositionLiquidation("BTC-PERP")
		dist = append(dist, now.Distance.StringFixed(2))
	}
	if len(fired) != 1 || fired[0].Source != state.LiqFromExchange || !decimalOrZero(fired[0].Value).LessThan(decimal.NewFromInt(5)) {
		t.Fatalf("distances %v: fired %+v", dist, fired)
	}
	t.Logf("20x long, liquidation at %s: distance %s%% then %v", l.Price, l.Distance.StringFixed(2), dist)
	if evs := eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, e.load(t)...); len(evs) != 0 {
		t.Fatalf("said twice: %+v", evs)
	}
	restart := New()
	restart.Set([]Rule{mustParse(t, "btc liq < 5%")})
	if evs := restart.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, e.load(t)...); len(evs) != 1 {
		t.Fatalf("at start: %+v", evs)
	}
}

// TestAFundingPaymentAlert (issue #37): a funding payment the simulator settles on an open
// position an hour on fires `funding payment > 0.01` once (however many polls see it); the
// payments from before the start fire none.
func TestAFundingPaymentAlert(t *testing.T) {
	e := newSimEnv(t, 100000)
	e.market(t, "BTC-PERP", "b", "0.5")
	poll := func(gen uint64) []state.Msg {
		pg, err := e.client.FundingHistory(context.Background(), e.client.Address(), api.PageParams{Page: 1, Limit: 50})
		must(t, err)
		m := state.FundingMsg{Gen: gen, At: e.clock.Now(), Page: pg}
		e.store.Apply(m)
		return []state.Msg{m}
	}
	eng := New()
	eng.Set([]Rule{mustParse(t, "btc funding payment > 0.01"), mustParse(t, "funding payment > 1000000")})
	var fired []Event
	fired = append(fired, eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, poll(1)...)...)
	e.sim.Advance(61 * time.Minute)
	for gen := uint64(2); gen < 5; gen++ {
		fired = append(fired, eng.Check(e.clock.Now(), e.store, Link{ExchangeUp: true}, poll(gen)...)...)
	}
	if len(e.store.Funding()) == 0 {
		t.Fatal("the simulator paid no funding in an hour")
	}
	if len(fired) != 1 || fired[0].Kind != KindPayment || fired[0].Instrument != "BTC-PERP" {
		t.Fatalf("payments %+v fired %+v", e.store.Funding(), fired)
	}
	t.Logf("%s", fired[0].Text)
}
