package headless

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/state"
)

// newStillHarness is a harness whose simulator stands still (seeded, a test clock that moves only
// when told): the book the preview walks is the book the order meets.
func newStillHarness(t *testing.T) *harness {
	t.Helper()
	s := sim.New(sim.WithSeed(11), sim.WithClock(sim.NewTestClock(time.Now())))
	if err := s.Fund(testAddress(t), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	d := &dropper{sim: s}
	srv := httptest.NewServer(d)
	t.Cleanup(srv.Close)
	return &harness{t: t, sim: s, srv: srv, drop: d, env: map[string]string{api.EnvPrivateKey: "0x" + testKey}}
}

// truth is what the exchange itself shows of one order: its fills added up and its open remainder.
type truth struct {
	fill    state.FillTotal
	resting decimal.Decimal // unfilled size still open (zero when none)
}

func (h *harness) truthOf(oid api.OrderID) truth {
	h.t.Helper()
	c, ctx := h.client(), context.Background()
	pg, err := c.Fills(ctx, testAddress(h.t), api.PageParams{Page: 1, Limit: 100})
	if err != nil {
		h.t.Fatal(err)
	}
	var tr truth
	for _, t := range state.SumFills(pg.Data) {
		if t.OrderID == oid {
			tr.fill = t
		}
	}
	for _, o := range h.openOrders() {
		if o.OrderID == oid {
			tr.resting = o.Unfilled
		}
	}
	return tr
}

func (h *harness) orderJSON(args ...string) orderResult {
	h.t.Helper()
	return h.orderJSONExit(ExitOK, args...)
}

// orderJSONExit is orderJSON for an order that exits with code (ExitPartial: filled in part).
func (h *harness) orderJSONExit(code int, args ...string) orderResult {
	h.t.Helper()
	var res orderResult
	got, out, errs := h.run(append([]string{"order", "--json"}, args...)...)
	if got != code {
		h.t.Fatalf("%v: exit %d, want %d; stderr %q", args, got, code, errs)
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		h.t.Fatalf("%v: %s", err, out)
	}
	if want := OutcomeWord(code); res.Outcome != want {
		h.t.Errorf("%v: outcome %q, want %q", args, res.Outcome, want)
	}
	return res
}

func (h *harness) book(symbol string) api.OrderBook {
	h.t.Helper()
	b, err := h.client().OrderBook(context.Background(), symbol, 0)
	if err != nil || len(b.Asks) < 3 {
		h.t.Fatalf("book %v %+v", err, b)
	}
	return b
}

func dz(p *decimal.Decimal) decimal.Decimal {
	if p == nil {
		return decimal.Zero
	}
	return *p
}

// checkTruth: the command reported exactly what the exchange's fills and open orders show:
// filled size, average price, fees, and the remainder (resting or gone).
func checkTruth(t *testing.T, name string, res orderResult, size decimal.Decimal, tr truth, wantResting bool) {
	t.Helper()
	filled, avg, fee, rem := dz(res.Filled), dz(res.AvgPrice), dz(res.Fee), dz(res.Remaining)
	if !filled.Equal(tr.fill.Size) || !avg.Equal(tr.fill.AvgPrice) || !fee.Equal(tr.fill.Fee) {
		t.Errorf("%s: reported %s at %s fee %s; the exchange's fills say %s at %s fee %s", name, filled, avg, fee, tr.fill.Size, tr.fill.AvgPrice, tr.fill.Fee)
	}
	if !rem.Equal(size.Sub(tr.fill.Size)) {
		t.Errorf("%s: remaining %s of %s, filled %s", name, rem, size, tr.fill.Size)
	}
	if wantResting != tr.resting.IsPositive() || (wantResting && !tr.resting.Equal(rem)) {
		t.Errorf("%s: reported remainder %s %q; open orders show %s", name, rem, res.Remainder, tr.resting)
	}
	if (res.Remainder == "resting") != wantResting {
		t.Errorf("%s: remainder fate %q", name, res.Remainder)
	}
}

// TestOrdersReportTheTruth (issue #17), against a still simulator over HTTP: a market order larger
// than the book within its bound, an IOC that partly fills, a FOK that cannot fill and a crossing
// GTC limit that partly fills and rests each report exactly the filled size, average price, fees
// and remainder the exchange's fills and open orders show; the preview's expected average is
// within one tick of the realised one, and its fillable size is what filled. Guards: fees not
// looked up (Fee absent), a remainder called resting when cancelled or the reverse, the walk's
// bound or size cap broken (preview differs from the fill).
func TestOrdersReportTheTruth(t *testing.T) {
	t.Parallel()
	h := newStillHarness(t)
	const sym = "ETH-PERP"
	ins, _ := h.client().Instruments(context.Background(), "all")
	st := state.New(nil)
	st.Apply(state.InstrumentsMsg{Instruments: ins})
	in, _ := st.Instrument(sym)
	lot, tick := in.LotSize, in.TickSize

	// IOC, FOK and GTC at the second ask for more than the first two asks hold.
	for _, c := range []struct {
		tif     string
		resting bool
		filled  bool
	}{{"FOK", false, false}, {"IOC", false, true}, {"GTC", true, true}} {
		b := h.book(sym)
		px := b.Asks[1].Price
		over := b.Asks[0].Size.Add(b.Asks[1].Size).Add(lot.Mul(decimal.NewFromInt(3)))
		args := []string{"--instrument", sym, "--side", "buy", "--size", over.String(), "--price", px.String(), "--tif", c.tif, "--yes"}
		pre := h.orderJSON(append(args, "--dry-run")...)
		if pre.Preview.Book == nil || !pre.Preview.Book.Fillable.Equal(over.Sub(lot.Mul(decimal.NewFromInt(3)))) {
			t.Errorf("%s: preview %+v of %s", c.tif, pre.Preview.Book, over)
		}
		if c.tif == "FOK" {
			// The simulator refuses a FOK it cannot fill whole: the command fails with its words,
			// and nothing filled or rests.
			code, _, errs := h.run(append([]string{"order"}, args...)...)
			if code == 0 || !strings.Contains(errs, "fill-or-kill order cannot fill in full") || len(h.openOrders()) != 0 {
				t.Errorf("FOK: exit %d %q", code, errs)
			}
			continue
		}
		exit := ExitOK
		if c.tif == "IOC" { // filled in part, the rest cancelled
			exit = ExitPartial
		}
		res := h.orderJSONExit(exit, args...)
		if res.Oid == 0 {
			t.Fatalf("%s: no order id: %+v", c.tif, res)
		}
		tr := h.truthOf(res.Oid)
		checkTruth(t, c.tif, res, over, tr, c.resting)
		if c.filled != tr.fill.Size.IsPositive() {
			t.Errorf("%s: filled %s", c.tif, tr.fill.Size)
		}
		if pre.Preview.Book == nil || (c.filled && !pre.Preview.Book.Fillable.Equal(tr.fill.Size)) {
			t.Errorf("%s: preview %+v, filled %s", c.tif, pre.Preview.Book, tr.fill.Size)
		}
		if c.filled && pre.Preview.Book.ExpectedAvg.Sub(tr.fill.AvgPrice).Abs().GreaterThan(tick) {
			t.Errorf("%s: expected avg %s, realised %s", c.tif, pre.Preview.Book.ExpectedAvg, tr.fill.AvgPrice)
		}
		h.ok("cancel-all", "--yes")
	}

	// A market order for more than the book holds within the 1% bound.
	pre := h.orderJSON("--instrument", sym, "--side", "sell", "--size", "250", "--market", "--dry-run", "--yes")
	if pre.Preview.Book == nil || !pre.Preview.Book.Fillable.LessThan(decimal.NewFromInt(250)) {
		t.Fatalf("the preview does not say the book is short: %+v", pre.Preview.Book)
	}
	res := h.orderJSONExit(ExitPartial, "--instrument", sym, "--side", "sell", "--size", "250", "--market", "--yes")
	tr := h.truthOf(res.Oid)
	checkTruth(t, "market", res, decimal.NewFromInt(250), tr, false)
	if !pre.Preview.Book.Fillable.Equal(tr.fill.Size) || pre.Preview.Book.ExpectedAvg.Sub(tr.fill.AvgPrice).Abs().GreaterThan(tick) {
		t.Errorf("market: preview %+v, realised %s at %s", pre.Preview.Book, tr.fill.Size, tr.fill.AvgPrice)
	}
	if res.Remainder != "cancelled: no more liquidity within the slippage bound" {
		t.Errorf("market remainder %q", res.Remainder)
	}
}

// reshape rewrites the simulator's placeOrder answer: data.status becomes what f makes of it.
func reshape(t *testing.T, f func(st map[string]any) any) *func([]byte) []byte {
	g := func(b []byte) []byte {
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Errorf("answer %s: %v", b, err)
			return b
		}
		data, _ := m["data"].(map[string]any)
		st, _ := data["status"].(map[string]any)
		m["data"] = map[string]any{"status": f(st)}
		out, _ := json.Marshal(m)
		return out
	}
	return &g
}

