package ui

import (
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
)

// TestPreviewFeeFromSimulatorRates: the console polls user_fees, and the order preview's fee is
// the account's actual taker rate from the simulator, not the configured constant (guards the
// poll left out of pollSpecs and the preview reading the configured rates).
func TestPreviewFeeFromSimulatorRates(t *testing.T) {
	t.Parallel()
	c := newSimConsole(t, 160, 50, false)
	c.m.store.SetFees(state.DefaultFees()) // 0.045% taker: not what the simulator charges
	pump(t, c.m, c.m.Init())
	fees, ok := c.m.store.UserFees()
	if !ok {
		t.Fatal("user_fees was not polled")
	}
	maker, taker := sim.FeeRates()
	if !fees.PerpTaker.Equal(taker) || !fees.PerpMaker.Equal(maker) {
		t.Fatalf("user_fees %s/%s, the simulator charges %s/%s", fees.PerpTaker, fees.PerpMaker, taker, maker)
	}
	tk, ok := c.m.store.Ticker("BTC-PERP")
	if !ok {
		t.Fatal("no BTC-PERP ticker")
	}
	co, errs := c.m.store.CheckOrder(state.OrderIntent{Instrument: "BTC-PERP", Side: api.SideBuy, Type: state.Limit,
		Price: tk.BestAskPrice.String(), Size: "0.01"}, state.Guard{})
	if len(errs) > 0 || !co.Preview.Taker {
		t.Fatalf("a buy at the ask: %+v %v", co.Preview, errs)
	}
	if want := co.Preview.Notional.Mul(taker); !co.Preview.Fee.Equal(want) {
		t.Errorf("preview fee %s, want %s (notional %s at the simulator's %s)", co.Preview.Fee, want, co.Preview.Notional, taker)
	}
}
