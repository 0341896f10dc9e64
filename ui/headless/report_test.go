package headless

import (
	"encoding/csv"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/state/report"
)

// TestReportPnlAndTrades (issue #41): after a market order over several levels sent by `order`,
// `report --json` gives its card with the exchange's VWAP and fees and the slippage against the
// arrival and preview the order journaled at send; `report --csv` has the same average;
// `trades --json` holds the open position's round trip; `pnl --daily 2 --json` today's fees; a
// bad --since says what to give. Guards: the arrival not read from the command's journal, the
// CSV's columns out of step with its header.
func TestReportPnlAndTrades(t *testing.T) {
	t.Parallel()
	h := newStillHarness(t)
	const sym = "ETH-PERP"
	b := h.book(sym)
	size := b.Asks[0].Size.Add(b.Asks[1].Size).Add(decimal.RequireFromString("0.01"))
	res := h.orderJSON("--instrument", sym, "--side", "buy", "--size", size.String(), "--market", "--yes")
	tr := h.truthOf(res.Oid)

	var rows []reportRow
	if err := json.Unmarshal([]byte(h.ok("report", "--json")), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].OrderID != res.Oid || !rows[0].AvgPrice.Equal(tr.fill.AvgPrice) || !rows[0].Fee.Equal(tr.fill.Fee) ||
		!rows[0].VsPreview.Known || !rows[0].VsArrival.Known || !rows[0].VsArrival.Bp.IsPositive() {
		t.Fatalf("report %+v; the exchange's fills say %+v", rows, tr.fill)
	}
	recs, err := csv.NewReader(strings.NewReader(h.ok("report", "--csv"))).ReadAll()
	if err != nil || len(recs) != 2 || len(recs[1]) != len(reportColumns) || recs[1][7] != tr.fill.AvgPrice.String() || reportColumns[7] != "avg_price" {
		t.Fatalf("csv %v %v", recs, err)
	}
	var trips []report.Trip
	if err := json.Unmarshal([]byte(h.ok("trades", "--json")), &trips); err != nil {
		t.Fatal(err)
	}
	if len(trips) != 1 || !trips[0].Open || !trips[0].Long || !trips[0].SizeIn.Equal(tr.fill.Size) || !trips[0].AvgIn.Equal(tr.fill.AvgPrice) {
		t.Fatalf("trades %+v", trips)
	}
	var days []report.Day
	if err := json.Unmarshal([]byte(h.ok("pnl", "--daily", "2", "--json")), &days); err != nil {
		t.Fatal(err)
	}
	if len(days) != 2 || !days[0].Fees.Add(days[1].Fees).Equal(tr.fill.Fee) {
		t.Fatalf("pnl %+v, fees %s", days, tr.fill.Fee)
	}
	if code, _, errs := h.run("report", "--since", "week"); code == 0 || !strings.Contains(errs, "7d, 12h or 90m") {
		t.Errorf("bad --since: exit %d %q", code, errs)
	}
	if out := h.ok("trades"); !strings.Contains(out, "open") || !strings.Contains(out, sym) {
		t.Errorf("trades table:\n%s", out)
	}
	// The result line of an order says its slippage and fee in one phrase.
	out := h.ok("order", "--instrument", sym, "--side", "sell", "--size", "0.5", "--market", "--yes")
	if !regexp.MustCompile(`Filled +0\.500 of 0\.500 at [0-9,.]+ avg, slip [+-]?[0-9.]+ bp vs preview, fee [0-9.]+ USD`).MatchString(out) {
		t.Errorf("no slippage and fee on the result line:\n%s", out)
	}
}