// TestOtherAnswerShapesReportTheTruth (issue #17): the spec's bare {status:{oid}} and an answer of
// unknown shape still report what the exchange's fills and open orders show (looked up by order id,
// and by cloid when the answer names no order), never a bare "accepted" or success. Guards: the
// fills lookup skipped for a bare id (the "Order id ... accepted" for a partial fill), an
// unknown shape read as success without a lookup, the resting lookup dropped (a resting remainder
// called cancelled).
func TestOtherAnswerShapesReportTheTruth(t *testing.T) {
	t.Parallel()
	h := newStillHarness(t)
	const sym = "ETH-PERP"
	lot := decimal.RequireFromString("0.001")
	for _, shape := range []struct {
		name string
		f    func(st map[string]any) any
	}{
		{"spec", func(st map[string]any) any { return map[string]any{"oid": st["oid"]} }},
		{"public bot", func(st map[string]any) any { return []any{map[string]any{"resting": map[string]any{"oid": st["oid"]}}} }},
		{"unknown", func(map[string]any) any { return map[string]any{"accepted": true} }},
	} {
		b := h.book(sym)
		px := b.Asks[1].Price
		size := b.Asks[0].Size.Add(b.Asks[1].Size).Add(lot.Mul(decimal.NewFromInt(5)))
		h.drop.rewrite.Store(reshape(t, shape.f))
		res := h.orderJSON("--instrument", sym, "--side", "buy", "--size", size.String(), "--price", px.String(), "--yes")
		if res.Oid == 0 {
			t.Fatalf("%s: no order id after the lookup: %+v", shape.name, res)
		}
		checkTruth(t, shape.name, res, size, h.truthOf(res.Oid), true)
		if res.Status != "filled" {
			t.Errorf("%s: status %q", shape.name, res.Status)
		}
		h.ok("cancel-all", "--yes")
	}
}

