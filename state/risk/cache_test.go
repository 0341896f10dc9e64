package risk

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/journal"
)

// TestACheckDecodesTheRecordOnlyWhenItChanged: checks in a row with nothing written decode the
// risk record no more (the day's marks taken, nothing changes); a halt,
// a resume and a tightening written by another process (a second handle on the same file) each
// hold at the next check; a loosening pending in the record applies once its delay has passed,
// with nothing written meanwhile.
func TestACheckDecodesTheRecordOnlyWhenItChanged(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	path := filepath.Join(t.TempDir(), "j.db")
	handle := func() *journal.Journal {
		j, err := journal.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = j.Close() })
		return j
	}
	limits := Limits{OrderNotional: dec("1000")}
	e, err := New(bg, handle(), limits, clock)
	if err != nil {
		t.Fatal(err)
	}
	other, err := New(bg, handle(), limits, clock)
	if err != nil {
		t.Fatal(err)
	}
	src := fixed{acct: Account{Equity: dec("100000"), Positions: map[string]decimal.Decimal{}, Values: map[string]decimal.Decimal{}},
		q: Quote{Mark: dec("100"), Bid: dec("99"), Ask: dec("101")}}
	buy := func(size string) []Order {
		return []Order{{Instrument: "BTC-PERP", Buy: true, Price: dec("100"), Size: dec(size)}}
	}
	check := func(size, refused string) {
		t.Helper()
		err := e.Check(bg, src, buy(size))
		if refused == "" && err != nil || refused != "" && (err == nil || !strings.Contains(err.Error(), refused)) {
			t.Fatalf("a buy of %s: %v, want %q", size, err, refused)
		}
	}
	check("1", "") // takes the day's marks: a write, decoded at the next check
	check("1", "")
	d0 := e.decoded
	for range 5 {
		check("1", "")
	}
	if e.decoded != d0 {
		t.Fatalf("checks with nothing changed decoded the record %d times", e.decoded-d0)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(other.Halt(bg, "from the other terminal"))
	check("1", "HALTED (from the other terminal)")
	must(other.Resume(bg))
	check("1", "")
	must(other.SetLimits(bg, Limits{OrderNotional: dec("50")}))
	check("1", "max_order_notional")
	check("0.4", "")
	must(e.SetLimits(bg, Limits{OrderNotional: dec("5000")})) // a loosening: pending
	check("1", "max_order_notional")
	now = now.Add(DefaultLoosenDelay)
	check("40", "")
}
