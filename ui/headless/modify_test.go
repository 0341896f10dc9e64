package headless

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
)

// placeResting places a resting buy of 0.01 BTC-PERP at px and returns its order id.
func (h *harness) placeResting(px, cloid string) api.OrderID {
	h.t.Helper()
	res := h.orderJSON("--instrument", "BTC-PERP", "--side", "buy", "--size", "0.01", "--price", px, "--cloid", cloid)
	if res.Oid == 0 {
		h.t.Fatalf("no order id: %+v", res)
	}
	return res.Oid
}

func (h *harness) modifyJSON(code int, args ...string) modifyJSON {
	h.t.Helper()
	got, out, errs := h.run(append([]string{"modify", "--json"}, args...)...)
	var res modifyJSON
	if err := json.Unmarshal([]byte(out), &res); got != code || err != nil {
		h.t.Fatalf("modify %v: exit %d (want %d), %v; stdout %q stderr %q", args, got, code, err, out, errs)
	}
	return res
}

func ids(o api.OrderID) string { return strconv.FormatUint(uint64(o), 10) }

func tickBelow(px string, ticks int64) string {
	return decimal.RequireFromString(px).Sub(decimal.NewFromInt(ticks)).String()
}

// TestModifyMovesAnOrder: modify cancels the order and places the replacement, both journaled
// (the cancel with the replacement's client id as parent); one order stays open, at the new price.
func TestModifyMovesAnOrder(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	px := h.restingBid()
	oid := h.placeResting(px, "9f8fad5b-d9cb-469f-a165-70867728950e")
	to := tickBelow(px, 10)
	repl := "af8fad5b-d9cb-469f-a165-70867728950e"
	res := h.modifyJSON(ExitOK, "--oid", ids(oid), "--price", to, "--size", "0.02", "--cloid", repl)
	if !res.Cancelled || !res.Placed || res.Oid == 0 || res.Cloid != repl || res.OldOid != oid || res.Outcome != "ok" {
		t.Fatalf("modify: %+v", res)
	}
	open := h.openOrders()
	if len(open) != 1 || open[0].Cloid != repl || !open[0].LimitPrice.Equal(decimal.RequireFromString(to)) || !open[0].Size.Equal(decimal.RequireFromString("0.02")) {
		t.Fatalf("open orders after the move: %+v", open)
	}
	var es []journalJSON
	if err := json.Unmarshal([]byte(h.ok("journal", "--json")), &es); err != nil {
		t.Fatal(err)
	}
	if len(es) != 3 || es[0].ID != repl || es[0].Kind != "place" || es[1].Kind != "cancel" || es[1].Parent != repl || es[1].Outcome != "cancelled" {
		t.Fatalf("journal: %+v", es)
	}
	out := h.ok("modify", "--oid", ids(res.Oid), "--price", tickBelow(to, 1))
	if !strings.Contains(out, "cancelled; placed order") || len(h.openOrders()) != 1 {
		t.Fatalf("text: %q", out)
	}
}

// TestModifyBadInput: a flag to fix, or an order that is not open, sends nothing.
func TestModifyBadInput(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	px := h.restingBid()
	oid := ids(h.placeResting(px, "bf8fad5b-d9cb-469f-a165-70867728950e"))
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--price", px}, ExitUsage, "--oid N is required"},
		{[]string{"--oid", "x1", "--price", px}, ExitUsage, "--oid N is required"},
		{[]string{"--oid", oid}, ExitUsage, "give --price PX, --size N or both"},
		{[]string{"--oid", oid, "--price", px}, ExitUsage, "the price and size are those it has"},
		{[]string{"--oid", oid, "--size", "lots"}, ExitUsage, "--size"},
		{[]string{"--oid", "999999", "--price", px}, ExitRefused, "order 999999 is not open"},
	} {
		code, _, errs := h.run(append([]string{"modify"}, c.args...)...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
	if open := h.openOrders(); len(open) != 1 || ids(open[0].OrderID) != oid {
		t.Fatalf("bad input moved something: %+v", open)
	}
}

// TestModifyLostCancelAnswer: the cancel's answer is lost; the old order is looked up (gone) before
// the replacement is placed, once.
func TestModifyLostCancelAnswer(t *testing.T) {
	t.Parallel() // waits on the wall clock while the others run
	h := newHarness(t)
	h.expiry = time.Second
	px := h.restingBid()
	oid := h.placeResting(px, "cf8fad5b-d9cb-469f-a165-70867728950e")
	h.drop.afterActing.Store(true)
	res := h.modifyJSON(ExitOK, "--oid", ids(oid), "--price", tickBelow(px, 5))
	if !res.Cancelled || !res.Placed {
		t.Fatalf("modify: %+v", res)
	}
	if open := h.openOrders(); len(open) != 1 || open[0].OrderID == oid {
		t.Fatalf("open orders: %+v", open)
	}
}

// TestModifyOriginalFilledMeanwhile: the order fills between modify's read and its cancel; the
// replacement is not placed, and modify says so.
func TestModifyOriginalFilledMeanwhile(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	b := h.book("BTC-PERP")
	// The best bid, one tick over the makers' (0.1 on BTC-PERP): the other side's sell meets it first.
	px := b.Bids[0].Price.Add(decimal.RequireFromString("0.1")).String()
	if !b.Asks[0].Price.GreaterThan(decimal.RequireFromString(px)) {
		t.Fatalf("no room in the spread: %+v %+v", b.Bids[0], b.Asks[0])
	}
	oid := h.placeResting(px, "df8fad5b-d9cb-469f-a165-70867728950e")
	other, err := api.SignerFromHex(strings.Repeat("1", 63) + "2")
	if err != nil {
		t.Fatal(err)
	}
	if err := h.sim.Fund(other.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	c := api.New(h.srv.URL, api.WithSigner(other))
	fill := func() {
		ins, _ := c.Instruments(context.Background(), "all")
		var id api.InstrumentID
		for _, in := range ins.Perps {
			if in.Name == "BTC-PERP" {
				id = in.ID
			}
		}
		w := api.OrderWire{InstrumentID: id, Side: api.SideSell, Price: px, Size: "0.01", Tif: api.TifIOC, PositionSide: api.PositionSideBoth, Cloid: "ef8fad5b-d9cb-469f-a165-70867728950e"}
		if _, err := c.PlaceOrders(context.Background(), []api.OrderWire{w}); err != nil {
			t.Errorf("the other side's sell: %v", err)
		}
	}
	h.drop.before.Store(&fill)
	code, out, errs := h.run("modify", "--oid", ids(oid), "--price", tickBelow(px, 5))
	if code != ExitRefused || !strings.Contains(errs, "filled") || !strings.Contains(errs, "nothing placed") || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if open := h.openOrders(); len(open) != 0 {
		t.Fatalf("a replacement was placed beside a filled order: %+v", open)
	}
}
