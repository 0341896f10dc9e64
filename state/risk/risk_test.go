package risk

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/journal"
)

var bg = context.Background()

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func openJournal(t *testing.T) *journal.Journal {
	t.Helper()
	j, err := journal.Open(filepath.Join(t.TempDir(), "j.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = j.Close() })
	return j
}

// TestALooseningWaitsATighteningDoesNot: a cap raised (or removed) is pending for the loosen
// delay, then applies; a cap lowered applies at once, and drops a pending loosening.
func TestALooseningWaitsATighteningDoesNot(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	j := openJournal(t)
	e, err := New(bg, j, Limits{OrderNotional: dec("1000")}, clock)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetLimits(bg, Limits{OrderNotional: dec("5000")}); err != nil {
		t.Fatal(err)
	}
	l, p, _ := e.Limits(bg)
	if !l[OrderNotional].Equal(dec("1000")) || !p[OrderNotional].Value.Equal(dec("5000")) || !p[OrderNotional].At.Equal(now.Add(DefaultLoosenDelay)) {
		t.Fatalf("a loosening applied at once: %v pending %v", l, p)
	}
	// A restart with the loosened config: still pending, from when it was first asked for.
	now = now.Add(10 * time.Minute)
	e, _ = New(bg, j, Limits{OrderNotional: dec("5000")}, clock)
	if l, _, _ = e.Limits(bg); !l[OrderNotional].Equal(dec("1000")) {
		t.Fatalf("a restart applied a loosening early: %v", l)
	}
	now = now.Add(5 * time.Minute)
	if l, p, _ = e.Limits(bg); !l[OrderNotional].Equal(dec("5000")) || len(p) != 0 {
		t.Fatalf("after the delay: %v pending %v", l, p)
	}
	if err := e.SetLimits(bg, Limits{OrderNotional: dec("200")}); err != nil {
		t.Fatal(err)
	}
	if l, _, _ = e.Limits(bg); !l[OrderNotional].Equal(dec("200")) {
		t.Fatalf("a tightening waited: %v", l)
	}
	if err := e.SetLimits(bg, Limits{}); err != nil {
		t.Fatal(err)
	}
	if l, p, _ = e.Limits(bg); !l[OrderNotional].Equal(dec("200")) || p[OrderNotional].Value.Sign() != 0 {
		t.Fatalf("a removed limit went at once: %v pending %v", l, p)
	}
}

// fixed is a Source with a fixed account and quote.
type fixed struct {
	acct Account
	q    Quote
}

func (f fixed) Account(context.Context) (Account, error)     { return f.acct, nil }
func (f fixed) Quote(context.Context, string) (Quote, error) { return f.q, nil }

// TestValuesAndCaps: a buy is valued at the highest of its price, the mark and the best ask; a
// sell at the highest of its price, the mark and the best bid; an order at the cap passes, one
// over it is refused; a position cap counts what is held.
func TestValuesAndCaps(t *testing.T) {
	q := Quote{Mark: dec("100"), Bid: dec("99"), Ask: dec("101")}
	for _, c := range []struct {
		o    Order
		want string
	}{
		{Order{Buy: true, Price: dec("50")}, "101"},
		{Order{Buy: true, Price: dec("120")}, "120"},
		{Order{Buy: false, Price: dec("90")}, "100"},
		{Order{Buy: false, Price: dec("130")}, "130"},
	} {
		if v := Value(c.o, q); !v.Equal(dec(c.want)) {
			t.Errorf("%+v valued at %s, want %s", c.o, v, c.want)
		}
	}
	now := func() time.Time { return time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC) }
	e, err := New(bg, openJournal(t), Limits{OrderNotional: dec("101"), PositionNotional + ".BTC-PERP": dec("303")}, now)
	if err != nil {
		t.Fatal(err)
	}
	src := fixed{acct: Account{Equity: dec("1000"), Positions: map[string]decimal.Decimal{"BTC-PERP": dec("2")}, Values: map[string]decimal.Decimal{"BTC-PERP": dec("200")}}, q: q}
	buy := func(size string) Order {
		return Order{Instrument: "BTC-PERP", Buy: true, Price: dec("50"), Size: dec(size)}
	}
	if err := e.Check(bg, src, []Order{buy("1")}); err != nil {
		t.Fatalf("an order at the cap: %v", err)
	}
	if err := e.Check(bg, src, []Order{buy("1.01")}); err == nil || !strings.Contains(err.Error(), "max_order_notional") {
		t.Fatalf("an order over the cap: %v", err)
	}
	if err := e.Check(bg, src, []Order{buy("1"), buy("0.5")}); err == nil || !strings.Contains(err.Error(), "max_position_notional.BTC-PERP") {
		t.Fatalf("a position over its cap: %v", err)
	}
	flip := Order{Instrument: "BTC-PERP", Price: dec("100"), Size: dec("5")}
	if err := e.Check(bg, src, []Order{flip}); err == nil || !strings.Contains(err.Error(), "max_order_notional") {
		t.Fatalf("a sell over the cap: %v", err)
	}
}

// TestTheLimitsNamesAreChecked: an unknown limit, a per-instrument account limit and a
// percentage over 100 are refused with what to fix.
func TestTheLimitsNamesAreChecked(t *testing.T) {
	for name, v := range map[string]string{"max_notional": "1", "max_leverage.BTC-PERP": "3", DailyLossPct: "150", OpenOrders: "2.5", OrderNotional: "-1"} {
		if err := Check(name, dec(v)); err == nil {
			t.Errorf("%s = %s passed", name, v)
		}
	}
	if err := Check(OrderNotional+".ETH-PERP", dec("5000")); err != nil {
		t.Error(err)
	}
}
