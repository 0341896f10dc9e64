package state

import (
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

// TestCancelScopeNamesThePositionsStops (#31 point 10): a cancel of every order says which
// positions lose their take-profit and stop-loss, by size, asset and side; plain orders, a trigger
// on the side that would add to the position and another instrument's stops are not counted.
func TestCancelScopeNamesThePositionsStops(t *testing.T) {
	px := func(s string) api.OptDecimal {
		return api.OptDecimal{Decimal: decimal.RequireFromString(s), Valid: true}
	}
	btc := Instrument{Name: "BTC-PERP", TickSize: decimal.RequireFromString("0.5"), LotSize: decimal.RequireFromString("0.0001")}
	eth := Instrument{Name: "ETH-PERP", TickSize: decimal.RequireFromString("0.01"), LotSize: decimal.RequireFromString("0.001")}
	inst := func(s string) (Instrument, bool) {
		switch s {
		case btc.Name:
			return btc, true
		case eth.Name:
			return eth, true
		}
		return Instrument{}, false
	}
	positions := []api.Position{
		{Instrument: "BTC-PERP", Size: decimal.RequireFromString("0.1")},
		{Instrument: "ETH-PERP", Size: decimal.RequireFromString("-2")},
	}
	btcOrders := []api.OrderRecord{
		{Instrument: "BTC-PERP", Side: api.SideBuy, LimitPrice: decimal.RequireFromString("90000")},
		{Instrument: "BTC-PERP", Side: api.SideSell, ReduceOnly: true, TriggerPx: px("110000"), Tpsl: api.TpslTakeProfit},
		{Instrument: "BTC-PERP", Side: api.SideSell, ReduceOnly: true, TriggerPx: px("90000"), Tpsl: api.TpslStopLoss},
		{Instrument: "BTC-PERP", Side: api.SideBuy, TriggerPx: px("99000"), Tpsl: api.TpslStopLoss}, // an entry stop
	}
	sc := NewCancelScope(btcOrders, positions, inst)
	if want := "including the stop-loss and take-profit on your 0.1000 BTC long"; sc.Orders != 4 || sc.Including() != want {
		t.Fatalf("BTC orders: %d, %q; want 4, %q", sc.Orders, sc.Including(), want)
	}
	if sc.Unguarded() == "" {
		t.Error("no word that the position stays open")
	}
	ethStop := api.OrderRecord{Instrument: "ETH-PERP", Side: api.SideBuy, ReduceOnly: true, TriggerPx: px("4000"), Tpsl: api.TpslStopLoss}
	all := NewCancelScope(append(btcOrders, ethStop), positions, inst)
	if want := "including the stop-loss and take-profit on your 0.1000 BTC long and the stop-loss on your 2.000 ETH short"; all.Including() != want {
		t.Errorf("every order: %q, want %q", all.Including(), want)
	}
	if plain := NewCancelScope(btcOrders[:1], positions, inst); plain.Including() != "" || plain.Unguarded() != "" {
		t.Errorf("a plain order: %q %q", plain.Including(), plain.Unguarded())
	}
}
