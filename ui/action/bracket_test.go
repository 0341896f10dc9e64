package action

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
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// simTrader is a funded account on a simulator served over HTTP, and ETH-PERP's terms and mark.
func simTrader(t *testing.T) (*api.Client, state.Instrument, decimal.Decimal) {
	t.Helper()
	s := sim.New(sim.WithSeed(11), sim.WithClock(sim.NewTestClock(time.Now())))
	signer, err := api.SignerFromHex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c := api.New(srv.URL, api.WithSigner(signer))
	ctx := context.Background()
	ins, err := c.Instruments(ctx, "all")
	if err != nil {
		t.Fatal(err)
	}
	var in state.Instrument
	for _, p := range ins.Perps {
		if p.Name == "ETH-PERP" {
			in = state.InstrumentFromPerp(p)
		}
	}
	tk, err := c.Ticker(ctx, "ETH-PERP")
	if err != nil || len(tk) != 1 {
		t.Fatal(err, tk)
	}
	return c, in, tk[0].MarkPrice
}

// marketWire is a market order on in for size, bounded 5% past mark.
func marketWire(in state.Instrument, side, size string, mark decimal.Decimal) api.OrderWire {
	bound := state.CeilToStep(mark.Mul(decimal.RequireFromString("1.05")), in.TickSize)
	if side == api.SideSell {
		bound = state.FloorToStep(mark.Mul(decimal.RequireFromString("0.95")), in.TickSize)
	}
	return api.OrderWire{InstrumentID: in.ID, Side: side, PositionSide: api.PositionSideBoth, Price: bound.String(), Size: size,
		Tif: api.TifIOC, IsMarket: true, Cloid: state.NewCloid()}
}

// TestBracketLegsCancelledAtOnceAreSaid, against the simulator over HTTP: a bracket whose entry
// only reduces a short (sent past the console's check, as a position changed since it ran) has
// its legs cancelled by the exchange the moment the entry fills; the bracket's outcome says so,
// in words, as a failure, and says what to do. Guards the cancelled-leg branch dropped (the line
// would read "placed (3 orders ...)" as a success while the entry stands unprotected).
func TestBracketLegsCancelledAtOnceAreSaid(t *testing.T) {
	c, in, mark := simTrader(t)
	ctx := context.Background()
	if _, err := c.PlaceOrders(ctx, []api.OrderWire{marketWire(in, api.SideSell, "1.5", mark)}); err != nil {
		t.Fatal(err)
	}
	tp, sl := state.RoundToStep(mark.Mul(decimal.RequireFromString("1.1")), in.TickSize), state.RoundToStep(mark.Mul(decimal.RequireFromString("0.9")), in.TickSize)
	entry := marketWire(in, api.SideBuy, "0.5", mark)
	wires, err := api.Bracket(entry, state.TpslLegAt(api.TpslTakeProfit, tp, in, false), state.TpslLegAt(api.TpslStopLoss, sl, in, false))
	if err != nil {
		t.Fatal(err)
	}
	cb := state.CheckedBracket{Entry: state.CheckedOrder{Wire: wires[0], Instrument: in, Size: decimal.RequireFromString("0.5")},
		TP: tp, SL: sl, Wires: wires}
	a := NewBracket(cb, common.NewStyles(commontest.Theme))
	resp, err := a.Run(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	text, failed := a.Read(DoneMsg{Act: a, Resp: resp})
	if !failed || !strings.Contains(text, "the exchange cancelled its take-profit and stop-loss at once: the entry is not protected; set TP/SL on the position") {
		t.Fatalf("outcome %q (failed %v)", text, failed)
	}
}
