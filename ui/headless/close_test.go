package headless

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
)

// position is the account's position on symbol, as `positions --json` says (zero size: none).
func (h *harness) position(symbol string) api.Position {
	h.t.Helper()
	var pos []api.Position
	if err := json.Unmarshal([]byte(h.ok("positions", "--json")), &pos); err != nil {
		h.t.Fatal(err)
	}
	for _, p := range pos {
		if p.Instrument == symbol {
			return p
		}
	}
	return api.Position{Instrument: symbol}
}

// liftMark moves symbol's mark (the median of index, best bid and best ask) up to px: another
// account takes the asks below it and the index moves there.
func (h *harness) liftMark(symbol string, px decimal.Decimal) {
	h.t.Helper()
	s, _ := api.SignerFromHex(takerKey)
	c := api.New(h.srv.URL, api.WithSigner(s))
	if err := h.sim.Fund(s.Address(), sim.DefaultDemoBalance.Mul(dec("10"))); err != nil {
		h.t.Fatal(err)
	}
	if _, err := c.PlaceOrders(context.Background(), []api.OrderWire{{InstrumentID: 1, Side: api.SideBuy, PositionSide: api.PositionSideBoth,
		Price: px.String(), Size: "3", Tif: api.TifIOC, Cloid: state.NewCloid()}}); err != nil {
		h.t.Fatal(err)
	}
	if err := h.sim.SetIndexPrice(symbol, px); err != nil {
		h.t.Fatal(err)
	}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestPartialClosesLeaveTheRightSize (issue #35): 25, 50, 75 and 100 % closes, against the
// simulator over HTTP, each leave the position less exactly that share rounded down to the lot,
// never flipping it; each says the PnL it realised and the fee.
func TestPartialClosesLeaveTheRightSize(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.0123", "--market")
	for _, c := range []struct{ pct, left string }{
		{"25", "0.0093"},  // 0.003075 rounds down to 0.0030
		{"50%", "0.0047"}, // 0.00465 to 0.0046
		{"75", "0.0012"},  // 0.003525 to 0.0035
		{"100", "0"},
	} {
		var out closeJSON
		if err := json.Unmarshal([]byte(h.ok("close", "--instrument", "btc", "--percent", c.pct, "--json")), &out); err != nil {
			t.Fatal(err)
		}
		if !out.Sent || out.Status != "filled" || !out.Fee.IsPositive() || !strings.Contains(out.Preview, "realises") || !strings.Contains(out.Result, "realised") {
			t.Fatalf("close %s%%: %+v", c.pct, out)
		}
		if got := h.position("BTC-PERP").Size; !got.Equal(dec(c.left)) {
			t.Fatalf("after a %s%% close the position is %s, want %s", c.pct, got, c.left)
		}
	}
	code, _, errs := h.run("close", "--instrument", "BTC-PERP", "--percent", "50")
	if code != ExitRefused || !strings.Contains(errs, "no open position on BTC-PERP") {
		t.Fatalf("close without a position: exit %d %q", code, errs)
	}
}

// TestCloseBySizeNeverFlips: a size over the position is refused saying the most it may be; a
// size and a typed limit price rest as a reduce-only limit.
func TestCloseBySizeNeverFlips(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.ok("order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.01", "--market")
	code, _, errs := h.run("close", "--instrument", "BTC-PERP", "--size", "0.02")
	if code != ExitRefused || !strings.Contains(errs, "give at most 0.01") {
		t.Fatalf("oversized close: exit %d %q", code, errs)
	}
	code, _, errs = h.run("close", "--instrument", "BTC-PERP", "--size", "0.005", "--percent", "10")
	if code != ExitUsage || !strings.Contains(errs, "not both") {
		t.Fatalf("size and percent: exit %d %q", code, errs)
	}
	px := h.restingBid() // a buy under the market rests
	var out closeJSON
	if err := json.Unmarshal([]byte(h.ok("close", "--instrument", "BTC-PERP", "--size", "0.005", "--price", px, "--json")), &out); err != nil {
		t.Fatal(err)
	}
	orders := h.openOrders()
	if !out.Sent || len(orders) != 1 || !orders[0].ReduceOnly || !orders[0].Size.Equal(dec("0.005")) || orders[0].Side != api.SideBuy {
		t.Fatalf("limit close: %+v, open %+v", out, orders)
	}
	if got := h.position("BTC-PERP").Size; !got.Equal(dec("-0.01")) {
		t.Fatalf("a resting close changed the position to %s", got)
	}
}

// TestReverseLeavesTheOppositePosition: reverse takes a long to a short of the same size in one
// order, and cancels the position's stop-loss, saying so.
func TestReverseLeavesTheOppositePosition(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market", "--sl", "5%")
	if n := len(h.openOrders()); n != 1 {
		t.Fatalf("%d open orders before the reverse, want the stop", n)
	}
	var out closeJSON
	if err := json.Unmarshal([]byte(h.ok("reverse", "--instrument", "btc", "--json")), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Preview, "to SHORT 0.0100") || !strings.Contains(out.Preview, "margin after") || !strings.Contains(out.Preview, "TP/SL (1 orders) will be cancelled") ||
		len(out.Cancelled) != 1 || !strings.Contains(out.Result, "TP/SL cancelled") {
		t.Fatalf("reverse: %+v", out)
	}
	if got := h.position("BTC-PERP").Size; !got.Equal(dec("-0.01")) {
		t.Fatalf("after the reverse the position is %s, want -0.01", got)
	}
	if n := len(h.openOrders()); n != 0 {
		t.Fatalf("%d orders left open after the reverse", n)
	}
}

// TestFlattenClosesEveryPositionAsOneBatch: without --yes flatten lists what it would send and
// sends nothing; with it, one placeOrder (one journal intent naming every child) leaves no
// position and reports each child, summed.
func TestFlattenClosesEveryPositionAsOneBatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
	h.ok("order", "--instrument", "ETH-PERP", "--side", "sell", "--size", "0.1", "--market")
	code, out, _ := h.run("flatten")
	if code != ExitRefused || strings.Count(out, "send: close") != 2 || !strings.Contains(out, "2 orders to send, 0 skipped") {
		t.Fatalf("flatten without --yes: exit %d\n%s", code, out)
	}
	before := len(h.journalJSON())
	var res flattenJSON
	if err := json.Unmarshal([]byte(h.ok("flatten", "--yes", "--json")), &res); err != nil {
		t.Fatal(err)
	}
	if !res.Sent || len(res.Children) != 2 || !strings.HasPrefix(res.Summary, "2 sent, 2 filled; the filled realise ") || !strings.Contains(res.Summary, "USD, fee ") {
		t.Fatalf("flatten: %+v", res)
	}
	for _, sym := range []string{"BTC-PERP", "ETH-PERP"} {
		if p := h.position(sym); !p.Size.IsZero() {
			t.Fatalf("%s left at %s after flatten", sym, p.Size)
		}
	}
	es := h.journalJSON()
	if len(es) != before+1 || es[0].Kind != "batch" || len(es[0].Cloids) != 2 || !strings.HasSuffix(es[0].Cloids[1], "-2") {
		t.Fatalf("journal after flatten: %+v", es[:len(es)-before])
	}
}

// TestBreakevenPlacesTheStopAtEntryPlusFees: the stop-loss lands at the entry price plus the
// opening fee the fills paid and the taker fee to close, per unit, rounded up to the tick.
func TestBreakevenPlacesTheStopAtEntryPlusFees(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.ok("order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--market")
	pos := h.position("BTC-PERP")
	code, _, errs := h.run("breakeven", "--instrument", "btc")
	if code != ExitRefused || !strings.Contains(errs, "in profit past its fees") {
		t.Fatalf("breakeven under water: exit %d %q", code, errs)
	}
	h.liftMark("BTC-PERP", pos.EntryPrice.Mul(dec("1.02")).Round(0))
	var out breakevenJSON
	if err := json.Unmarshal([]byte(h.ok("breakeven", "--instrument", "btc", "--json")), &out); err != nil {
		t.Fatal(err)
	}
	var fills api.Page[api.Fill]
	if err := json.Unmarshal([]byte(h.ok("fills", "--json")), &fills); err != nil || len(fills.Data) == 0 {
		t.Fatalf("fills: %v", err)
	}
	paid := decimal.Zero
	for _, f := range fills.Data {
		paid = paid.Add(f.Fee)
	}
	if !dec(out.FeesPaid).Equal(paid) {
		t.Fatalf("fees paid %s, the fills say %s", out.FeesPaid, paid)
	}
	want := pos.EntryPrice.Add(paid.Add(dec(out.CloseFee)).Div(dec("0.01")))
	stop := dec(out.Stop)
	orders := h.openOrders()
	if !out.Sent || stop.LessThan(want) || stop.Sub(want).GreaterThanOrEqual(dec("1")) || len(orders) != 1 || !orders[0].TriggerPx.Decimal.Equal(stop) {
		t.Fatalf("breakeven: %+v; want a stop at %s rounded up to the tick; open %+v", out, want, orders)
	}
}