// TestPartlyFilledMarketOrder (issue #31, 12): a market sell for more than the book holds within
// its bound fills in part: `order` says "partly filled: X of 250 ETH-PERP; R cancelled: ...",
// its status and outcome are "partial" and it exits 6 (ExitPartial), not 0 as if done; and
// `tradedesk history` says "partly filled X" where it said "cancelled". Guards the partial fill
// exiting 0 and the history's bare state word.
func TestPartlyFilledMarketOrder(t *testing.T) {
	t.Parallel()
	h := newStillHarness(t)
	const sym = "ETH-PERP"
	code, out, errs := h.run("order", "--instrument", sym, "--side", "sell", "--size", "250", "--market", "--yes")
	if code != ExitPartial || OutcomeWord(code) != "partial" {
		t.Fatalf("exit %d (%s), want %d: %s %s", code, OutcomeWord(code), ExitPartial, out, errs)
	}
	oid := regexp.MustCompile(`Order id\s+(\d+) partial`).FindStringSubmatch(out)
	if oid == nil {
		t.Fatalf("no 'Order id N partial' line:\n%s", out)
	}
	n, _ := strconv.ParseUint(oid[1], 10, 64)
	filled := h.truthOf(api.OrderID(n)).fill.Size
	ins, _ := h.client().Instruments(context.Background(), "all")
	st := state.New(nil)
	st.Apply(state.InstrumentsMsg{Instruments: ins})
	in, _ := st.Instrument(sym)
	want := "partly filled: " + in.SizeText(filled) + " of " + in.SizeText(decimal.NewFromInt(250)) + " " + sym + "; " +
		in.SizeText(decimal.NewFromInt(250).Sub(filled)) + " cancelled: no more liquidity within the slippage bound"
	if !filled.IsPositive() || !strings.Contains(errs, want) {
		t.Errorf("stderr %q, want %q", errs, want)
	}
	hist := h.ok("history")
	if !strings.Contains(hist, "partly filled "+in.SizeText(filled)) {
		t.Errorf("history does not say the order partly filled %s:\n%s", in.SizeText(filled), hist)
	}
}
