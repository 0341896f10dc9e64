package risk

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestTheAccountLimits (issue #35): max_open_orders counts the orders resting and the batch's
// own; max_leverage the gross notional after the order over the equity (an order that reduces
// passes); each refusal names its limit.
func TestTheAccountLimits(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC) }
	e, err := New(bg, openJournal(t), Limits{OpenOrders: dec("3"), Leverage: dec("2")}, now)
	if err != nil {
		t.Fatal(err)
	}
	src := fixed{acct: Account{Equity: dec("1000"), OpenOrders: 2, Positions: map[string]decimal.Decimal{"BTC-PERP": dec("15")},
		Values: map[string]decimal.Decimal{"BTC-PERP": dec("1500")}}, q: Quote{Mark: dec("100"), Bid: dec("100"), Ask: dec("100")}}
	buy := func(size string) Order {
		return Order{Instrument: "BTC-PERP", Buy: true, Price: dec("100"), Size: dec(size)}
	}
	if err := e.Check(bg, src, []Order{buy("5")}); err != nil {
		t.Fatalf("2 resting + 1, leverage 2.00x: %v", err)
	}
	if err := e.Check(bg, src, []Order{buy("1"), buy("1")}); err == nil || !strings.Contains(err.Error(), "max_open_orders") {
		t.Fatalf("2 resting + 2 over max_open_orders = 3: %v", err)
	}
	if err := e.Check(bg, src, []Order{buy("6")}); err == nil || !strings.Contains(err.Error(), "max_leverage") {
		t.Fatalf("leverage 2.10x over max_leverage = 2: %v", err)
	}
	sell := Order{Instrument: "BTC-PERP", Price: dec("100"), Size: dec("5")}
	if err := e.Check(bg, src, []Order{sell}); err != nil {
		t.Fatalf("a sell that reduces the position: %v", err)
	}
}

// TestTheDailyLossPercentAndTheDrawdown (issue #35): max_daily_loss as a percentage trips at
// that share of the day's starting equity; max_drawdown trips at that much below the high-water
// mark, which the journal keeps over a restart.
func TestTheDailyLossPercentAndTheDrawdown(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	e, err := New(bg, openJournal(t), Limits{DailyLossPct: dec("2")}, clock)
	if err != nil {
		t.Fatal(err)
	}
	acct := Account{Equity: dec("10000")}
	for _, c := range []struct {
		pnl  string
		want State
	}{{"0", Active}, {"-199", Active}, {"-200", Reducing}} {
		acct.PnL = dec(c.pnl)
		if r, err := e.Observe(bg, acct); err != nil || r.State != c.want {
			t.Fatalf("PnL %s of a day begun at 10000 equity: %s %s %v", c.pnl, r.State, r.Why, err)
		}
	}
	j := openJournal(t)
	e, _ = New(bg, j, Limits{Drawdown: dec("100")}, clock)
	for _, pnl := range []string{"0", "300", "250"} {
		acct.PnL = dec(pnl)
		if r, _ := e.Observe(bg, acct); r.State != Active {
			t.Fatalf("PnL %s: %s %s", pnl, r.State, r.Why)
		}
	}
	now = now.Add(24 * time.Hour) // a new day and a restart: the high-water mark stays
	e, _ = New(bg, j, Limits{Drawdown: dec("100")}, clock)
	acct.PnL = dec("199")
	if r, _ := e.Observe(bg, acct); r.State != Reducing || !strings.Contains(r.Why, "max_drawdown") {
		t.Fatalf("101 below the high-water mark of 300 after a restart: %s %s", r.State, r.Why)
	}
}
