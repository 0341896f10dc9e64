package risk

import (
	"path/filepath"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/journal"
)

// BenchmarkCheckUnchanged is the risk gate's check of one order while nothing changed, on a
// journal of its own on disk: with no limit set (the state alone) and with three.
func BenchmarkCheckUnchanged(b *testing.B) {
	src := fixed{acct: Account{Equity: dec("100000"), Positions: map[string]decimal.Decimal{}, Values: map[string]decimal.Decimal{}},
		q: Quote{Mark: dec("100"), Bid: dec("99"), Ask: dec("101")}}
	orders := []Order{{Instrument: "BTC-PERP", Buy: true, Price: dec("100"), Size: dec("1")}}
	for name, l := range map[string]Limits{"none": nil, "three": {OrderNotional: dec("100000"), OpenOrders: dec("100"), PositionNotional: dec("1000000")}} {
		b.Run(name, func(b *testing.B) {
			j, err := journal.Open(filepath.Join(b.TempDir(), "j.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer j.Close()
			e, err := New(bg, j, l, nil)
			if err != nil {
				b.Fatal(err)
			}
			for range b.N {
				if err := e.Check(bg, src, orders); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
