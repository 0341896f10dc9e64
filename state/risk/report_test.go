package risk

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestObservingALossTripsReducingWithoutAnOrder (issue #35): the account as the console reads
// it, observed as it arrives, trips REDUCING once the day's loss reaches max_daily_loss: no
// order has to be checked for the state to change; the report says each limit's use.
func TestObservingALossTripsReducingWithoutAnOrder(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	e, err := New(bg, openJournal(t), Limits{DailyLoss: dec("500"), PositionNotional: dec("100000"), OrderNotional: dec("20000"),
		OpenOrders: dec("10")}, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	acct := Account{Equity: dec("10000"), PnL: dec("-50"), Upnl: dec("0"), OpenOrders: 3,
		Values: map[string]decimal.Decimal{"BTC-PERP": dec("40000"), "ETH-PERP": dec("-5000")}}
	r, err := e.Observe(bg, acct)
	if err != nil || r.State != Active {
		t.Fatalf("the day's first look: %+v %v", r, err)
	}
	acct.Upnl = dec("-120")
	if r, _ = e.Observe(bg, acct); r.State != Active {
		t.Fatalf("120 USD lost of 500: %+v", r)
	}
	want := map[string]string{
		"daily loss":     "120/500 USD 24%",
		"position":       "40k/100k USD 40%",
		"order notional": "≤ 20k USD each",
		"open orders":    "3/10",
	}
	for _, u := range r.Limits {
		if w, ok := want[u.Label()]; ok && u.Text() != w {
			t.Errorf("%s: %q, want %q", u.Label(), u.Text(), w)
		}
		delete(want, u.Label())
	}
	if len(want) > 0 {
		t.Errorf("limits not in the report: %v (line %s)", want, r.Line())
	}
	acct.PnL, acct.Upnl = dec("-300"), dec("-250")
	r, err = e.Observe(bg, acct)
	if err != nil || r.State != Reducing || !strings.Contains(r.Why, "max_daily_loss") {
		t.Fatalf("550 USD lost of 500: %+v %v", r, err)
	}
	if st, why, _ := e.State(bg); st != Reducing || why != r.Why {
		t.Fatalf("the trip is not kept: %s %s", st, why)
	}
}

// TestTheOrdersAMinuteUseIsWhatTheBucketSpent: the orders-a-minute use is the orders passed in
// the last minute, back to zero a minute later.
func TestTheOrdersAMinuteUseIsWhatTheBucketSpent(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	e, err := New(bg, openJournal(t), Limits{OrdersPerMinute: dec("30")}, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	src := fixed{acct: Account{Equity: dec("1000")}, q: Quote{Mark: dec("100")}}
	o := Order{Instrument: "BTC-PERP", Buy: true, Price: dec("100"), Size: dec("0.1")}
	if err := e.Check(bg, src, []Order{o, o, o}); err != nil {
		t.Fatal(err)
	}
	r, _ := e.Report(bg, src)
	if len(r.Limits) != 1 || r.Limits[0].Text() != "3/30" {
		t.Fatalf("after 3 orders: %s", r.Line())
	}
	now = now.Add(time.Minute)
	if r, _ = e.Report(bg, src); r.Limits[0].Text() != "0/30" {
		t.Fatalf("a minute later: %s", r.Line())
	}
}

// TestRiskCommandLimits: :risk's NAME VALUE reads as the config's, percentages for the loss
// limits only; a bad one says what to fix; SetLimit tightens at once and keeps a loosening
// pending.
func TestRiskCommandLimits(t *testing.T) {
	for _, c := range []struct{ name, value, key, v string }{
		{"max_daily_loss", "300", DailyLoss, "300"},
		{"max_daily_loss", "2%", DailyLossPct, "2"},
		{"max_order_notional.btc-perp", "5000", OrderNotional + ".BTC-PERP", "5000"},
		{"loosen_delay", "30m", LoosenDelay, "1800"},
	} {
		k, v, err := ParseLimit(c.name, c.value)
		if err != nil || k != c.key || !v.Equal(dec(c.v)) {
			t.Errorf("%s %s: %s %s %v", c.name, c.value, k, v, err)
		}
	}
	for _, c := range [][2]string{{"max_leverage", "2%"}, {"max_notional", "5"}, {"max_open_orders", "many"}, {"loosen_delay", "soon"}} {
		if _, _, err := ParseLimit(c[0], c[1]); err == nil {
			t.Errorf("%s %s passed", c[0], c[1])
		}
	}
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	e, err := New(bg, openJournal(t), Limits{DailyLoss: dec("500")}, func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	if ok, _, err := e.SetLimit(bg, DailyLoss, dec("300")); !ok || err != nil {
		t.Fatalf("a tightening: %v %v", ok, err)
	}
	ok, at, err := e.SetLimit(bg, DailyLoss, dec("800"))
	if ok || err != nil || !at.Equal(now.Add(DefaultLoosenDelay)) {
		t.Fatalf("a loosening: %v %s %v", ok, at, err)
	}
	r, _ := e.Report(bg, nil)
	if !strings.Contains(r.Line(), "daily loss ≤ 300; pending 800 at 12:15 UTC") {
		t.Fatalf("the pending loosening is not shown: %s", r.Line())
	}
}
