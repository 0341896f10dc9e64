package action

import (
	"context"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/journal"
	"github.com/tradedesk/tradedesk/ui/common"
	"github.com/tradedesk/tradedesk/ui/common/commontest"
)

// mangled is a Sender whose order answers come back in a shape nobody can read (the order itself
// reached the exchange).
type mangled struct{ *api.Client }

func (m mangled) PlaceOrders(ctx context.Context, orders []api.OrderWire) (api.TxResponse, error) {
	resp, err := m.Client.PlaceOrders(ctx, orders)
	resp.Data = []byte(`{"status":{"accepted":true}}`)
	return resp, err
}

// TestPartialFillFollowUpSaysFees (issue #17), against a still simulator over HTTP: an IOC buy at
// the second ask for more than the first two asks hold partly fills; the executor settles it by
// its fills, and the status line says the filled size of the requested size at the fills'
// average, the fee the fills paid, and that the rest was cancelled (IOC). An answer of unknown
// shape is looked up by cloid, never read as success. Guards: the settle skipped (no fee), the
// fee or average taken from elsewhere, the remainder called resting, an unknown answer settled
// as placed.
func TestPartialFillFollowUpSaysFees(t *testing.T) {
	c := simClient(t)
	ctx := context.Background()
	b, err := c.OrderBook(ctx, "ETH-PERP", 0)
	if err != nil || len(b.Asks) < 3 {
		t.Fatal(err, b)
	}
	size := b.Asks[0].Size.Add(b.Asks[1].Size).Add(decimal.RequireFromString("0.005"))
	w := api.OrderWire{InstrumentID: 2, Side: api.SideBuy, PositionSide: api.PositionSideBoth, Price: b.Asks[1].Price.String(),
		Size: size.String(), Tif: api.TifIOC, Cloid: state.NewCloid()}
	ins, _ := c.Instruments(ctx, "all")
	var in state.Instrument
	for _, p := range ins.Perps {
		if p.Name == "ETH-PERP" {
			w.InstrumentID, in = p.ID, state.InstrumentFromPerp(p)
		}
	}
	co := state.CheckedOrder{Wire: w, Size: size, Instrument: in}
	a := &Action{Kind: KindPlace, What: "buy ETH-PERP", Order: co, Run: placeOrder(co)}
	out, err := a.Run(ctx, testExecutor(t, c, c), exec.Ask{Who: journal.WhoForm})
	if err != nil {
		t.Fatal(err)
	}
	text, level := Words(DoneMsg{Act: a, Out: out})
	fs, _ := api.OrderFills(ctx, c, c.Address(), out.Outcome.Oid)
	tot := state.SumFills(fs)
	if len(tot) != 1 {
		t.Fatalf("fills %+v", fs)
	}
	want := "filled " + in.SizeText(tot[0].Size) + " of " + in.SizeText(size) + " at " + in.PriceText(tot[0].AvgPrice) + " avg; " +
		in.SizeText(size.Sub(tot[0].Size)) + " cancelled: IOC, no more liquidity at its price: buy ETH-PERP, fee " + state.FormatUSDFee(tot[0].Fee) + " USD"
	if !strings.HasSuffix(text, want) || level != common.LevelInfo {
		t.Fatalf("status line %q\nwant suffix   %q", text, want)
	}

	// The same order with an answer of unknown shape: looked up by cloid, not settled as success.
	co.Wire.Cloid, co.Wire.Price = state.NewCloid(), b.Asks[2].Price.String()
	a = &Action{Kind: KindPlace, What: "buy ETH-PERP", Order: co, Run: placeOrder(co)}
	if out, err = a.Run(ctx, testExecutor(t, mangled{c}, c), exec.Ask{Who: journal.WhoForm}); err != nil {
		t.Fatal(err)
	}
	if text, _ = Words(DoneMsg{Act: a, Out: out}); !out.AnswerLost || !strings.Contains(text, "is cancelled") {
		t.Fatalf("lookup said %q (%+v)", text, out.Result)
	}
}

// TestConfirmationSaysWhatTheBookFills: a market order the book cannot fill whole says, before
// it is signed, how much fills and the margin and utilization of that fill (state.PreviewRows, the
// rows the form shows). Guards: the walk's line dropped, the fill's margin shown for a walk that
// fills it all, the whole order's margin shown when only part fills.
func TestConfirmationSaysWhatTheBookFills(t *testing.T) {
	st := common.NewStyles(commontest.Theme)
	d := decimal.RequireFromString
	c := state.CheckedOrder{Size: d("9"), Instrument: state.Instrument{Name: "BTC-PERP", TickSize: d("0.1"), LotSize: d("0.0001")},
		Wire: api.OrderWire{Side: api.SideBuy, Size: "9", Price: "98000", Tif: api.TifIOC, IsMarket: true}}
	c.Preview = state.Preview{Notional: d("873000"), Taker: true, MarginRequired: d("88200"), Leverage: d("10"), UtilizationAfter: d("88.2")}
	c.Preview.Walk = state.BookWalk{Known: true, Fillable: d("1.1268"), AvgPrice: d("97216.6"), Mid: d("97000"),
		Fills: d("1.1268"), Cancelled: d("7.8732"), FillCost: d("109543.66"), FillMargin: d("10954.4"), FillUtilization: d("10.98")}
	lines := strings.Join(NewOrder(KindPlace, c, st).Lines, "\n")
	for _, want := range []string{"Book fills   1.1268 of 9.0000, avg 97,216.60", "Margin       10,954.40 USD at 10x, on the 1.1268 that fills",
		"Util. after  10.98%", "(taker on the 1.1268 that fills)"} {
		if !strings.Contains(lines, want) {
			t.Fatalf("confirmation does not say %q:\n%s", want, lines)
		}
	}
	c.Preview.Walk.Fillable, c.Preview.Walk.Fills, c.Preview.Walk.Cancelled = d("9"), d("9"), d("0")
	if lines = strings.Join(NewOrder(KindPlace, c, st).Lines, "\n"); strings.Contains(lines, "that fills") || !strings.Contains(lines, "Margin       88,200.00 USD at 10x") {
		t.Fatalf("a whole fill:\n%s", lines)
	}
}
